"""Issue 28, one person, one name: two names of one player merged into one
from a page the box's Settings open as a QR code, and taken back.  The
merge is a row of the box's store; the phones' players' pages count every
game again with it, as if the names had always been one."""
from __future__ import annotations

import json
import re
import urllib.parse
from urllib.parse import quote

import pytest

from referee import channel, merging
from referee.store.events import Merge
from referee.testing import Table
from test_players import page, text
from test_web_naming import main_lines


def merge_page(t) -> str:
    t.type("8")                                            # Settings
    t.type("5")                                            # Merge names
    [qr] = [line[3:] for line in t.screen().splitlines() if line.startswith("QR ")]
    return urllib.parse.urlsplit(qr).path


def post(t, path, fields):
    status, headers, _body = t.get(path)
    assert status == 200
    cookie = headers["Set-Cookie"].split(";")[0]
    return t.post(path, {"csrf": cookie.split("=", 1)[1], **fields},
                  {"Cookie": cookie, "Origin": t.web_url().rstrip("/"), "Sec-Fetch-Site": "same-origin"})


def marek_wins_against(t, players) -> None:
    """tests/test_decipher_table.py's game with other names: the third seat wins."""
    t.start("decipher", players=players)
    t.type("#3A#")
    t.type("#D4")
    t.type("*3A#")
    t.type("#2A")
    t.press("#")


def rating(t, name: str) -> dict:
    status, _h, body = t.get(f"/api/p/{quote(name.casefold(), safe='')}.json")
    assert status == 200, (name, status)
    return json.loads(body)["games"]["decipher"]["rating"]


GAMES = [["Mirek", "Ania", "Marek"], ["Ania K.", "Mirek", "Marek"], ["Mirek", "ania k.", "Marek"]]


def test_the_merge_page_opens_only_while_its_qr_code_is_up():
    with Table(seed=5) as t:
        t.web_url()
        path = merge_page(t)
        assert re.fullmatch(r"/M/[A-Z2-7]{26}", path)
        assert main_lines(t)[0] == "[Names]"
        assert t.get(path)[0] == 200
        t.type("*")                                        # back to Settings: the address is dead
        assert t.get(path)[0] == 404 and t.post(path, {"from": "a", "into": "b"})[0] == 404
        again = merge_page(t)
        assert again != path and t.get(again)[0] == 200
        t.restart()                                        # a power cut: the box starts on its menu
        assert t.get(again)[0] == 404
        assert t.get("/M/" + "A" * 26)[0] == 404


def test_a_merge_counts_both_names_as_one_player_and_its_undo_as_two():
    with Table(seed=3) as t, Table(seed=3) as one:
        for players in GAMES:
            marek_wins_against(t, players)
            marek_wins_against(one, [("Ania" if p.casefold().startswith("ania") else p) for p in players])
        assert rating(t, "Ania K.")["games"] == 2 and rating(t, "Ania")["games"] == 1
        path = merge_page(t)
        assert post(t, path, {"from": "ania k.", "into": "ania"})[0] == 303
        assert t.box.store.merges()[0].from_key == "ania k."
        for name in ("Ania", "Mirek", "Marek"):
            assert rating(t, name) == rating(one, name)    # as if she had always typed one name
        assert t.get("/p/ania%20k.")[:2][0] == 303 and t.get("/p/ania%20k.")[1]["Location"] == "/p/@ania"
        ania = text(page(t, "/p/@ania"))
        assert "Ania 3 games · 0 won" in ania and "Also played as: ania k." in ania
        assert "Ania K." not in text(page(t, "/p/"))
        listed = text(t.get(path)[2])
        assert "ania k. → Ania" in listed
        [merge] = t.box.store.merges()
        assert post(t, path, {"undo": str(merge.id)})[0] == 303
        assert t.box.store.merges() == []
        assert rating(t, "Ania K.")["games"] == 2 and rating(t, "Ania")["games"] == 1
        assert "Also played as" not in text(page(t, "/p/@ania"))


def test_a_merge_that_cannot_be_is_refused_on_the_phone():
    with Table(seed=3) as t:
        for players in GAMES[:2]:
            marek_wins_against(t, players)
        path = merge_page(t)
        status, _h, body = post(t, path, {"from": "ania", "into": "mirek"})
        assert status == 400 and "Ania and Mirek played in one game: they are two players." in text(body)
        assert post(t, path, {"from": "ania", "into": "ania"})[0] == 400
        assert post(t, path, {"from": "nobody", "into": "ania"})[0] == 400
        assert post(t, path, {"from": "ania k.", "into": "ania"})[0] == 303
        status, _h, body = post(t, path, {"from": "ania", "into": "ania k."})   # the merge in its turn
        assert status == 400
        assert t.box.store.merges() == [Merge(1, "ania k.", "ania", t.box.store.merges()[0].at)]
        status, _h, body = post(t, path, {"undo": "7"})
        assert status == 400 and "That merge was already taken back." in text(body)
        # What no page sends is refused, never a fault: digits int() does
        # not read, and a row number past SQLite's INTEGER.
        assert post(t, path, {"undo": "²"})[0] == 400
        assert post(t, path, {"undo": "9" * 30})[0] == 404
        assert t.box.store.merges() == [Merge(1, "ania k.", "ania", t.box.store.merges()[0].at)]


def test_merges_follow_chains_and_never_make_a_cycle():
    rows = [Merge(1, "b", "c", 0.0), Merge(2, "a", "b", 0.0), Merge(3, "c", "a", 0.0), Merge(4, "a", "d", 0.0)]
    assert merging.aliases(rows) == {"a": "c", "b": "c"}   # the cycle and the second merge of "a" passed over
    with pytest.raises(Exception, match="itself"):
        merging.check(rows[:2], "c", "a")
    with pytest.raises(Exception, match="already merged"):
        merging.check(rows[:2], "a", "d")
    merging.check(rows[:2], "c", "d")


def test_the_merge_survives_a_power_cut_and_so_does_its_undo():
    with Table(seed=3) as t:
        for players in GAMES[:2]:
            marek_wins_against(t, players)
        path = merge_page(t)
        assert post(t, path, {"from": "ania k.", "into": "ania"})[0] == 303
        t.restart()
        assert rating(t, "Ania")["games"] == 2
        path = merge_page(t)
        assert post(t, path, {"undo": str(t.box.store.merges()[0].id)})[0] == 303
        t.restart()
        assert rating(t, "Ania")["games"] == 1 and rating(t, "Ania K.")["games"] == 1


# --- a real box and a real web, and a power cut -------------------------------------------------

def test_a_merge_and_its_undo_outlive_a_power_cut_of_a_real_box(tmp_path):
    from processes import until
    from test_web_split import Table as Processes
    import signal
    import sqlite3

    with Table(seed=3) as played:                          # an evening already on the card
        for players in GAMES[:2]:
            marek_wins_against(played, players)
        with sqlite3.connect(played.database) as source, sqlite3.connect(tmp_path / "referee.db") as card:
            source.backup(card)
    t = Processes(tmp_path)
    try:
        def json_of(path):
            status, _h, body = t.get(path)
            return json.loads(body) if status == 200 else None

        def games_of(name):
            found = json_of(f"/api/p/{quote(name, safe='')}.json")
            return found and found["games"]["decipher"]["rating"]["games"]

        def real_post(path, fields):
            status, headers, _body = t.get(path)
            assert status == 200
            cookie = headers["Set-Cookie"].split(";")[0]
            return t.get(path, {"Cookie": cookie, "Origin": t.url.rstrip("/"), "Sec-Fetch-Site": "same-origin"},
                         {"csrf": cookie.split("=", 1)[1], **fields})

        def opened() -> str:
            assert t.press("8", "5") == ["ok", "ok"]       # Settings, Merge names
            [qr] = [line[3:] for line in t.screen().splitlines() if line.startswith("QR ")]
            path = urllib.parse.urlsplit(qr).path
            until(lambda: t.get(path)[0] == 200, what="the merge page")
            return path

        def power_cut():
            t.box.send_signal(signal.SIGKILL)
            t.box.wait()
            t.box = t._spawn("run", "box.log")
            until(t._connect, what="the box's start")

        assert games_of("ania") == 1 and games_of("ania k.") == 1
        path = opened()
        assert real_post(path, {"from": "ania k.", "into": "ania"})[0] == 303
        until(lambda: games_of("ania") == 2, what="the merge on the players' pages")
        power_cut()
        assert t.get(path)[0] == 404                       # the page died with the box
        assert t.rows("SELECT from_key, into_key, undone FROM merges") == [("ania k.", "ania", None)]
        assert games_of("ania") == 2
        path = opened()
        [(merge,)] = t.rows("SELECT id FROM merges")
        assert real_post(path, {"undo": str(merge)})[0] == 303
        until(lambda: games_of("ania") == 1, what="the undo on the players' pages")
        power_cut()
        assert t.rows("SELECT count(*) FROM merges WHERE undone IS NULL") == [(0,)]
        until(lambda: games_of("ania") == 1 and games_of("ania k.") == 1, what="two players again")
    finally:
        t.close()


def test_merges_are_saved_with_the_games_when_a_damaged_card_is_repaired():
    from test_card_damage import _break_the_events_schema, flat
    with Table(seed=3) as t:
        for players in GAMES:
            marek_wins_against(t, players)
        path = merge_page(t)
        assert post(t, path, {"from": "ania k.", "into": "ania"})[0] == 303
        for _ in range(5):                                   # more merges than games, taken back
            t.box.store.undo_merge(t.box.store.add_merge("mirek", "marek", 0.0), 1.0)
        t.restart(meanwhile=_break_the_events_schema)
        assert "Database repaired: nothing lost" in flat(t.screen())
        assert [(m.from_key, m.into_key) for m in t.box.store.merges()] == [("ania k.", "ania")]
        assert rating(t, "Ania")["games"] == 3 and rating(t, "Mirek")["games"] == 3


# --- issue 33 item 3: checked where it is written -------------------------------------------

def at_once(t, path, *forms) -> list[tuple[int, str]]:
    """The merge page's form posted from two phones at the same moment:
    each request checked by the web before the box has taken the other."""
    import asyncio

    import aiohttp
    _status, headers, _body = t.get(path)
    cookie = headers["Set-Cookie"].split(";")[0]
    head = {"Cookie": cookie, "Origin": t.web_url().rstrip("/"), "Sec-Fetch-Site": "same-origin"}

    async def post(session, form):
        async with session.post(t.web_url() + path.lstrip("/"), data={"csrf": cookie.split("=", 1)[1], **form},
                                headers=head, allow_redirects=False) as answer:
            return answer.status, await answer.text()

    async def both():
        async with aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar()) as session:
            return await asyncio.gather(*(post(session, form) for form in forms))
    answers = t.loop.run_until_complete(both())
    t.advance(0)
    return answers


# Ania K. and Anička sat in one game: two people, each of whom may be Ania.
SISTERS = [["Ania K.", "Anička", "Marek"], ["Ania", "Mirek", "Marek"]]


def test_two_merges_at_once_never_join_two_players_of_one_game():
    with Table(seed=3) as t:
        for players in SISTERS:
            marek_wins_against(t, players)
        path = merge_page(t)
        answers = at_once(t, path, {"from": "ania k.", "into": "ania"}, {"from": "anička", "into": "ania"})
        assert sorted(status for status, _body in answers) == [303, 400]
        [refused] = [text(body) for status, body in answers if status == 400]
        assert "Anička and Ania K. played in one game: they are two players." in refused
        assert [(m.from_key, m.into_key) for m in t.box.store.merges()] == [("ania k.", "ania")]
        assert rating(t, "Anička")["games"] == 1 and rating(t, "Ania")["games"] == 2


def test_the_boxs_channel_refuses_a_merge_of_two_players_of_one_game():
    with Table(seed=3) as t:
        for players in GAMES[:2] + [["Ola", "Mirek", "Marek"], ["İpek", "Mirek", "Marek"]]:
            marek_wins_against(t, players)
        token = merge_page(t).rsplit("/", 1)[1]
        box = channel.Client(channel.socket_path(t.database))

        def ask(from_key, into_key):
            answer = t.loop.run_until_complete(box.ask("merges.merge", token=token, from_key=from_key,
                                                       into_key=into_key))
            t.advance(0)
            return answer

        assert ask("ania", "mirek") == {"refused": "Ania and Mirek played in one game: they are two players."}
        assert ask("ania k.", "ania") == {"ok": True}
        # Through the merge: Mirek sat with Ania K., who is Ania now.
        assert ask("mirek", "ania") == {"refused": "Mirek and Ania played in one game: they are two players."}
        assert ask("marek", "ola") == {"refused": "Marek and Ola played in one game: they are two players."}
        assert ask("ola", "ania") == {"ok": True}
        assert ask("i\u0307pek", "ania") == {"ok": True}       # İpek as the ledger keys her: "i", a dot above, "pek"
        assert [(m.from_key, m.into_key) for m in t.box.store.merges()] == [
            ("ania k.", "ania"), ("ola", "ania"), ("i\u0307pek", "ania")]


def test_the_members_of_a_game_of_teams_are_two_players_whichever_team_they_sat_in():
    """A game of teams names its players by team (the catalogue's
    ``members``): teammates, and rivals across the table, played in one game."""
    with Table(seed=3) as t:
        t.start("decrypto", members=[["Ann", "Bob"], ["Cy", "Dana"]])
        seated = sorted(name for _game, name in t.box.store.seated())
        assert seated == ["Ann", "Bob", "Cy", "Dana"]
        for other in ("bob", "cy"):
            with pytest.raises(Exception, match="played in one game"):
                merging.check(t.box.store.merges(), other, "ann", t.box.store.seated())
        merging.check(t.box.store.merges(), "eve", "ann", t.box.store.seated())   # never met: may be one
