"""Issue 20, item 11: a message never hides what is being typed.  What is
checked is the panel itself: the pixels of each line are looked for in the
image the display was sent."""
from __future__ import annotations

import re

from PIL import Image, ImageDraw, ImageFont

from referee.box.screen import H, W, font, qr_image


def drawn(text: str, face: ImageFont.FreeTypeFont, lit: bool) -> Image.Image:
    width = round(face.getlength(text))
    height = face.size if face is not font("text") else 10
    image = Image.new("1", (width, height), 1 if lit else 0)
    ImageDraw.Draw(image).text((0, 0), text, font=face, fill=0 if lit else 1)
    return image


def shows(panel: Image.Image, text: str, kind: str = "text", lit: bool = False) -> bool:
    """``text`` is drawn somewhere on ``panel``, pixel for pixel (``lit``:
    dark on a lit line, as a message is)."""
    want = drawn(text, font(kind), lit).tobytes()
    piece = drawn(text, font(kind), lit)
    for y in range(H - piece.height + 1):
        for x in range(W - piece.width + 1):
            if panel.crop((x, y, x + piece.width, y + piece.height)).tobytes() == want:
                return True
    return False


def done(t) -> None:
    """Both encryptors are done: a team button pressed twice [DE-4]."""
    t.type(["team1", "team1", "team2", "team2"])


def to_guessing(t) -> None:
    t.start("decrypto")
    done(t)


def test_item11_a_refusal_while_a_guess_is_typed_leaves_the_typed_line(table):
    to_guessing(table)
    table.type("12")
    table.press("team1")             # the clues are done already: refused
    screen = table.screen()
    message = next(line[2:] for line in screen.splitlines() if line.startswith("! "))
    panel = table.image()
    assert shows(panel, "> 1-2-_"), screen
    assert shows(panel, message.split()[0], lit=True)


def code_of(t, button: str) -> str:
    """The code on a team's screen while its button is held: "3-2-1"."""
    t.down(button)
    t.advance(0.7)
    code = next(line for line in t.screen(button).splitlines() if re.fullmatch(r"\d-\d-\d", line))
    t.up(button)
    return code


def test_item11_a_message_on_a_reveal_keeps_the_tokens_line(table):
    to_guessing(table)
    for button in ("team1", "team2"):
        table.type(code_of(table, button).replace("-", "") + "#")
    table.press("#")
    white = code_of(table, "team1")
    done(table)
    table.type(white.replace("-", "") + "#")              # Black intercepts White's code
    table.type(("123" if white != "1-2-3" else "124") + "#")   # and White gets it wrong
    screen = table.screen()
    assert "Black intercepts!" in screen and "White miscommunicates" in screen, screen
    table.dice.roll_button()                               # nothing to roll: a message
    assert "! No roll needed now." in table.screen()
    panel = table.image()
    assert shows(panel, "No roll needed now.", lit=True)
    assert shows(panel, "Black intercepts!") and shows(panel, "White miscommunicates")


def test_item11_beside_a_qr_code_the_whole_message_shows(table):
    table.type("7")                  # the score log's QR code
    table.dice.roll_button()
    panel = table.image()
    cols = (W - qr_image(table.box.shown["main"].qr).width - 4) // 6
    assert cols < len("No roll needed now.")
    for word in ("No roll", "needed", "now."):
        assert shows(panel, word, lit=True), word


def test_item11_seconds_typed_on_the_timer_stay_beside_a_refusal(table):
    table.start("tools")
    table.type("6000#")              # more than 99:59: refused
    assert "! A timer runs from 1 second to 99:59." in table.screen()
    panel = table.image()
    assert shows(panel, "6000s", kind="mid")
    assert shows(panel, "A timer runs from 1", lit=True) and shows(panel, "second to 99:59.", lit=True)


def test_item11_a_refusal_stays_beside_the_space_and_goes_with_the_next_key_that_acts(table):
    table.start("octiles")
    table.type("99#")                # no such space: refused
    assert "! The spaces are 1 to 17." in table.screen()
    panel = table.image()
    assert shows(panel, "Space: _") and shows(panel, "The spaces are", lit=True)
    table.press("5")                 # typing on: the key acts, and the message goes with it
    assert "! " not in table.screen() and shows(table.image(), "Space: 5_")
