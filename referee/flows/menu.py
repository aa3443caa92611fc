"""The main menu, the settings, the score-log QR code, and "coming soon"."""
from __future__ import annotations

import re

from referee import i18n
from referee.flows import Flow, clock_text, module
from referee.flows.forms import Menu
from referee.i18n import N_, _
from referee.screen import LINES, W, Screen, qr_image, wrap

# The games by their editions' names; Decipher's Polish edition is
# Słowotwórcy, so that name is the catalogues' to give (``title``).
# The titles the rulebooks of a language give ("Oktilky", "Da Vinciho kód");
# Decrypto and Osmišifry are one name everywhere.
GAMES = (("decrypto", "Decrypto"), ("osmisifry", "Osmišifry"), ("octiles", N_("Octiles")),
         ("davinci", N_("Da Vinci Code")), ("decipher", N_("Decipher")))


def title(name: str) -> str:
    """A game's name in the box's language."""
    return _(dict(GAMES).get(name, name.capitalize()))


def Main(box) -> Menu:
    items = [(title(name), lambda name=name: open_game(box, name)) for name in dict(GAMES)]
    items += [
        (_("Table tools"), lambda: _tools(box)),
        (_("Score log"), lambda: _goto(box, ScoreLog(box))),
        (_("Settings"), lambda: _goto(box, Settings(box))),
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
    from referee.flows import flow_for
    tools = running_tools(box)
    if tools is not None:
        box.flow = flow_for(box, tools)
    else:
        box.start_game("tools")


def _goto(box, flow) -> None:
    box.flow = flow


def open_game(box, name: str) -> None:
    """The game's setup form."""
    flows = module(name)
    box.flow = flows.setup(box) if flows is not None else ComingSoon(box, title(name))
    box.flow.game = name


class ComingSoon(Flow):
    def __init__(self, box, title: str) -> None:
        super().__init__(box)
        self.title = title

    def key(self, key, kind):
        if kind == "press" and key in "*#":
            self.box.flow = Main(self.box)

    def screens(self):
        return {"main": Screen(self.title, (_("Coming soon."),), keys=(("*", _("Back")),))}


class ScoreLog(Flow):
    """The QR code of tonight's score log, for every phone at the table; on a
    club night (``[club] league_url``), B shows the league's instead."""

    league = False

    def key(self, key, kind):
        if kind != "press":
            return
        if key == "B" and self.box.config.club.league_url:
            self.league = not self.league
        elif key in "*#":
            self.box.flow = Main(self.box)

    def screens(self):
        club = self.box.config.club.league_url
        if self.league:
            return {"main": Screen(_("League"), beside(_("Scan for the club's league"), club),
                                   keys=(("B", _("Scores")),), qr=club)}
        url = self.box.public_url()
        return {"main": Screen(_("Scores"), beside(_("Scan for tonight's scores"), url),
                               keys=(("B", _("League")),) if club else (), qr=url)}


def beside(prompt: str, url: str) -> tuple[str, ...]:
    """The lines beside a QR code: its address whole, and the prompt above
    it where there is room for all of it."""
    address, said = written(url), tuple(wrap(prompt, 10))
    return (*said, *address) if len(said) + len(address) <= LINES else address


def written(url: str) -> tuple[str, ...]:
    """The address beside its QR code, whole, for whoever cannot scan:
    broken after a dot or before the port where one line is too narrow."""
    width = (W - qr_image(url).width - 2) // 6
    lines = [""]
    for part in re.findall(r"[^.:/]+[.]?|:[^/]*|/", url.split("//")[-1]):
        if lines[-1] and len(lines[-1]) + len(part) > width:
            lines.append("")
        lines[-1] += part
    return tuple(lines)


def Settings(box) -> Menu:
    def choose(code):
        i18n.use(code)
        box.store.set_setting("lang", code)
        box.flow = Settings(box)
        box.changed()   # open phone pages turn to the new language too

    items = [(name, lambda code=code: choose(code)) for code, name in i18n.NAMES.items()]
    return Menu(box, _("Language: {lang}").format(lang=i18n.lang), items, back=lambda: _goto(box, Main(box)))

