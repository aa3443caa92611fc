"""An answer of the web, rendered once and sent many times: plain and gzipped,
with its ETag, so that a crowd of phones costs one rendering per change."""
from __future__ import annotations

import functools
import gzip
import hashlib
from dataclasses import dataclass

from aiohttp import web

MOST_KEPT = 256           # rendered answers kept between two changes, by each ``PerChange``
TYPES = {"html": "text/html", "json": "application/json", "csv": "text/csv",
         "css": "text/css", "js": "text/javascript", "svg": "image/svg+xml"}


@dataclass(frozen=True)
class Body:
    """One answer, rendered: plain and gzipped, with its ETag."""
    raw: bytes
    gz: bytes
    kind: str
    etag: str

    @classmethod
    def of(cls, text: str, kind: str) -> Body:
        raw = text.encode()
        tag = hashlib.blake2b(raw, digest_size=8).hexdigest()
        return cls(raw, gzip.compress(raw, 6, mtime=0), kind, f'"{tag}"')


class PerChange:
    """Answers rendered once and kept while the stamp of what they were
    made from holds (a crowd of phones costs one rendering per change); at
    most ``most`` of them, all forgotten when one more would be too many."""

    def __init__(self, most: int = MOST_KEPT) -> None:
        self.most = most
        self._stamp = None
        self._bodies: dict[str, Body] = {}

    def get(self, stamp, key: str, make) -> Body:
        if stamp != self._stamp:
            self._bodies.clear()
            self._stamp = stamp
        body = self._bodies.get(key)
        if body is None:
            if len(self._bodies) >= self.most:
                self._bodies.clear()
            body = self._bodies[key] = make()
        return body

    def __len__(self) -> int:
        return len(self._bodies)


def key_of(request: web.Request, query: str = "") -> str:
    """A kept answer's key: its path, the query string left out (new ones
    cost nothing) but for the one parameter a page reads, ``query``."""
    return f"{request.path}?{query}={request.query.get(query, '')}" if query else request.path


def accepts_gzip(request: web.Request) -> bool:
    return _gzip_in(request.headers.get("Accept-Encoding", ""))


@functools.lru_cache(maxsize=64)
def _gzip_in(header: str) -> bool:
    # Kept per header: phones send a handful of them, every request.
    for part in header.split(","):
        coding, _, params = part.partition(";")
        if coding.strip().lower() == "gzip":
            quality = params.replace(" ", "").removeprefix("q=") or "1"
            return quality.strip("0.") != ""    # "q=0", "q=0.000": refused
    return False


def send(request: web.Request, body: Body, headers: dict | None = None) -> web.Response:
    headers = {"ETag": body.etag, "Vary": "Accept-Encoding", **(headers or {})}
    if body.etag in request.headers.get("If-None-Match", ""):
        return web.Response(status=304, headers=headers)
    zipped = accepts_gzip(request)
    if zipped:
        headers["Content-Encoding"] = "gzip"
    return web.Response(body=body.gz if zipped else body.raw, headers=headers,
                        content_type=TYPES[body.kind], charset=None if body.kind == "svg" else "utf-8")


def attachment(name: str) -> dict:
    return {"Content-Disposition": f'attachment; filename="{name}"'}


