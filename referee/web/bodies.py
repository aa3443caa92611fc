"""An answer of the web, rendered once and sent many times: plain and gzipped,
with its ETag, so that a crowd of phones costs one rendering per change."""
from __future__ import annotations

import gzip
import hashlib
from dataclasses import dataclass

from aiohttp import web

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


def accepts_gzip(request: web.Request) -> bool:
    for part in request.headers.get("Accept-Encoding", "").split(","):
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


