"""Brings referee/locale/{cs,pl,ru}.po up to date with the code.

Every string passed to ``_()``/``N_()`` in referee/ and every message a
game raises with ``Illegal("…")`` in games/ is a message id; translations
already made are kept, new ids are added untranslated, gone ones dropped.

    .venv/bin/python scripts/catalogues.py          # update the catalogues
    .venv/bin/python scripts/catalogues.py --check  # list what is untranslated
"""
from __future__ import annotations

import datetime
import os
import sys
from importlib.metadata import version

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LOCALE = os.path.join(ROOT, "referee", "locale")
LANGS = ("cs", "pl", "ru")
KEYWORDS = {"_": None, "N_": None, "Illegal": None, "NoMove": None}


def messages() -> dict[str, list[str]]:
    """Message id → where it is used."""
    found: dict[str, list[str]] = {}
    for folder in ("referee", "games"):
        for path, line, message, _comments, _context in extract_from_dir(
                os.path.join(ROOT, folder), method_map=[("**.py", "python")], keywords=KEYWORDS):
            if isinstance(message, str) and message.strip():
                found.setdefault(message, []).append(f"{folder}/{path}:{line}")
    return found


def load(lang: str) -> Catalog:
    with open(os.path.join(LOCALE, f"{lang}.po"), "rb") as f:
        return read_po(f, locale=lang)


def untranslated(lang: str) -> list[str]:
    catalog = load(lang)
    return [m for m in messages() if not (catalog.get(m) and catalog.get(m).string)]


def update() -> None:
    found = messages()
    for lang in LANGS:
        old = load(lang)
        new = Catalog(locale=lang, project="Tabletop Referee", version=version("tabletop-referee"),
                      copyright_holder="Tabletop Referee", msgid_bugs_address="the project's issue tracker",
                      revision_date=datetime.datetime.now(datetime.timezone.utc),
                      last_translator="Tabletop Referee",
                      language_team="Tabletop Referee", fuzzy=False, header_comment="# Tabletop Referee: "
                      f"the box's screens in {lang}. Updated by scripts/catalogues.py.")
        for message, places in sorted(found.items()):
            known = old.get(message)
            new.add(message, known.string if known else "", locations=[(p.rsplit(":", 1)[0], int(p.rsplit(":", 1)[1])) for p in places[:3]])
        with open(os.path.join(LOCALE, f"{lang}.po"), "wb") as f:
            write_po(f, new, width=100, omit_header=False, sort_output=True)


if __name__ == "__main__":
    if "--check" in sys.argv:
        missing = {lang: untranslated(lang) for lang in LANGS}
        for lang, items in missing.items():
            print(f"{lang}: {len(items)} untranslated")
        sys.exit(1 if any(missing.values()) else 0)
    update()
