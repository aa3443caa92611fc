"""Tally's words for a point, which its key flows and the replay both say."""
from __future__ import annotations


def describe(event, before) -> str:
    return f"{before.names[event.seat]} scores"
