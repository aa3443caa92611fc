"""The box's settings (its language, the game on screen, the clock...), each a
JSON value under its key."""
from __future__ import annotations

import json
from typing import Any

from referee.store.schema import read_json
from referee.store.writes import Connected, writes


class Settings(Connected):
    def setting(self, key: str, default: Any = None) -> Any:
        row = self._db.execute("SELECT CAST(value AS BLOB) FROM settings WHERE key = ?", (key,)).fetchone()
        value = read_json(row[0]) if row else None
        return default if value is None else value

    @writes
    def set_setting(self, key: str, value: Any) -> None:
        self._db.execute("INSERT INTO settings (key, value) VALUES (?, ?) "
                         "ON CONFLICT(key) DO UPDATE SET value = excluded.value", (key, json.dumps(value)))

