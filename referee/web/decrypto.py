"""Decrypto on the team pages: the form on which the encryptor types the
round's three clues (``templates/team-decrypto.html``).

The form only carries the text; the rules judge it (``games.decrypto.Clues``)
and a refusal comes back on the page as their sentence.
"""
from __future__ import annotations

from games import decrypto as d

FIELDS = ("clue1", "clue2", "clue3")   # in code order, as the template names them


def team_form(state: d.State, team: int, form: dict[str, str]) -> d.Clues:
    return d.Clues(team, tuple(form.get(name, "") for name in FIELDS))
