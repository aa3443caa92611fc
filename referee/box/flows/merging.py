"""The QR code of the page that merges two players' names into one
(``referee.merging``), under Settings.  The page's address is made when this
screen opens and dies when it closes: it is good only while the code is up."""
from __future__ import annotations

import secrets

from referee.box.flows import Flow
from referee.box.screen import Screen, wrap
from referee.i18n import _
from referee.team_links import new_token


class Merging(Flow):
    def __init__(self, box, back) -> None:
        super().__init__(box)
        self.back = back
        self.merging = new_token()   # referee.merging checks it
        self.merging_csrf = secrets.token_urlsafe(16)

    def merge_page(self) -> Merging:
        return self

    def key(self, key, kind):
        if kind == "press" and key == "*":
            self.box.goto(self.back())
            self.box.changed()   # the web hears the page is gone

    def url(self) -> str:
        return self.box.public_url() + "M/" + self.merging

    def screens(self):
        return {"main": Screen(_("Names"), tuple(wrap(_("Scan to merge two names of one player"), 10)),
                               qr=self.url(), keys=(("*", _("Back")),))}


def open_page(box, back) -> None:
    box.goto(Merging(box, back))
    box.changed()   # the web hears of the page before a phone can ask for it
