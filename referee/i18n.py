"""The box's four languages: English text is the message id; Czech, Polish
and Russian come from gettext catalogues (``referee/locale/<lang>.po``), read
with Babel at first use: a box speaking English never loads Babel.  A message
a catalogue lacks shows in English.
"""
from __future__ import annotations

import contextlib
import functools
import gettext
import io
from importlib import resources

LANGS = ("en", "cs", "pl", "ru")
NAMES = {"en": "English", "cs": "Čeština", "pl": "Polski", "ru": "Русский"}
_current = gettext.NullTranslations()
lang = "en"


@functools.cache
def catalogue(code: str) -> gettext.NullTranslations:
    if code == "en":
        return gettext.NullTranslations()
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po
    source = resources.files("referee") / "locale" / f"{code}.po"
    with source.open("rb") as f:
        catalog = read_po(f, locale=code)
    buf = io.BytesIO()
    write_mo(buf, catalog)
    buf.seek(0)
    return gettext.GNUTranslations(buf)


def use(code: str) -> None:
    global _current, lang
    if code not in LANGS:
        raise ValueError(f"unknown language {code!r}; choose one of {', '.join(LANGS)}")
    _current, lang = catalogue(code), code


@contextlib.contextmanager
def speaking(code: str):
    """Messages in ``code`` for a moment: the files that spreadsheets and
    scripts read stay English whatever the box speaks.  Also a decorator."""
    global _current, lang
    before = _current, lang
    _current, lang = catalogue(code), code
    try:
        yield
    finally:
        _current, lang = before


def _(message: str) -> str:
    return _current.gettext(message)


def refusal(exc) -> str:
    """A rules module's ``Illegal`` in the box's language: the sentence and
    any words among its fields (team names, for one) translated."""
    message = getattr(exc, "message", str(exc))
    fields = {k: _(v) if isinstance(v, str) else v for k, v in getattr(exc, "fields", {}).items()}
    return _(message).format(**fields) if fields else _(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return _current.ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Marks a message for translation where it is defined; ``_`` translates
    it where it is shown."""
    return message
