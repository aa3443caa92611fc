"""The score log on every phone: scan the QR code on the public screen and
tonight's games are there, live, with no app and no account.

aiohttp and Jinja2 (autoescaped) in a process of its own, ``referee web``
(``referee.web.main``), reading the event store read-only through
``referee.store.scorelog`` (``referee.web.reader``) and asking the box through
``referee.channel``; within ``referee.web.guard``'s limits.  Public pages use only what each game's
``summary()`` and ``public()`` give; a team's page only its
``private(state, team)``, which leaves out what the team's screen shows
one player only on demand.
Pages speak the box's language and follow it when it changes; the JSON API,
the files and the BG Stats link stay English.

Routes
------
``/``                       tonight: every game, the one in progress on top
``/g/<id>``                 one game: result, chart of running totals, score sheet
``/g/<id>/step/<k>``        a finished game step by step (``referee.web.replay``; ``?reveal=1``,
                            ``?side=white|black``, ``hacker|team``; ``/g/<id>/step?round=`` jumps); 409 while on
``/e/``                     the evenings, newest first (``?before=YYYY-MM-DD`` pages on)
``/e/<YYYY-MM-DD>``         an earlier evening
``/T/<token>``              a team's page (``/t/`` too); POST sends its forms
``/N/<token>``              a setup's names page (``/n/`` too); POST sends the names
``/M/<token>``              the merge page the Settings' QR code opens (``/m/`` too)
``/p/``, ``/p/@<player>``    every player; one player's history and ratings (``/p/<player>`` leads there)
``/live``                   server-sent events: a number after every change
``/table``                  the table view for a TV (``/TABLE`` too, as the box's QR code writes it)
``/table/live``             server-sent events: the table view and its countdown after every change
``/static/<name>``          the stylesheet, the script, the icon
``/api/evening``            tonight as JSON: exactly ``scorelog.evening``
``/api/evening.csv|.json``  tonight as a file (a row per player and game)
``/api/e/<date>``           an earlier evening as JSON (``.csv``, ``.json`` as files)
``/api/evenings``           the list of evenings as JSON (``?before=`` too)
``/api/g/<id>``             one game's score-log entry as JSON; ``.csv``: its sheet
``/api/g/<id>/steps.json``  a finished game's record (``docs/steps-json.md``); 409 while it is on

``/api/table``              the table view as JSON, its countdown as of the answer
``/api/p/<player>.csv|.json`` a player's games as a file

``serve(reader, client, host, port)`` starts it (``referee.web.main`` does,
on ``config.web``).  The address a team's screen shows as a QR code is made
by the box (``referee.team_links``); the page behind it is
``referee.web.team_pages``.
"""
from referee.web.app import Server, make_app, serve

__all__ = ["Server", "make_app", "serve"]
