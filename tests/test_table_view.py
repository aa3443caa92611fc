"""Issue 38, item 2: the table view (``/table``) on the virtual table, where
the box and the web share the manual clock: what it shows of a game, its
countdown against the box's to the millisecond across a pause, an undo and
a power cut, tonight's standings between games, that it never shows a
secret, and the Score log menu's QR code that offers it.  The same page in
Chromium against real processes is ``test_table_browser.py``."""
from __future__ import annotations

import dataclasses
import json
import re

import pytest
import zxingcpp

from games import davinci, decrypto, tools
from referee.box.screen import SAID, W, key_line, layout, qr_image
from referee.testing import Table
from referee.web import sheets, table as table_view
from test_web import act, decipher_game, decrypto_clues, decrypto_guesses, state, wrong  # noqa: F401


def view(t: Table) -> dict:
    status, _headers, body = t.get("/api/table")
    assert status == 200
    return json.loads(body)


def watched(t: Table) -> dict:
    """The view once the web has heard the box (its watch is up)."""
    t.web_url()
    for _ in range(50):
        if t._web.channel.watching:
            break
        t.get("/static/table.js")     # a turn of the loop for the watch to connect
    return view(t)


def dashed(code) -> str:
    """A code as the box's line writes it: "4-1-3"."""
    return "-".join(map(str, code))


def drawn_said(t: Table) -> str:
    """The public screen's » line as its panel draws it ("" where the page
    leaves it no row, and before the first action)."""
    if not t.box.session.can_undo():
        return ""
    main = t.box.shown["main"]
    if t.box.game_menu.said() in main.lines:             # a page that says it already
        return t.box.game_menu.said()
    return layout(dataclasses.replace(main, flash="")).said.replace("\n", " ").removeprefix(SAID)


def left_on_the_box(t: Table) -> float:
    cd = t.box.countdown() or t.box.session.state.countdown
    return cd.remaining(t.box.game_time())


def test_the_score_log_menu_offers_the_table_views_code_and_address(table):
    t = table
    t.press("7")                                       # Score log
    t.press("D")                                       # its next page: the table view's
    screen = t.box.shown["main"]
    url = t.box.public_url() + "TABLE"
    assert screen.title == "Table view" and screen.qr == url
    assert [c.text for c in zxingcpp.read_barcodes(t.image("main").convert("L"))] == [url]
    assert "".join(screen.lines) == "127.0.0.1:8080/TABLE"   # written whole, for a TV's keyboard
    width = (W - qr_image(url).width - 4) // 6
    assert len(key_line(screen.keys)) <= width and screen.keys == (("D", "►"), ("*", "Menu"))
    t.press("B")                                       # B, the box's "no", turns no page
    assert t.box.shown["main"].title == "Table view"
    t.press("D")
    assert t.box.shown["main"].title == "Scores"       # round again
    assert "Table view" in t.get("/TABLE")[2]          # the address as the code has it, in capitals
    t.press("#")                                       # # does nothing here
    assert t.box.shown["main"].title == "Scores"


def test_a_long_address_is_written_whole_beside_the_table_views_code():
    with Table(config={"web": {"public_url": "HTTP://192.168.100.200:8080"}}) as t:
        t.press("7")
        t.press("D")
        screen = t.box.shown["main"]
        assert screen.lines == ("192.168.", "100.200", ":8080/", "TABLE")
        assert "TABLE" in t.screen()                   # on the panel, not cut off under the key bar
        assert [c.text for c in zxingcpp.read_barcodes(t.image("main").convert("L"))] == [screen.qr]


def test_DE6_the_table_view_follows_a_decrypto_game_round_turn_tokens_and_the_last_action(table):
    t = table
    t.start("decrypto")
    v = watched(t)
    # The page the box is on, in its title, and what the round waits for.
    assert v["title"] == "Decrypto" and v["lines"] == ["Round 1: encryptors", "encryptors writing clues"]
    assert [s["name"] for s in v["sides"]] == ["White", "Black"]
    assert v["said"] == "" and v["countdown"] is None
    t.press("team1")
    t.press("team1")                                   # White is done [DE-4]: Black has 30 s
    v = view(t)
    assert v["said"] == "White: clues done" and "»White: clues done" in t.screen()
    assert v["countdown"] == {"left": 30.0, "running": True, "seconds": 30.0}
    t.advance(12.5)
    assert view(t)["countdown"]["left"] == 17.5 == left_on_the_box(t)
    act(t, decrypto.CluesDone(1))
    v = view(t)
    assert v["lines"] == ["Round 1: White code", "White decodes"] and v["countdown"] is None
    act(t, decrypto.Guess(0, state(t).codes[0]), decrypto.Guess(1, state(t).codes[1]))
    v = view(t)   # the box shows the round's last reveal until #, and so does the view
    assert v["lines"] == [t.box.shown["main"].title] and v["lines"][0].startswith("Round 1: Black ")
    t.press("#")
    assert view(t)["lines"] == ["Round 2: encryptors"]
    decrypto_clues(t)
    code = state(t).codes[0]
    act(t, decrypto.Guess(1, code))                    # Black intercepts White's code [DE-6]
    v = view(t)
    assert v["lines"] == ["Round 2: White code", "White decodes"]
    assert v["said"] == drawn_said(t) == ""            # the decode page leaves the » line no row, and says none
    assert v["account"]["said"] == ""
    act(t, decrypto.Guess(0, code))
    v = view(t)
    assert v["said"] == f"White: {dashed(code)} right"          # the reveal, as its page reads it
    assert [s["score"] for s in v["sides"]] == ["0 interceptions, 0 miscommunications",
                                                "1 interception, 0 miscommunications"]


def test_under_a_taught_page_or_the_help_the_table_view_names_the_phase_the_box_is_on(table):
    t = table
    t.start("davinci", teach=True, players=["Ann", "Bo"])
    assert t.screen().startswith("[How it goes]")     # the deal's taught page, over the deal
    deal = t.box.flow.screens()["main"].title
    assert deal == "Take 4 tiles each" and watched(t)["lines"][0] == deal
    t.press("#")                                       # read: the deal itself
    t.press("#")                                       # dealt: Ann's turn, its taught page over it
    assert t.screen().startswith("[How it goes]")
    assert view(t)["lines"][0] == t.box.flow.screens()["main"].title == "Ann: draw a tile"
    t.press("#")
    t.press("C")                                       # the help in play, over the turn
    assert t.screen().startswith("[Help 1/")
    assert view(t)["lines"][0] == "Ann: draw a tile"


def test_a_game_of_points_shows_each_players_total_as_the_score_log_has_it(table):
    t = table
    decipher_game(t)                                   # Cy makes the third word
    v = watched(t)
    totals = t.log()[0]["totals"]
    assert v["lines"] == ["3/3 Maker: Cy", "Turn: Bob"]   # as the box says them
    assert v["said"] == drawn_said(t) == ""            # its four lines leave the » line no row
    assert [(s["name"], s["score"]) for s in v["sides"]] == [(name, str(totals[name])) for name in ("Ann", "Bob", "Cy")]
    assert f'<span class="score points">{totals["Bob"]}</span>' in t.get("/table")[2]   # large: a number


def test_the_countdown_stays_with_the_box_across_a_pause_an_undo_and_a_power_cut(table):
    t = table
    t.start("tools")
    assert watched(t)["countdown"] == {"left": 60.0, "running": False, "seconds": 60.0}
    t.press("#")                                       # go
    t.advance(10.0)
    v = view(t)["countdown"]
    assert v["running"] and v["left"] == left_on_the_box(t) and "0:50" in t.screen()
    t.press("#")                                       # pause
    paused = left_on_the_box(t)
    t.advance(30.0)
    assert view(t)["countdown"] == {"left": round(paused, 3), "running": False, "seconds": 60.0}
    t.press("#")                                       # go on
    t.advance(5.0)
    t.hold("*", 1.0)                                   # take back the last action: the go
    t.press("#")
    assert "Undone." in t.screen()
    v = view(t)["countdown"]
    assert not v["running"] and v["left"] == round(left_on_the_box(t), 3) == round(paused, 3)
    t.press("#")
    t.advance(3.0)
    t.restart(off=600)                                 # ten minutes without power: the game clock stood
    v = watched(t)["countdown"]
    assert v["running"] and abs(v["left"] - left_on_the_box(t)) < 1e-3
    assert abs(v["left"] - paused) < 1e-3              # from the last press that moved it, as the box


def test_the_table_views_countdown_stands_while_the_box_is_gone(table):
    t = table
    t.start("tools")
    watched(t)
    t.press("#")
    t.advance(4.0)
    t.loop.run_until_complete(t._channel.aclose())     # the box's end of the channel goes
    for _ in range(20):
        if not t._web.channel.watching:
            break
        t.get("/static/table.js")
    t.advance(20.0)
    first = view(t)["countdown"]
    t.advance(20.0)
    assert view(t)["countdown"] == first and not first["running"] and 55.0 <= first["left"] <= 56.0


def test_between_games_the_table_view_shows_tonights_standings(table):
    t = table
    t.start("davinci", players=["Ann", "Bob"])
    act(t, davinci.Dealt(), *[davinci.Attack(1, True)] * 4)    # Ann takes all of Bob's tiles
    v = watched(t)
    assert v["lines"][0] == "Ann wins" and [r["name"] for r in v["tonight"]] == ["Ann", "Bob"]
    t.box.leave()
    t.start("davinci", players=["Cy", "ann "])                # Ann again, typed another way
    act(t, davinci.Dealt(), *[davinci.Attack(1, True)] * 4)
    t.box.leave()
    v = view(t)
    assert v["title"] == "Tonight" and v["sides"] == [] and v["said"] == "" and v["countdown"] is None
    # One Ann, as the box compares names; most wins first, then fewer games.
    assert [(r["name"], r["games"], r["wins"]) for r in v["tonight"]] == [("Cy", 1, 1), ("Ann", 2, 1), ("Bob", 1, 0)]
    assert v["games"] == [{"title": "Da Vinci Code", "verdict": "Cy wins"},
                          {"title": "Da Vinci Code", "verdict": "Ann wins"}]
    page = t.get("/table")[2]
    assert "<th scope=\"row\">Cy</th><td>1</td><td>1</td>" in page
    assert not re.search(r"<(a|button|form|input|select)\b", page)    # nothing to press on a TV
    t.box.store.add_merge("bob", "cy", t.box.labels.now())           # as Settings' Merge names writes it
    t.box.changed()
    assert [(r["name"], r["games"], r["wins"]) for r in view(t)["tonight"]] == [("Ann", 2, 1), ("Cy", 2, 1)]


def test_DE3_the_table_view_never_shows_a_keyword_or_a_code_before_its_reveal(table):
    """Each step of a Decrypto game of three rounds (interceptions missed,
    a miscommunication): the view and its page hold no keyword and no code
    that the table has not seen revealed."""
    t = table
    t.start("decrypto")
    watched(t)
    words = [w for team in state(t).keywords for w in team]

    def check() -> None:
        s = state(t)
        v = view(t)
        # The line of the last action is the public screen's, word for word
        # (a wrong guess there may be the next round's code by chance).
        assert v["said"] == drawn_said(t)
        shown = (json.dumps({**v, "said": ""}, ensure_ascii=False) + t.get("/table")[2]).replace(v["said"], "")
        for word in words:
            assert not re.search(rf"\b{re.escape(word)}\b", shown, re.IGNORECASE), word
        revealed = {r.team for r in s.reveals}
        for team, code in enumerate(s.codes):
            if code is not None and team not in revealed:
                assert sheets.code(code) not in shown and "-".join(map(str, code)) not in shown, (team, code)

    for round_ in range(3):
        check()
        t.press("team1")
        t.press("team1")
        check()
        act(t, decrypto.CluesDone(1))
        while (now := decrypto.step(state(t))).kind in ("intercept", "decode"):
            check()
            code = state(t).codes[now.of_team]
            right = now.kind == "decode" and not (round_ == 1 and now.team == 1)
            act(t, decrypto.Guess(now.team, code if right else wrong(code)))
        check()


def test_a_screen_that_reads_nothing_is_dropped_and_holds_no_queue(table, monkeypatch):
    """A TV gone from the Wi-Fi without a word: its stream's buffers fill and
    the web ends it, rather than keep what it cannot send (here at once: no
    write may wait); a screen that reads goes on being served."""
    import socket

    from referee.web import live
    monkeypatch.setattr(live, "WRITE_SECONDS", 0)
    t = table
    t.start("tools")
    host, port = t.web_url().split("//")[1].strip("/").split(":")
    board = t._web.app[table_view.BOARD]
    sent = board.message
    # An evening's worth of messages in a few: each stands for hundreds, and
    # the first still goes whole into the web's 32 KB send buffer.
    monkeypatch.setattr(board, "message", lambda version: sent(version) + b": " + b"x" * 16 * 1024 + b"\n\n")
    gone = socket.socket()
    gone.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
    gone.connect((host, int(port)))
    gone.sendall(b"GET /table/live HTTP/1.1\r\nHost: x\r\n\r\n")          # and never reads again
    try:
        for _ in range(20):
            if board.listeners:
                break
            t.get("/static/table.js")
        assert board.listeners == 1
        for n in range(100):
            act(t, tools.SetTimer(60 + n))
            t.get("/static/table.js")
            if not board.listeners:
                break
        assert board.listeners == 0 and n < 99
    finally:
        gone.close()
    assert view(t)["countdown"]["seconds"] == 60 + n     # the page itself is served on


@pytest.mark.soak
@pytest.mark.slow_case      # some 800 changes at the least, each replayed by the web: make soak's alone
def test_an_evening_of_changes_with_screens_open_leaves_the_memory_where_it_was(table):
    """Five screens reading the stream while the table plays on, 4000
    changes after the warm-up (``make soak`` alone; a screen that reads
    nothing is dropped is make test's, above): each hears every change or the
    newest of several, none is dropped, and the objects the process holds,
    the box's and the web's, are as many as before, counted at the same
    point of the record's snapshot cycle (every ``SNAPSHOT_EVERY`` events,
    which bounds a replay's window) once the box's and the web's windows of
    the last ``KEPT`` events are full."""
    import asyncio
    import gc

    import aiohttp

    from referee.store.replay import KEPT, SNAPSHOT_EVERY
    t = table
    t.start("tools")
    url = t.web_url()
    board = t._web.app[table_view.BOARD]
    heard = [0] * 5

    async def open_session() -> aiohttp.ClientSession:
        return aiohttp.ClientSession()

    session = t.loop.run_until_complete(open_session())

    async def screen(n: int) -> None:
        async with session.get(url + "table/live") as stream:
            async for line in stream.content:
                heard[n] += line.startswith(b"data: ")

    screens = [t.loop.create_task(screen(n)) for n in range(5)]

    def change(n: int) -> None:
        act(t, tools.SetTimer(60 + n % 900))
        t.get("/static/table.js")                          # a turn of the loop: the screens read

    def objects() -> int:
        gc.collect()
        return len(gc.get_objects())

    try:
        n = 0
        while n < KEPT + SNAPSHOT_EVERY or t.box.store.last_seq(t.box.session.id) % SNAPSHOT_EVERY:
            change(n)
            n += 1
        changes = 20 * SNAPSHOT_EVERY
        before = objects()
        for n in range(changes):
            change(n)
        grown = objects() - before
        assert board.listeners == 5 and min(heard) >= changes // 2     # every screen served all along
    finally:
        for task in screens:
            task.cancel()
        t.loop.run_until_complete(asyncio.gather(*screens, return_exceptions=True))
        t.loop.run_until_complete(session.close())
    # A few hundred come and go (the loop's handles, caches that fill); one
    # kept a change would be thousands.
    assert grown < changes // 4, f"{grown} objects more after {changes} changes"
