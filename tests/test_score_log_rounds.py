"""A game's score log read back from its JSON: entries written while the
rounds were plain mappings (``score_logs_stored.json``: a game of each
kind, Decrypto's with both variants and with typed clues) decode into the
game's own ``Summary`` with its own kind of round, and write the rounds out
again exactly as they were stored."""
from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

from games import base, davinci, decipher, decrypto, octiles, osmisifry

STORED = json.loads((Path(__file__).parent / "score_logs_stored.json").read_text(encoding="utf-8"))
RULES = {"davinci": (davinci, davinci.GameLog), "decipher": (decipher, decipher.RoundTable),
         "decrypto": (decrypto, decrypto.RoundLog), "octiles": (octiles, octiles.TurnLog),
         "osmisifry": (osmisifry, osmisifry.Booklet)}
ENTRIES = [(game, n, entry) for game, entries in STORED.items() for n, entry in enumerate(entries)]


@pytest.mark.parametrize(("game", "n", "stored"), ENTRIES, ids=[f"{game}-{n}" for game, n, _ in ENTRIES])
def test_a_stored_score_log_reads_back_with_its_games_rounds_and_writes_them_as_stored(game, n, stored):
    rules, kind = RULES[game]
    summary = msgspec.json.decode(json.dumps(stored), type=rules.Summary)
    assert summary.rounds and all(type(r) is kind for r in summary.rounds)
    written = msgspec.to_builtins(summary)
    assert written["rounds"] == stored["rounds"]
    # The rest as stored too, but for a None the summary now leaves out (its default).
    assert written == {key: value for key, value in stored.items() if value is not None}


def test_every_game_in_the_stored_logs_has_a_round_of_its_own():
    assert set(STORED) == set(RULES)
    assert all(issubclass(kind, base.Round) and kind is not base.Round for _rules, kind in RULES.values())


def test_decrypto_round_keeps_typed_clues_and_an_untried_interception():
    typed = msgspec.convert(STORED["decrypto"][2], decrypto.Summary).rounds[0]
    assert typed.clues == {"White": ["Mexico", "insect", "fear"]}
    assert typed.guesses["White"].intercept is None and typed.tokens["Black"].miscommunications == 0


def test_octiles_turn_in_referee_mode_keeps_the_runners_move_under_from_and_to():
    turns = msgspec.convert(STORED["octiles"][0], octiles.Summary).rounds
    moved = next(t for t in turns if t.start is not None)
    assert {"from", "to", "rotation"} <= set(msgspec.to_builtins(moved))
