"""Club night: many boxes, one league, over an MQTT broker.

A box that has ``[club] broker`` in its configuration publishes its public
score log, and ``referee league`` (any machine on the club's network)
subscribes and shows every table, tonight's standings and the history.
Mosquitto is the broker; aiomqtt the client on both sides.

Nothing here is a sync of our own: the box's event store already is an
append-only log written in the same transaction as the game, so it is the
outbox.  The publisher (``referee club``, its own process, since the box
itself has no network) reads it from where it left off, publishes each new
row with QoS 1 on a persistent session, and moves its cursor only once the
broker has acknowledged.  A message carries ``<table>:<game>:<seq>`` as its
id: a subscriber that sees an id again, or an older one, drops it.

Topics, under ``referee/<club>/<table>/``:

``status``        retained: online (with the game on the table) or, as the
                  last will, offline
``game/<id>``     retained: the game's public score-log entry, after its
                  latest row
``event``         one message per stored row, with the entry after it
``merge/<id>``    retained: a merge of two names made on the box, sent again
                  when taken back (``referee.club.joins``)

What goes out is exactly what the public score log shows (each game's
``summary()``, as ``referee.store.scorelog`` serves it to phones): never a
keyword, a code or a hidden count.
"""
