"""Issue 17: the setup's names page, typed on a phone.  The box shows its
QR code on a setup form (``B``); the page opens only for that setup, what is
saved shows on the box's screens at once, and after the game starts the
address is dead."""
import asyncio
import html
import json
import re
import urllib.parse

import pytest

from referee import channel, setup_names
from referee.testing import Table


@pytest.fixture
def t():
    with Table(seed=7, lang="en") as table:
        table.web_url()
        yield table


def names_path(t) -> str:
    t.press("B")
    [qr] = [line[3:] for line in t.screen().splitlines() if line.startswith("QR ")]
    return urllib.parse.urlsplit(qr).path


def form_of(t, path):
    status, headers, body = t.get(path)
    assert status == 200
    cookie = headers["Set-Cookie"].split(";")[0]
    return cookie.split("=", 1)[1], cookie


def post(t, path, fields, forged=False, to=""):
    secret, cookie = form_of(t, path)
    headers = {"Cookie": cookie, "Origin": t.web_url().rstrip("/"), "Sec-Fetch-Site": "same-origin"}
    if forged:
        headers["Origin"] = "http://evil.example"
    return t.post(path + to, {"csrf": secret, **fields}, headers)


def main_lines(t, name="main"):
    return [line for line in t.page(name).splitlines()]


def test_the_setup_shows_a_128_bit_capability_for_this_setup_only(t):
    t.press("2")                                         # Osmišifry's setup
    path = names_path(t)
    assert re.fullmatch(r"/N/[A-Z2-7]{26}", path)       # 26 base32 letters: 130 bits
    assert main_lines(t)[0] == "[Names]"
    t.press("*")
    assert names_path(t) == path                         # the same for this setup
    t.type("*" "*")                                      # back to the main menu: the setup waits
    assert t.get(path)[0] == 200
    t.press("3")
    other = names_path(t)                                # another game's setup, another page
    assert other != path and t.get(other)[0] == 200
    t.type("*" "*" "2")
    assert names_path(t) == path                         # Osmišifry's setup again, its page the same
    t.type("*" "#")                                      # the game starts: the link stops working
    assert t.get(path)[0] == 404
    assert t.post(path, {"n1": "Ann"})[0] == 404


def test_names_typed_on_the_phone_show_on_the_box_and_start_the_game(t):
    t.press("4")                                         # Da Vinci Code
    path = names_path(t)
    assert post(t, path, {"n1": " Žofie ", "n2": "Игорь", "n3": "<b>Łucja</b>"})[0] == 303
    assert main_lines(t, "team1") == ["[Players]", "1 Žofie", "2 Игорь", "3 <b>Łucja</b>"]
    body = t.get(path)[2]
    assert 'value="&lt;b&gt;Łucja&lt;/b&gt;"' in body and "<b>Łucja" not in body   # escaped on the page
    assert post(t, path, {"n1": " Žofie ", "n2": "Игорь", "n3": "Łucja & Co"})[0] == 303
    assert main_lines(t, "team1") == ["[Players]", "1 Žofie", "2 Игорь", "3 Łucja & Co"]
    post(t, path, {"n1": "Žofie", "n2": "Игорь", "n3": "Łucja & Co", "up": "n3"})   # Łucja one seat earlier
    assert main_lines(t, "team1") == ["[Players]", "1 Žofie", "2 Łucja & Co", "3 Игорь"]
    t.type("*")
    assert "1 Players: 3" in t.screen()
    t.type("#" "#")
    assert t.log()[0]["players"] == ["Žofie", "Łucja & Co", "Игорь"]
    assert "Łucja &amp; Co" in t.get("/")[2] and "<b>" not in t.get("/")[2]


@pytest.mark.parametrize(("fields", "message"), [
    ({"n1": "Ann", "n2": "ann"}, "Two players are named ann."),
    ({"n1": "Ann", "n2": "Li 中"}, "The screens cannot show 中 in Li 中."),
    ({"n1": "Ann"}, "Players in this game: 2 to 4."),
])
def test_a_refused_name_comes_back_with_what_was_typed(t, fields, message):
    t.press("4")
    path = names_path(t)
    status, _, body = post(t, path, fields)
    assert status == 400
    assert message in html.unescape(body)
    for value in fields.values():
        assert f'value="{html.escape(value)}"' in body
    assert "[Players]" not in t.screen("team1")


def test_a_forged_post_changes_nothing(t):
    t.press("4")
    path = names_path(t)
    assert post(t, path, {"n1": "Ann", "n2": "Bob"}, forged=True)[0] == 403
    assert t.post(path, {"n1": "Ann", "n2": "Bob"})[0] == 403      # no secret, no cookie
    assert "[Players]" not in t.screen("team1")


def test_decrypto_players_are_put_into_the_two_teams(t):
    t.press("1")
    path = names_path(t)
    status, _, body = post(t, path, {"t1n1": "Ann", "t1n2": "Bob", "t1n3": "Cy", "t2n1": "Dana"})
    assert status == 400 and "Each team has 2 to 4 players." in body
    assert post(t, path, {"t1n1": "Ann", "t1n2": "Bob", "t1n3": "Cy", "t2n1": "Dana", "t2n2": "Eva"})[0] == 303
    assert main_lines(t, "team1") == ["[White]", "Ann", "Bob", "Cy"]
    assert main_lines(t, "team2") == ["[Black]", "Dana", "Eva"]
    fields = {"t1n1": "Ann", "t1n2": "Bob", "t1n3": "Cy", "t2n1": "Dana", "t2n2": "Eva", "swap": "t1n3"}
    assert post(t, path, fields)[0] == 303                # Cy moves to Black
    assert main_lines(t, "team2") == ["[Black]", "Dana", "Eva", "Cy"]
    t.type("*")
    assert "1 White 2 v 3 Black" in t.screen()
    t.press("#")
    assert t.log()[0]["members"] == {"White": ["Ann", "Bob"], "Black": ["Dana", "Eva", "Cy"]}


def test_one_name_against_two_is_the_hacker_variant(t):
    t.press("1")
    path = names_path(t)
    post(t, path, {"t1n1": "Ann", "t2n1": "Bob", "t2n2": "Cy"})
    assert main_lines(t, "team1") == ["[Hacker]", "Ann"]
    t.type("*#")
    assert t.log()[0]["members"] == {"Hacker": ["Ann"], "Team": ["Bob", "Cy"]}


def test_the_names_page_offers_tonights_players(t):
    t.start("osmisifry", players=["Žofie", "Bob"])
    t.box.leave()
    t.press("5")
    body = t.get(names_path(t))[2]
    assert '<option value="Žofie">' in body and '<option value="Bob">' in body


# --- issue 17: names on the box while they are typed ------------------------------------------------

def token_of(path: str) -> str:
    return path.rsplit("/", 1)[1]


def ask(t, op: str, **fields) -> dict:
    answer = t.loop.run_until_complete(channel.Client(channel.socket_path(t.database)).ask(op, **fields))
    t._settle()
    return answer


def preview(t, path, fields, forged=False):
    """The page's script posting what its fields hold."""
    return post(t, path, fields, forged, to="/preview")


def test_names_show_on_the_box_while_typed_and_count_once_saved(t):
    t.press("4")                                         # Da Vinci Code
    path = names_path(t)
    answer = ask(t, "names.preview", token=token_of(path), fields={"n1": " Žofie ", "n2": "Игорь"})
    assert answer == {"ok": True, "refused": {}}
    assert main_lines(t) == ["[Names]", "Žofie", "Игорь", f"QR {t.box.flow.names_url()}", "*:Back"]
    assert main_lines(t, "team1") == ["[Players: typing…]", "1 Žofie", "2 Игорь"]   # not saved yet
    assert t.box.flow.names == []                        # shown, not taken
    t.advance(setup_names.PREVIEW_GAP)
    ask(t, "names.preview", token=token_of(path), fields={"n1": "Žofie", "n2": "Игорь", "n3": "Łucja"})
    t.advance(setup_names.PREVIEW_GAP)
    assert main_lines(t, "team1") == ["[Players: typing…]", "1 Žofie", "2 Игорь", "3 Łucja"]
    assert post(t, path, {"n1": "Žofie", "n2": "Игорь", "n3": "Łucja"})[0] == 303
    assert main_lines(t, "team1") == ["[Players]", "1 Žofie", "2 Игорь", "3 Łucja"]
    t.advance(setup_names.PREVIEW_GAP)
    ask(t, "names.preview", token=token_of(path), fields={"n1": "Žofie", "n2": "Игорь", "n3": "Łucja", "n4": "Bo"})
    t.advance(setup_names.PREVIEW_GAP)
    assert main_lines(t, "team1") == ["[Players: typing…]", "1 Žofie", "2 Игорь", "3 Łucja", "4 Bo"]
    t.type("*" "#" "#")                                  # started before Bo was saved: three play
    assert t.log()[0]["players"] == ["Žofie", "Игорь", "Łucja"]


def test_a_name_the_panels_cannot_take_is_refused_on_the_phone_not_at_the_table(t):
    t.press("4")
    path = names_path(t)
    status, headers, body = preview(t, path, {"n1": "Ann", "n2": "Li 中", "n3": "ann", "n4": "Bartholomew J."})
    assert status == 200 and headers["Content-Type"].startswith("application/json")
    assert json.loads(body) == {"refused": {"n2": "The screens cannot show 中 in Li 中.",
                                            "n3": "Two players are named ann.",
                                            "n4": "A name is too long (limit: 12)."}, "warned": {}}
    assert main_lines(t) == ["[Names]", "Ann", f"QR {t.box.flow.names_url()}", "*:Back"]
    assert main_lines(t, "team1") == ["[Players: typing…]", "1 Ann"]
    assert "! " not in t.screen() and "error" not in t.sounds       # no message, no beep at the table


def test_decrypto_names_show_in_their_teams_while_typed(t):
    t.press("1")
    path = names_path(t)
    ask(t, "names.preview", token=token_of(path), fields={"t1n1": "Ann", "t1n2": "Bob", "t2n1": "Cy"})
    assert main_lines(t, "team1") == ["[White: typing…]", "Ann", "Bob"]
    assert main_lines(t, "team2") == ["[Black: typing…]", "Cy"]
    assert t.box.flow.members == []


def test_a_preview_lives_as_long_as_its_setup(t):
    t.press("2")                                         # Osmišifry
    path = names_path(t)
    secret, cookie = form_of(t, path)                    # the phone has the page open
    ask(t, "names.preview", token=token_of(path), fields={"n1": "Ann", "n2": "Bob"})
    t.type("*" "*")                                      # back to the main menu: the setup waits, its page answers
    assert ask(t, "names.preview", token=token_of(path), fields={"n1": "Eve"}) == {"ok": True, "refused": {}}
    headers = {"Cookie": cookie, "Origin": t.web_url().rstrip("/"), "Sec-Fetch-Site": "same-origin"}
    assert t.post(path + "/preview", {"csrf": secret, "n1": "Eve"}, headers)[0] == 200
    assert "Eve" not in "".join(t.screen(name) for name in ("main", "team1", "team2"))   # the menu shows no setup
    t.press("2")
    assert names_path(t) == path and "Eve" in t.screen("team1")   # the same setup, as the phone left it
    t.type("*" "#")                                      # the game starts with the seats' defaults
    assert t.log()[0]["players"] == ["Player 1", "Player 2"]
    assert ask(t, "names.preview", token=token_of(path), fields={"n1": "Eve"}) == {"error": "no such page"}
    assert "Eve" not in "".join(t.screen(name) for name in ("main", "team1", "team2"))


def test_a_forged_preview_shows_nothing(t):
    t.press("4")
    path = names_path(t)
    assert preview(t, path, {"n1": "Ann"}, forged=True)[0] == 403
    assert t.post(path + "/preview", {"n1": "Ann"})[0] == 403     # no secret, no cookie
    assert "Ann" not in t.screen() + t.screen("team1")


def test_a_flood_of_previews_costs_the_box_one_frame_and_keeps_the_keys(t):
    t.press("4")
    path = names_path(t)
    displays = t.box.devices.displays
    sent = sum(d.bytes_sent for d in displays.values())
    count = 500

    async def flood() -> list[dict]:
        # One connection, every request written before any answer is read,
        # as fast as the socket takes them.
        reader, writer = await asyncio.open_unix_connection(channel.socket_path(t.database))
        for i in range(count):
            request = {"op": "names.preview", "token": token_of(path), "fields": {"n1": f"Ann {i}", "n2": "Bob"}}
            writer.write(json.dumps(request).encode() + b"\n")
        await writer.drain()
        answers = [json.loads(await reader.readline()) for _ in range(count)]
        writer.close()
        return answers

    answers = t.loop.run_until_complete(flood())
    assert answers == [{"ok": True, "refused": {}}] * count      # each answered at once
    assert sum(d.bytes_sent for d in displays.values()) - sent <= 2 * 1024   # the first drawn, the rest held
    assert main_lines(t, "team1") == ["[Players: typing…]", "1 Ann 0", "2 Bob"]
    t.advance(setup_names.PREVIEW_GAP)                        # then the latest, once
    assert main_lines(t, "team1") == ["[Players: typing…]", f"1 Ann {count - 1}", "2 Bob"]
    t.press("*")                                         # the keys were never held up
    assert "A:names B:by phone" in t.screen()


# --- issue 33 item 4: names no page could tell apart ------------------------------------------------

def test_a_name_of_two_alphabets_is_refused_naming_the_two_letters(t):
    t.press("4")                                         # Da Vinci Code
    path = names_path(t)
    said = "\u0410nia mixes two alphabets (\u0410 and n): type it in one."   # a Cyrillic А, then Latin
    assert json.loads(preview(t, path, {"n1": "\u0410nia", "n2": "Bob"})[2])["refused"] == {"n1": said}
    status, _, body = post(t, path, {"n1": "\u0410nia", "n2": "Bob"})
    assert status == 400 and said in html.unescape(body)
    assert "[Players]" not in t.screen("team1")
    assert post(t, path, {"n1": "Аня", "n2": "Ania", "n3": "Bob"})[0] == 303    # one alphabet each
    assert main_lines(t, "team1") == ["[Players]", "1 Аня", "2 Ania", "3 Bob"]


def test_a_name_that_looks_like_another_players_is_warned_of_on_the_page(t):
    t.start("osmisifry", players=["Ola", "Kamil"])       # tonight's players
    t.box.leave()
    t.press("4")
    path = names_path(t)
    typed = {"n1": "0la", "n2": "KamiI", "n3": "marta", "n4": "rnarta"}
    answer = json.loads(preview(t, path, {**typed, "n5": "Ola"})[2])
    warned = {field: text.split(",")[0] for field, text in answer["warned"].items()}
    assert warned == {"n1": "Looks just like Ola", "n2": "Looks just like Kamil", "n3": "Looks just like rnarta",
                      "n4": "Looks just like marta", "n5": "Looks just like 0la"}
    assert answer["refused"] == {}
    assert post(t, path, typed)[0] == 303                # a warning, not a refusal: saved
    assert main_lines(t, "team1") == ["[Players]", "1 0la", "2 KamiI", "3 marta", "4 rnarta"]
    body = html.unescape(t.get(path)[2])
    assert ("Looks just like Ola, another player: no page could tell the two apart. "
            "If it is one person, type the name as before.") in body
    assert 'aria-describedby="n2-why"' in body and "aria-invalid" not in body
    assert json.loads(preview(t, path, {"n1": "Olga", "n2": "Kamil", "n3": "OLA"})[2])["warned"] == {}
