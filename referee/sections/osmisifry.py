"""Osmišifry's section of the configuration: ``[osmisifry]``, the owners'
own letter tables [OS-1]."""
from __future__ import annotations

import os

from games import osmisifry
from referee.config import Base, Refused


class Section(Base):
    # The letter tables of the owners' printed editions, offered at setup
    # beside the bundled ones: TOML files as games/data/letters-cs.toml is
    # written (``name``, and ``rows``: 8 rows of 8 letters A-Z).  A path is
    # absolute or relative to the configuration file's folder.  [OS-1]
    # [ruling] A letter may stand in many cells, as printed tables made for
    # letter frequencies have it; two tables by one name are refused, since
    # the setup form could not tell them apart.
    letter_tables: tuple[str, ...] = ()

    def __post_init__(self):
        names = {osmisifry.builtin_table(code).name: "a bundled table" for code in osmisifry.TABLES}
        for i, path in enumerate(self.letter_tables):
            key = f"letter_tables[{i}]"
            try:
                table = read_letter_table(path)
            except ValueError as exc:
                raise Refused(key, f"{path}: {exc}") from None
            if table.name in names:
                raise Refused(key, f"{path}: the name {table.name!r} is already {names[table.name]}'s; "
                                   "give the table a name of its own")
            names[table.name] = key

    def tables(self) -> tuple[osmisifry.Table, ...]:
        """The configured tables, read anew: what setup offers now."""
        return tuple(read_letter_table(path) for path in self.letter_tables)


def beside(table: dict, folder: str) -> None:
    """Letter table paths relative to the configuration file's folder, as
    its owner reads them, whatever folder the box starts in."""
    paths = table.get("letter_tables")
    if isinstance(paths, list):
        table["letter_tables"] = [os.path.join(folder, p) if isinstance(p, str) and p else p for p in paths]


def read_letter_table(path: str) -> osmisifry.Table:
    """A letter table file, named by its ``name`` or else its file name;
    ``ValueError`` says what is wrong with it."""
    if not os.path.exists(path):
        raise ValueError("no such file")
    if not os.path.isfile(path):
        raise ValueError("not a file")
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"cannot be read ({exc})") from None
    table = osmisifry.load_table(text)
    if not table.name.strip():
        table = osmisifry.Table(table.rows, os.path.splitext(os.path.basename(path))[0])
    return table
