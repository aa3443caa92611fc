"""The event store and what is read from it, shared by the box and the web.

- ``events``: the SQLite store, every game an append-only list of events
  (``Store``; the web opens it with ``Store.open_read_only``), made of
  ``settings``, ``team_pages`` and ``merges`` beside it, on the tables of
  ``schema``, writing through ``writes`` (one transaction a write, and what
  a card that refuses it means);
- ``snapshot``: a game's state as data, so a start replays only the last
  events; ``replay``: a game's state from its stored rows;
- ``scorelog``: the evening's score log, as the phones and the club see it;
- ``salvage`` and ``sqlite_file``: a damaged database set aside and what can
  be read of it, from its pages and its WAL, without SQLite.
"""
