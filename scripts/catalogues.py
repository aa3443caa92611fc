"""Brings referee/locale/{cs,pl,ru}.po up to date with the code.

Every string passed to ``_()``/``N_()``/``ngettext()`` in referee/, every
message of the web pages' templates (``_()`` and ``{% trans %}`` in
referee/web/templates/ and referee/club/templates/) and every message a game raises with
``Illegal("…")`` in games/ is a message id; translations already made are
kept, new ids are added untranslated, gone ones dropped.

    .venv/bin/python scripts/catalogues.py          # update the catalogues
    .venv/bin/python scripts/catalogues.py --check  # list what is untranslated
"""
from __future__ import annotations

import os
import sys
from importlib.metadata import version

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LOCALE = os.path.join(ROOT, "referee", "locale")
LANGS = ("cs", "pl", "ru")
# gettext and ngettext are what Jinja turns a {% trans %} block into.
KEYWORDS = {"_": None, "N_": None, "gettext": None, "ngettext": (1, 2), "Illegal": None, "NoMove": None}
TEMPLATES = "**/templates/**.html"   # the score log's pages and the league's
METHODS = {"referee": [(TEMPLATES, "jinja2.ext:babel_extract"), ("**.py", "python")],
           "games": [("**.py", "python")]}
# As referee.web.app builds its Jinja environment, so that a {% trans %}
# block has the same id here as when a page asks for it.
JINJA = {"extensions": "jinja2.ext.i18n", "trim_blocks": "true", "lstrip_blocks": "true", "trimmed": "true",
         "newstyle_gettext": "true", "silent": "false"}


def messages() -> dict[str | tuple[str, str], list[str]]:
    """Message id → where it is used; a message with plural forms has a
    (singular, plural) pair as its id."""
    found: dict = {}
    for folder, methods in METHODS.items():
        for path, line, message, _comments, _context in extract_from_dir(
                os.path.join(ROOT, folder), method_map=methods, options_map={TEMPLATES: JINJA},
                keywords=KEYWORDS):
            if isinstance(message, tuple) and all(message):
                found.setdefault(message, []).append(f"{folder}/{path}:{line}")
            elif isinstance(message, str) and message.strip():
                found.setdefault(message, []).append(f"{folder}/{path}:{line}")
    return found


def load(lang: str) -> Catalog:
    with open(os.path.join(LOCALE, f"{lang}.po"), "rb") as f:
        return read_po(f, locale=lang)


def translated(message: Message | None) -> bool:
    """Whether a catalogue's entry has its translation, every plural form of it."""
    if message is None:
        return False
    forms = message.string if isinstance(message.string, tuple) else (message.string,)
    return all(forms)


def untranslated(lang: str) -> list:
    catalog = load(lang)
    return [m for m in messages() if not translated(catalog.get(m))]


def update() -> None:
    found = messages()
    for lang in LANGS:
        old = load(lang)
        new = Catalog(locale=lang, project="Tabletop Referee", version=version("tabletop-referee"),
                      copyright_holder="Tabletop Referee", msgid_bugs_address="the project's issue tracker",
                      # Dates and line numbers stay put so that two branches adding
                      # messages do not both rewrite the header and every location.
                      creation_date=old.creation_date, revision_date=old.revision_date,
                      last_translator="Tabletop Referee",
                      language_team="Tabletop Referee", fuzzy=False, header_comment="# Tabletop Referee: "
                      f"the box's screens and phone pages in {lang}. Updated by scripts/catalogues.py.")
        for message, places in found.items():
            known = old.get(message)
            # A message that gained or lost its plural keeps nothing of its old form.
            string = known.string if known and isinstance(known.id, tuple) == isinstance(message, tuple) else ""
            new.add(message, string, locations=[(f, None) for f in dict.fromkeys(p.rsplit(":", 1)[0] for p in places)][:3])
        with open(os.path.join(LOCALE, f"{lang}.po"), "wb") as f:
            write_po(f, new, width=100, omit_header=False, sort_output=True)


if __name__ == "__main__":
    if "--check" in sys.argv:
        missing = {lang: untranslated(lang) for lang in LANGS}
        for lang, items in missing.items():
            print(f"{lang}: {len(items)} untranslated")
        sys.exit(1 if any(missing.values()) else 0)
    update()
