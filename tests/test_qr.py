"""The QR codes: the score log's address on the public screen, read back
from the panel's own pixels the way a phone's camera would."""
from __future__ import annotations

import re

import pytest
import qrcode
import zxingcpp
from PIL import Image, ImageFilter

from referee import team_links
from referee.box.screen import H, qr_image
from referee.testing import Table
from test_web import t  # noqa: F401  (the virtual table with the games' flows stood in)

LONGEST_IPV4 = "HTTP://192.168.100.200:8080"


def read(image: Image.Image) -> list[str]:
    return [code.text for code in zxingcpp.read_barcodes(image.convert("L"))]


def blurred(image: Image.Image) -> Image.Image:
    """Twice the size and soft, as a phone held a little too far away sees it."""
    big = image.convert("L").resize((image.width * 2, image.height * 2), Image.Resampling.NEAREST)
    return big.filter(ImageFilter.GaussianBlur(1.2))


def open_score_log(t: Table) -> None:
    t.press("7")   # main menu: Score log
    assert t.screen("main").startswith("[Scores]")


def test_the_score_log_screen_shows_the_page_address_as_a_qr_code():
    with Table() as t:
        open_score_log(t)
        url = t.box.public_url()
        assert url == "HTTP://127.0.0.1:8080/"
        assert read(t.image("main")) == [url]
        assert read(blurred(t.image("main"))) == [url]


@pytest.mark.parametrize("given", [LONGEST_IPV4, LONGEST_IPV4 + "/", "HTTP://REFEREE.LAN"])
def test_a_configured_public_address_is_the_one_in_the_qr_code(given):
    with Table(config={"web": {"public_url": given}}) as t:
        open_score_log(t)
        url = given.rstrip("/") + "/"
        assert t.box.public_url() == url
        assert read(t.image("main")) == [url]
        assert read(blurred(t.image("main"))) == [url]


def test_a_32_byte_upper_case_address_fits_version_2_at_2_px_a_module():
    url = LONGEST_IPV4 + "/ABCD"
    assert len(url.encode()) == 32
    image = qr_image(url)
    assert image.size == (2 * (25 + 6), 2 * (25 + 6)) == (62, 62)   # version 2: 25 modules, quiet zone 3
    assert image.height <= H
    assert read(image) == [url]
    assert read(blurred(image)) == [url]


def test_upper_case_keeps_the_code_small():
    # The alphanumeric mode holds upper case only: a lower-case address of
    # the same length needs a bigger code, too big for the screen.
    assert qr_image(LONGEST_IPV4 + "/ABCD").size == (62, 62)
    upper = LONGEST_IPV4 + "/T/" + "ABCDEFGHIJKLMNOPQRST"  # 50 characters: version 3
    assert qr_image(upper).size == (62, 62)
    assert read(qr_image(upper)) == [upper]
    with pytest.raises(ValueError):
        qr_image(upper.lower())


def test_a_team_page_address_is_upper_case_and_fits_version_3(t):  # noqa: F811
    t.start("decrypto")
    url = team_links.team_url(t.box, 0)
    assert re.fullmatch(r"HTTP://127\.0\.0\.1:8080/T/[A-Z2-7]{26}", url)
    code = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M)
    code.add_data(LONGEST_IPV4 + url[len("HTTP://127.0.0.1:8080"):])
    code.make(fit=True)
    assert code.version == 3   # alphanumeric mode; a lower-case token of as many bits needs 4
