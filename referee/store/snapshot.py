"""A game's state as data, so that a start replays only the last events.

A game's state is a tree of frozen dataclasses holding tuples, strings,
numbers, booleans and None (see ``games/``).  ``encode`` makes it a JSON
value and ``decode`` gives back an equal state::

    dataclass  {"@": "games.decrypto.State", "round": 3, ...}
    tuple      [...]                        (the common case stays plain)
    list       {"@": "list", "items": [...]}
    frozenset  {"@": "frozenset", "items": [...]}
    dict       {"@": "dict", "items": [[key, value], ...]}
    str, int, float, bool, None as JSON has them

Only classes of the ``games`` package are ever made from a snapshot, and
anything else in a state is refused when it is encoded (``TypeError``), so
a game that grows a new kind of value fails its round-trip test rather
than the table.

A snapshot is only as good as the rules that made it: ``fingerprint()``
names the rules (every file of the ``games`` package, and this format), and
a snapshot made by other rules is not used; the game is replayed from its
events instead, which is always right.
"""
from __future__ import annotations

import dataclasses
import functools
import hashlib
import importlib
import json
import os
from typing import Any

from games import base
import games

FORMAT = "1"


class Unreadable(ValueError):
    """Stored text that is not a state this code can make."""


def encode(state: Any) -> str:
    return json.dumps(base.walk(state, _tagged), ensure_ascii=False, separators=(",", ":"))


def decode(text: str | bytes) -> Any:
    try:
        return _made(json.loads(text))
    except Unreadable:
        raise
    except (ValueError, TypeError, KeyError, AttributeError, ImportError) as exc:
        raise Unreadable(f"{type(exc).__name__}: {exc}") from None


def _tagged(value: Any, parts: Any) -> Any:
    # A node of the state as the table above writes it (see base.walk).
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    kind = type(value)
    if kind is tuple:
        return parts
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        if not kind.__module__.startswith("games."):
            raise TypeError(f"{kind.__qualname__} is not a class of the games")
        return {"@": f"{kind.__module__}.{kind.__qualname__}", **parts}
    if kind in (list, frozenset, dict):
        return {"@": kind.__name__, "items": parts}
    raise TypeError(f"a state cannot hold a {kind.__qualname__} ({value!r:.40})")


def _made(data: Any) -> Any:
    if isinstance(data, list):
        return tuple(_made(v) for v in data)
    if not isinstance(data, dict):
        return data
    tag = data["@"]
    if tag == "list":
        return [_made(v) for v in data["items"]]
    if tag == "frozenset":
        return frozenset(_made(v) for v in data["items"])
    if tag == "dict":
        return {_made(k): _made(v) for k, v in data["items"]}
    cls = _class(tag)
    fields = {f.name: f for f in dataclasses.fields(cls)}
    values = {k: _made(v) for k, v in data.items() if k != "@"}
    if set(values) != set(fields):
        raise Unreadable(f"{tag} has fields {sorted(fields)}, not {sorted(values)}")
    made = cls(**{k: v for k, v in values.items() if fields[k].init})
    for name, value in values.items():
        if not fields[name].init:
            object.__setattr__(made, name, value)
    return made


@functools.cache
def _class(tag: str) -> type:
    module, name = _split(tag)
    found = importlib.import_module(module)
    for part in name.split("."):
        found = getattr(found, part)
    if not (isinstance(found, type) and dataclasses.is_dataclass(found)):
        raise Unreadable(f"{tag} is not a state class")
    return found


def _split(tag: str) -> tuple[str, str]:
    """``games.decrypto.State`` -> (``games.decrypto``, ``State``): the
    module is the longest prefix that is a module of the games."""
    parts = tag.split(".")
    if parts[0] != "games" or len(parts) < 3:
        raise Unreadable(f"{tag!r} is not a class of the games")
    return ".".join(parts[:2]), ".".join(parts[2:])


@functools.cache
def fingerprint() -> str:
    """The rules this process plays by: a digest of every file of the
    ``games`` package (code and data) and of this format."""
    digest = hashlib.sha256(FORMAT.encode())
    root = os.path.dirname(os.path.abspath(games.__file__))
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            if name.endswith((".pyc", ".pyo")):
                continue
            path = os.path.join(folder, name)
            digest.update(os.path.relpath(path, root).encode() + b"\0")
            with open(path, "rb") as f:
                digest.update(f.read())
    return digest.hexdigest()[:16]
