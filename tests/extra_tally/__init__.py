"""Tally, a game that exists only for the tests (issue 24, item 1): two
players, a point a key, the first to three wins.  It is added to the box
through ``referee.catalogue.register`` alone (``GAME``), with a rules
module, key flows, its words for a point and a web module of its own, as a
sixth game would be; its team variant (``members``: the people of each
team) is a game of teams through the catalogue alone."""
from referee.catalogue import Game

GAME = Game("tally", "Tally", "extra_tally.rules", "extra_tally.flows", "extra_tally.web", seats=(2, 2),
            bgg_id=None, said="extra_tally.said", members="members")
