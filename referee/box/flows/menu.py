"""The main menu, the settings, the score-log QR code, and "coming soon"."""
from __future__ import annotations

import functools
import re
from enum import StrEnum
from typing import TYPE_CHECKING

from referee import catalogue, i18n
from referee.box import wifi
from referee.box.flows.teacher import chosen
from referee.box.flows import Flow, clock_text, flow_for, merging
from referee.box.flows.numbered import Item, Menu
from referee.box.screen import LINES, W, Screen, key_rows, qr_image, wrap
from referee.store import scorelog
from referee.i18n import _

if TYPE_CHECKING:
    from referee.box.flows.forms import Form
    from referee.box.flows.host import Host

title = catalogue.title


def Main(box: Host) -> Menu:
    items: list[Item] = [(title(g.name), functools.partial(open_game, box, g.name)) for g in catalogue.on_menu()]
    items += [
        (_("Table tools"), lambda: _tools(box)),
        (_("Score log"), lambda: box.goto(ScoreLog(box))),
        (_("Settings"), lambda: box.goto(Settings(box))),
    ]
    return Menu(box, lambda: _title(box), items)


def running_tools(box):
    """The table tools' session when its countdown was left running behind
    the menus, else None."""
    s = box.session
    return s if s is not None and s.name == "tools" and not s.rules.is_over(s.state) else None


def _title(box) -> str:
    tools = running_tools(box)
    if tools is None:
        return "Tabletop Referee"
    if tools.state.expired:
        return _("Time is up!")
    cd = tools.state.countdown
    left = clock_text(cd.remaining(box.game_time()))
    return _("Timer {time}").format(time=left if cd.running else f"‖ {left}")


def _tools(box) -> None:
    """Back to the countdown left running, or the table tools anew."""
    tools = running_tools(box)
    if tools is not None:
        box.goto(flow_for(box, tools))
    else:
        box.start_game("tools")


def open_game(box: Host, name: str) -> None:
    """The game's setup form: the one left for the main menu tonight, if
    any, with the names typed and the options chosen (``kept_setup``), on
    its first page; else a new one."""
    box.goto(kept_setup(box, name) or _new_setup(box, name))


def _new_setup(box: Host, name: str) -> Flow:
    """The setup flow of ``name`` (a game's ``setup(box)``, mostly a
    ``forms.Form``), or "coming soon" for a game without flows."""
    game = catalogue.GAMES.get(name)
    flows = catalogue.load(game.flows) if game is not None else None
    if flows is None:
        return ComingSoon(box, title(name))
    form = flows.setup(box)
    form.game = name
    if hasattr(form, "offer_teach"):
        form.offer_teach(chosen(box, name))
    return form


def keep_setup(box: Host, form: Form) -> None:
    """A setup form left for the main menu: kept for its game until the
    game starts, or another evening begins."""
    if form.remembered and form.game:
        box.setups[form.game] = (scorelog.evening_start(box.labels.now()), form)


def kept_setup(box: Host, name: str) -> Form | None:
    """The setup form of ``name`` kept tonight, back on its front page."""
    kept = box.setups.pop(name, None)
    if kept is None or kept[0] != scorelog.evening_start(box.labels.now()):
        return None
    form = kept[1]
    form.front()
    return form


class ComingSoon(Flow):
    def __init__(self, box, title: str) -> None:
        super().__init__(box)
        self.title = title

    def key(self, key, kind):
        if kind == "press" and key == "*":
            self.box.goto(Main(self.box))

    def screens(self):
        return {"main": Screen(self.title, (_("Coming soon."),), keys=(("*", _("Back")),))}


class Code(StrEnum):
    """The score log's pages, each a QR code (the flow keeps its place
    among those the network offers by number)."""
    WIFI = "wifi"       # joins a phone to the box's own Wi-Fi
    SCORES = "scores"   # tonight's score log
    HOME = "home"       # comitup's page, to join the box to the home Wi-Fi
    LEAGUE = "league"   # the club's league
    TABLE = "table"     # the table view


class ScoreLog(Flow):
    """The QR code of tonight's score log, for every phone at the table; on a
    club night (``[club] league_url``), D shows the league's instead.  On the
    box's own Wi-Fi (comitup's hotspot, see ``referee.box.wifi``) D turns three
    pages, numbered as steps: the code that joins a phone to that Wi-Fi, the score log's, and
    comitup's page, where a phone joins the box to the home Wi-Fi.  On every
    network D also turns to the table view's code (``/table``: the game for a
    TV or a tablet at the end of the table), the last page, no step."""

    page = 0

    def __init__(self, box) -> None:
        super().__init__(box)
        self._state = box.network.state   # a new state starts again on its first page

    def key(self, key, kind):
        if kind != "press":
            return
        if key == "D" and len(self._pages()) > 1:   # D turns pages, as on every page of the box
            self.page = (self.page + 1) % len(self._pages())
        elif key == "*":   # not #: the page offers only * to leave
            self.box.goto(Main(self.box))

    def _pages(self) -> list[Code]:
        network = self.box.network
        if network.state == "HOTSPOT":
            own = network.hotspot is not None and fits(wifi.wifi_code(network.hotspot.name, network.hotspot.password))
            return [Code.WIFI, Code.SCORES, Code.HOME, Code.TABLE] if own else [Code.SCORES, Code.HOME, Code.TABLE]
        return [Code.SCORES, Code.LEAGUE, Code.TABLE] if self.box.config.club.league_url else [Code.SCORES, Code.TABLE]

    def screens(self):
        if self.box.network.state != self._state:
            self._state, self.page = self.box.network.state, 0
        pages = self._pages()
        page = pages[self.page % len(pages)]
        # An arrow, as other pages turn: with "*:Menu" it fits one row beside
        # the code, which leaves four rows for a long address written whole.
        keys: tuple[tuple[str, str], ...] = (("D", "►"),)
        keys += (("*", _("Menu")),)   # * goes back to the main menu; # does nothing here
        if page == Code.LEAGUE:
            club = self.box.config.club.league_url
            return {"main": Screen(_("League"), beside(_("Scan for the club's league"), club, room=room(keys, club)),
                                   keys=keys, qr=club)}
        # On the box's own Wi-Fi the pages are steps, numbered in the order
        # a phone takes them: join this Wi-Fi, open the scores, and (for the
        # owner) tell the box the home Wi-Fi.
        step = pages.index(page) + 1 if self.box.network.state == "HOTSPOT" else 0
        spot = self.box.network.hotspot
        if page == Code.WIFI and spot is not None:   # offered only with the hotspot's name (``_pages``)
            code = wifi.wifi_code(spot.name, spot.password)
            title = _("{n}. Wi-Fi").format(n=step)
            return {"main": Screen(title, credentials(spot.name, spot.password, code),
                                   keys=keys, qr=code)}
        if self.box.network.state == "CONNECTING":
            return {"main": Screen(_("Scores"), tuple(wrap(_("Joining a known Wi-Fi…"))))}
        if page == Code.TABLE:
            url = self.box.public_url() + "TABLE"
            return {"main": Screen(_("Table view"), beside(_("Open on a big screen"), url, room=room(keys, url)),
                                   keys=keys, qr=url)}
        if page == Code.HOME:
            url = wifi.COMITUP_PAGE.upper()
            title = _("{n}. At home").format(n=step)
            return {"main": Screen(title, beside(_("Pick the home Wi-Fi"), url, room=room(keys, url)),
                                   keys=keys, qr=url)}
        url = self.box.public_url()
        title = _("{n}. Scores").format(n=step) if step else _("Scores")
        return {"main": Screen(title, beside(_("Scan for tonight's scores"), url, local=self._local(),
                                             room=room(keys, url)),
                               keys=keys, qr=url)}

    def _local(self) -> str:
        """The name avahi gives the box, with the page's port: for phones
        that cannot scan, when the box chose the address itself."""
        web, network = self.box.config.web, self.box.network
        if web.public_url or web.host not in ("0.0.0.0", "::", ""):
            return ""
        if network.state != "HOTSPOT" and (network.choice is None or network.choice.interface == "lo"):
            return ""
        return f"{wifi.local_name()}:{web.port}"


def fits(code: str) -> bool:
    try:
        qr_image(code)
    except ValueError:
        return False
    return True


def broken(text: str, code: str) -> tuple[str, ...]:
    """``text`` beside the QR code of ``code``, in pieces as wide as there
    is room for (a Wi-Fi name or password, typed by whoever cannot scan),
    broken after a hyphen where one is near the end of a line
    ("referee-" / "432", not "referee-43" / "2")."""
    width = (W - qr_image(code).width - 4) // 6
    pieces = []
    while len(text) > width:
        cut = text.rfind("-", 0, width) + 1 or width
        pieces.append(text[:cut])
        text = text[cut:]
    return (*pieces, text) if text or not pieces else tuple(pieces)


def credentials(name: str, password: str, code: str) -> tuple[str, ...]:
    """The Wi-Fi's name under the title that names it, then the password
    under its label; the label left out where the lines would not fit."""
    named, secret = broken(name, code), broken(password, code)
    labelled = (*named, _("Password:"), *secret)
    return labelled if len(labelled) <= LINES else (*named, *secret)


def room(keys, url: str) -> int:
    """The lines beside the QR code of ``url`` over a key bar of ``keys``
    (two rows where one would cut a label)."""
    return LINES + 1 - len(key_rows(keys, (W - qr_image(url).width - 4) // 6))


def beside(prompt: str, url: str, local: str = "", room: int = LINES) -> tuple[str, ...]:
    """The lines beside a QR code: its address whole; under it the box's
    ``.local`` name (``local``) where it fits whole; and the prompt above
    them where there is room (``room`` lines) for all of it."""
    address, said = written(url), tuple(wrap(prompt, 10))
    width = (W - qr_image(url).width - 4) // 6
    name = written(local, qr_image(url).width) if local else ()
    if len(address) + len(name) > room or any(len(line) > width for line in name):
        name = ()
    lines = (*address, *name)
    return (*said, *lines) if len(said) + len(lines) <= room else lines


def written(url: str, beside: int = 0) -> tuple[str, ...]:
    """The address beside its QR code (``beside``: its width, else the
    address's own), whole, for whoever cannot scan: broken after a dot or
    before the port where one line is too narrow."""
    width = (W - (beside or qr_image(url).width) - 2) // 6
    lines = [""]
    for part in re.findall(r"[^.:/]+[.]?|:[^/]*|/", url.split("//")[-1]):
        if lines[-1] and len(lines[-1]) + len(part) > width:
            lines.append("")
        lines[-1] += part
    return tuple(lines)


def Settings(box: Host) -> Menu:
    def choose(code: str) -> None:
        i18n.use(code)
        box.store.set_setting("lang", code)
        box.goto(Settings(box))
        box.changed()   # open phone pages turn to the new language too

    items: list[Item] = [(name, functools.partial(choose, code)) for code, name in i18n.NAMES.items()]
    items.append((_("Merge names"), lambda: merging.open_page(box, lambda: Settings(box))))
    return Menu(box, _("Language: {lang}").format(lang=i18n.lang), items, back=lambda: box.goto(Main(box)))

