"""The score log on every phone: scan the QR code on the public screen and
tonight's games are there, live, with no app and no account.

aiohttp and Jinja2 (autoescaped) in the box's own loop, reading the event
store through ``referee.scorelog``.  Public pages use only what each game's
``summary()`` and ``public()`` give; a team's page only its
``private(state, team)``, less what the team screen shows only on demand.
Pages speak the box's language and follow it when it changes; the JSON API,
the files and the BG Stats link stay English.

Routes
------
``/``                       tonight: every game, the one in progress on top
``/g/<id>``                 one game: result, chart of running totals, score sheet
``/e/``                     the evenings, newest first (``?before=YYYY-MM-DD`` pages on)
``/e/<YYYY-MM-DD>``         an earlier evening
``/T/<token>``              a team's page (``/t/`` too); POST sends its forms
``/live``                   server-sent events: a number after every change
``/static/<name>``          the stylesheet, the script, the icon
``/api/evening``            tonight as JSON: exactly ``scorelog.evening``
``/api/evening.csv|.json``  tonight as a file (a row per player and game)
``/api/e/<date>``           an earlier evening as JSON (``.csv``, ``.json`` as files)
``/api/evenings``           the list of evenings as JSON (``?before=`` too)
``/api/g/<id>``             one game's score-log entry as JSON; ``.csv``: its sheet

``serve(box, host, port)`` starts it (``referee.service`` does, on
``config.web``); ``team_url(box, team)`` is the address a team's screen
shows as a QR code.
"""
from referee.web.app import Server, make_app, serve
from referee.web.teams import action, team_url

__all__ = ["Server", "make_app", "serve", "team_url", "action"]
