"""Twenty phones and a prankster on the score log: thousands of generated
requests against the box's web app on the virtual table.

A seeded generator sends, twenty at a time over kept-alive connections,
what phones and pranksters send: the real pages and API with right and
wrong ids and dates, random paths and queries (percent-encoded junk, dot
segments, very long ones), every method, odd headers (encodings, ETags,
cookies, origins), bodies that are too big or not in any encoding, team
pages with the current token, old tokens of a game that has ended and
forged ones, and forms with and without their secret.  A share goes out as
raw bytes that no HTTP client would send: broken request lines, bad
versions, duplicate lengths, broken chunking, headers without colons or too
long.  Between batches the table plays on (codes are guessed and revealed,
new ones drawn), so caches turn over and the secrets change.

Every answer must be 2xx, 3xx or 4xx, and none may carry a secret it was
not sent: no Decrypto keyword and no code not yet revealed in any public
answer, no team token or form secret; a team's own page shows its own
keywords and never a code.  Afterwards the box still serves and still takes
keys, and nothing was logged as an error.

``make test`` sends 3 000 requests, ``make soak`` (``--soak``) 20 000.
"""
from __future__ import annotations

import asyncio
import collections
import gzip
import html
import json
import logging
import random
import re
import urllib.parse
from importlib import resources
from dataclasses import dataclass, field

import aiohttp
import pytest
from aiohttp.http_exceptions import HttpProcessingError
from aiohttp.web_protocol import RequestPayloadError
from yarl import URL

from games import decrypto
from referee import team_links, web
from referee.testing import Table

pytestmark = pytest.mark.soak

REQUESTS, SOAK_REQUESTS = 3_000, 20_000
PHONES = 20
BATCH = 500
RAW_SHARE = 0.08
SEED = 42


# --- the table ----------------------------------------------------------------------------

def act(t: Table, *events) -> None:
    for event in events:
        assert t.box.act(event), event


def wrong(code) -> tuple:
    return next(c for c in decrypto.CODES if c != tuple(code))


def play_on(t: Table, rng: random.Random) -> None:
    """The next thing the Decrypto table does: clues, a guess, a reveal."""
    s = t.box.session.state
    now = decrypto.step(s)
    if now.kind == "clues":
        act(t, decrypto.CluesDone(now.waiting[0]))
    elif now.kind in ("intercept", "decode"):
        code = s.codes[now.of_team]
        act(t, decrypto.Guess(now.team, code if rng.random() < 0.7 else wrong(code)))
    elif now.kind == "tiebreak":
        act(t, decrypto.KeywordsGuessed(now.waiting[0], rng.randint(0, 4)))
    else:   # over: a new game, new keywords, new tokens
        t.box.leave()
        t.start("decrypto")


@dataclass
class Secrets:
    """What must not leave the box, at one moment of the evening."""
    keywords: tuple[tuple[str, ...], ...] = ()   # per team
    codes: set = field(default_factory=set)      # codes drawn and not revealed, this game and old ones
    tokens: set = field(default_factory=set)     # team page addresses, current and old
    csrf: set = field(default_factory=set)


def page_token(t: Table, team: int) -> str:
    return team_links.team_url(t.box, team).rsplit("/", 1)[1]


def learn(t: Table, secrets: Secrets) -> None:
    """The secrets of the game on the box now (old ones are kept)."""
    s = t.box.session.state
    secrets.keywords = s.keywords
    shown = {r.team for r in s.reveals}
    secrets.codes |= {c for team, c in enumerate(s.codes) if c and team not in shown}
    for team in (0, 1):
        token = page_token(t, team)
        secrets.tokens.add(token)
        secrets.csrf.add(t.box.store.team_page_by_token(token).csrf)


def public_codes(t: Table) -> set:
    """Codes shown on purpose tonight: every revealed code and every guess."""
    codes = set()
    for entry in t.log():
        if entry["game"] == "decrypto":
            for r in entry["rounds"]:
                codes.update(tuple(c) for c in r["codes"].values())
                codes.update(tuple(c) for g in r["guesses"].values() for c in g.values() if c)
    return codes


# --- the requests ---------------------------------------------------------------------------

@dataclass
class Ask:
    method: str
    path: str
    headers: dict = field(default_factory=dict)
    body: bytes | dict | None = None
    raw: bytes | None = None   # sent as it is, bypassing every client

    def describe(self) -> str:
        """The request in one line, for a report."""
        if self.raw is not None:
            return f"raw {self.raw[:60]!r}"
        body = "" if self.body is None else f" with a {type(self.body).__name__} body"
        encoded = f" ({self.headers['Content-Encoding']})" if "Content-Encoding" in self.headers else ""
        return f"{self.method} {self.path[:100]}{body}{encoded}"

    def sent(self) -> str:
        parts = [self.method, self.path, json.dumps(self.headers)]
        if isinstance(self.body, dict):
            parts.append(json.dumps(self.body))
        elif self.body:
            parts.append(self.body.decode("latin-1"))
        if self.raw:
            parts.append(self.raw.decode("latin-1"))
        return urllib.parse.unquote("\n".join(parts))


JUNK = ["..", ".", "%2e%2e", "%00", "%ff%fe", "é", "%C3%A9", "ü" * 3, "<script>", "'\"", "a" * 300, "~",
        "%", "%zz", "T", "t", "api", "g", "e", "static", "live", "favicon.ico", "robots.txt", ";x=1", "\\"]


class Prankster:
    """Generates requests from a seeded random; ``current`` and ``old`` are
    team tokens it was given the way a phone gets them (the QR code), and
    ``forms`` their form secrets."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.current: list[str] = []
        self.old: list[str] = []
        self.forms: dict[str, str] = {}
        self.games: list[int] = [1]
        self.etags: list[str] = ['"0"']

    def token(self) -> str:
        r = self.rng
        kind = r.random()
        if kind < 0.3 and self.current:
            token = r.choice(self.current)
            return token.lower() if r.random() < 0.2 else token
        if kind < 0.55 and self.old:
            return r.choice(self.old)
        alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
        forged = "".join(r.choice(alphabet) for _ in range(26))
        if self.current and r.random() < 0.3:
            near = self.current[0]   # one letter off a real one
            i = r.randrange(26)
            forged = near[:i] + ("A" if near[i] != "A" else "B") + near[i + 1:]
        return forged[:r.choice([26, 26, 26, 25, 27, 3])]

    def day(self) -> str:
        r = self.rng
        return r.choice(["2026-11-21", "2026-11-22", "2026-02-30", "0000-00-00", "9999-12-31", "2026-13-45",
                         "yesterday", f"{r.randint(1900, 2100)}-{r.randint(1, 12):02d}-{r.randint(1, 31):02d}"])

    def game(self) -> str:
        r = self.rng
        return str(r.choice(self.games + [0, -1, 99999999999999999999, r.randint(1, 10**9)]))

    def path(self) -> str:
        r = self.rng
        routes = [
            lambda: "/", lambda: "/", lambda: f"/g/{self.game()}", lambda: "/e/", lambda: f"/e/{self.day()}",
            lambda: f"/e/?before={self.day()}", lambda: f"/static/{r.choice(['style.css', 'live.js', 'icon.svg', '../app.py', 'nope'])}",
            lambda: f"/{r.choice('Tt')}/{self.token()}", lambda: f"/{r.choice('Tt')}/{self.token()}",
            lambda: "/api/evening", lambda: f"/api/evening.{r.choice(['csv', 'json', 'xml'])}",
            lambda: f"/api/evenings?before={self.day()}", lambda: f"/api/e/{self.day()}",
            lambda: f"/api/e/{self.day()}.{r.choice(['csv', 'json'])}", lambda: f"/api/g/{self.game()}",
            lambda: f"/api/g/{self.game()}.csv", lambda: "/" + "/".join(r.choice(JUNK) for _ in range(r.randint(1, 5))),
        ]
        path = r.choice(routes)()
        if r.random() < 0.15:
            path += "?" + "&".join(f"{r.choice(JUNK)}={r.choice(JUNK)}" for _ in range(r.randint(1, 4)))
        if r.random() < 0.01:
            path += "/" + "x" * r.choice([2_000, 9_000])
        return path

    def headers(self) -> dict:
        r = self.rng
        pool = {
            "Accept-Encoding": lambda: r.choice(["gzip", "gzip;q=0", "gzip;q=0.000", "br, gzip;q=0.5", "*", "identity",
                                                 "gzip;q=abc", "", ",,,"]),
            "If-None-Match": lambda: r.choice(self.etags + ["*", '"x"', "garbage"]),
            "Cookie": lambda: r.choice([f"csrf={r.choice(list(self.forms.values()) or ['x'])}", "csrf=", "a=b; c",
                                        "csrf=" + "x" * 5000]),
            "Origin": lambda: r.choice(["null", "http://evil.example", "http://127.0.0.1", ""]),
            "Referer": lambda: r.choice(["http://evil.example/", "http://127.0.0.1/", "::::"]),
            "Sec-Fetch-Site": lambda: r.choice(["same-origin", "cross-site", "none", "same-site", "?"]),
            "Accept": lambda: r.choice(["text/html", "application/json", "*/*", "text/event-stream", ""]),
            "Range": lambda: r.choice(["bytes=0-10", "bytes=-5", "bytes=99999999-", "lines=1-2"]),
            "X-Forwarded-For": lambda: "1.2.3.4, " * r.randint(1, 50),
            "User-Agent": lambda: r.choice(["Mozilla/5.0", "", "x" * 3000]),
            "Content-Type": lambda: r.choice(["application/x-www-form-urlencoded", "multipart/form-data",
                                              "multipart/form-data; boundary=zz", "application/json",
                                              "text/plain; charset=utf-8", "application/x-www-form-urlencoded; charset=latin-1",
                                              "%%%"]),
        }
        return {name: make() for name, make in pool.items() if r.random() < 0.2}

    def body(self, headers: dict):
        r = self.rng
        kind = r.random()
        form = {"csrf": r.choice(list(self.forms.values()) + ["", "x"]), r.choice(JUNK): r.choice(JUNK)}
        if kind < 0.4:
            return form
        if kind < 0.55:
            return {f"f{i}": "v" for i in range(r.choice([5, 21, 40]))}
        if kind < 0.7:
            return b"x" * r.choice([100, 16_000, 20_000, 300_000])
        if kind < 0.85:
            headers.setdefault("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")
            return b"csrf=\xff\xfe\xfd&do=\xc3\x28&" + bytes(r.randrange(256) for _ in range(r.randint(1, 60)))
        headers["Content-Encoding"] = r.choice(["gzip", "deflate", "br", "zz"])
        return gzip.compress(b"do=done")[:r.randint(0, 25)]

    def ask(self) -> Ask:
        r = self.rng
        if r.random() < RAW_SHARE:
            return self.raw()
        method = r.choices(["GET", "POST", "HEAD", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "FOO"],
                           [60, 20, 6, 2, 2, 2, 3, 2, 1])[0]
        path = self.path()
        if method == "POST" and r.random() < 0.5:
            path = f"/{r.choice('Tt')}/{self.token()}"
        headers = self.headers()
        body = self.body(headers) if method in ("POST", "PUT", "PATCH") or r.random() < 0.03 else None
        if body is not None and not isinstance(body, dict):
            headers.setdefault("Content-Type", "application/x-www-form-urlencoded")
        return Ask(method, path, headers, body)

    def raw(self) -> Ask:
        r = self.rng
        token = self.token()
        lines = r.choice([
            b"GARBAGE\r\n\r\n",
            b"GET / HTTP/9.9\r\nHost: box\r\n\r\n",
            b"GET / HTTP/1.1\r\nHost: box\r\nno colon here\r\n\r\n",
            b"GET /\xff\xfe\x00 HTTP/1.1\r\nHost: box\r\n\r\n",
            b"GET / HTTP/1.1\r\nHost: box\r\nX-Long: " + b"a" * 20_000 + b"\r\n\r\n",
            b"GET /" + b"a" * 10_000 + b" HTTP/1.1\r\nHost: box\r\n\r\n",
            b"POST /T/" + token.encode() + b" HTTP/1.1\r\nHost: box\r\nContent-Length: 5\r\nContent-Length: 7\r\n\r\nhello!!",
            b"POST / HTTP/1.1\r\nHost: box\r\nTransfer-Encoding: chunked\r\n\r\nZZZ\r\nxx\r\n",
            b"POST /T/" + token.encode() + b" HTTP/1.1\r\nHost: box\r\nContent-Length: -1\r\n\r\n",
            b"GET / HTTP/1.1\r\nHost: box\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n",
            b"GET / HTTP/1.0\r\n\r\n",
            b"GET http://evil.example/ HTTP/1.1\r\nHost: evil.example\r\n\r\n",
            b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + bytes(r.randrange(256) for _ in range(40)),   # TLS hello
            b"GET /api/evening HTTP/1.1\r\nHost: box\r\nHost: other\r\n\r\n",
            b"GET / HTTP/1.1\r\nHost: box\r\n" + b"".join(b"X-%d: y\r\n" % i for i in range(200)) + b"\r\n",
            b"GET / HTTP/1.1\r\nHost: box\r\nCookie: csrf=\x00\x1b\r\n\r\n",
            b"GET / HTTP/1.1\r\nHost: box\r\nX-Split: a\r\n b\r\n\r\n",
        ])
        return Ask("RAW", "", raw=lines)


# --- sending ---------------------------------------------------------------------------------

@dataclass
class Answer:
    status: int | str | None
    text: str


CUT = "hung up"   # the status of an upload refused by closing the connection


async def send(http: aiohttp.ClientSession, base: str, ask: Ask) -> Answer:
    if ask.raw is not None:
        return await send_raw(base, ask.raw)
    try:
        return await send_once(http, base, ask)
    except aiohttp.ServerDisconnectedError:
        # A kept-alive connection the box had already closed (as it may
        # after an error): a phone simply asks again.
        return await send_once(http, base, ask)


async def send_once(http: aiohttp.ClientSession, base: str, ask: Ask) -> Answer:
    url = base.rstrip("/") + ask.path
    data = ask.body
    try:
        async with http.request(ask.method, URL(url, encoded=True), headers=ask.headers, data=data,
                                allow_redirects=False) as r:
            if r.content_type == "text/event-stream":
                body = await r.content.readuntil(b"\n\n")   # the first message; the phone then goes away
                r.close()
            else:
                body = await r.read()
            shown = "\n".join(f"{k}: {v}" for k, v in r.headers.items())
            return Answer(r.status, shown + "\n\n" + body.decode("utf-8", "replace"))
    except aiohttp.ClientResponseError as exc:   # the server refused before a handler (e.g. 400 on a bad header)
        return Answer(exc.status, exc.message)
    except aiohttp.ClientOSError:
        if isinstance(data, bytes) and len(data) > web.app.MAX_BODY:
            # The box refused the upload and hung up while the phone was
            # still sending it: the answer is lost in the reset.
            return Answer(CUT, "")
        return Answer(None, "the box hung up without an answer")


async def send_raw(base: str, raw: bytes) -> Answer:
    host, port = urllib.parse.urlsplit(base).hostname, urllib.parse.urlsplit(base).port
    reader, writer = await asyncio.open_connection(host, port)
    data = b""
    try:
        writer.write(raw)
        await writer.drain()
        while b"\r\n\r\n" not in data and len(data) < 1_000_000:
            chunk = await asyncio.wait_for(reader.read(65536), 5)
            if not chunk:
                break
            data += chunk
    except ConnectionError:
        pass   # the box answered and hung up on the rest: the answer is what came
    finally:
        writer.close()
    head = data.split(b"\r\n", 1)[0].decode("latin-1")
    match = re.match(r"HTTP/1\.[01] (\d{3}) ", head)
    return Answer(int(match.group(1)) if match else None, data.decode("utf-8", "replace"))


# --- what a response may say -------------------------------------------------------------------

def code_forms(code: tuple) -> list[str]:
    return [rf"(?<![\d-]){'-'.join(map(str, code))}(?![\d-])", re.escape(json.dumps(list(code))),
            re.escape(json.dumps(list(code), separators=(",", ":")))]


def leaks(ask: Ask, answer: Answer, secrets: Secrets, shown_codes: set, common: set,
          own_page: int | None) -> list[str]:
    """The secrets in an answer that its request did not bring along."""
    text = answer.text
    text = "\n".join((text, html.unescape(text), urllib.parse.unquote(text)))
    sent = ask.sent()
    found = []
    for team, words in enumerate(secrets.keywords):
        if team == own_page:
            continue   # a team's page shows its own keywords
        found += [w for w in words if w.lower() not in common and w not in sent
                  and re.search(rf"\b{re.escape(w)}\b", text, re.I)]
    for code in secrets.codes - shown_codes:
        found += [form for form in code_forms(code) if re.search(form, text)]
    for secret in secrets.tokens | secrets.csrf:
        if secret not in text or secret.lower() in sent.lower():
            continue
        if own_page is not None and secret in secrets.csrf:
            continue   # a team page carries its own form secret
        found.append(secret)
    return found


# --- the test -------------------------------------------------------------------------------------

def test_thousands_of_requests_from_phones_and_pranksters_get_4xx_at_worst_and_no_secret(caplog, soak):
    caplog.set_level(logging.INFO)
    total = SOAK_REQUESTS if soak else REQUESTS
    rng = random.Random(SEED)
    prank = Prankster(rng)
    secrets = Secrets()
    with Table(seed=SEED, lang="en") as t:
        base = t.web_url()
        common = words_of_the_pages()
        # An earlier Decrypto game, left with both team pages opened: old tokens.
        t.start("decrypto")
        learn(t, secrets)
        prank.old += [page_token(t, 0), page_token(t, 1)]
        for _ in range(4):
            play_on(t, rng)
        learn(t, secrets)
        t.box.leave()
        # The game on the box now, its team pages opened by the teams.
        t.start("decrypto")
        prank.games = [e["id"] for e in t.log()]
        statuses: dict[int | str | None, int] = {}
        problems: list[str] = []
        sent = 0
        while sent < total:
            learn(t, secrets)
            prank.current = [page_token(t, 0), page_token(t, 1)]
            pages = {token: team for team, token in enumerate(prank.current)}
            prank.forms = {tok: t.box.store.team_page_by_token(tok).csrf for tok in prank.current}
            asks = [prank.ask() for _ in range(min(BATCH, total - sent))]
            answers = t.loop.run_until_complete(batch(base, asks))
            t.advance(0)
            shown = public_codes(t)
            for ask, answer in zip(asks, answers):
                statuses[answer.status] = statuses.get(answer.status, 0) + 1
                if not (answer.status == CUT or (answer.status is not None and answer.status < 500)):
                    problems.append(f"{answer.status} for {ask.describe()}")
                token = token_in(ask.path)
                if token is not None and token not in pages and answer.status in (200, 303):
                    problems.append(f"an old or forged token opened a page: {ask.describe()}")
                own = pages.get(token)   # a refused form comes back on the team's own page
                found = leaks(ask, answer, secrets, shown, common, own)
                if found:
                    problems.append(f"{found} in the answer to {ask.describe()}: {answer.text[:300]!r}")
                etag = re.search(r'ETag: ("[0-9a-f]+")', answer.text)
                if etag:
                    prank.etags = [etag.group(1), *prank.etags[:5]]
            sent += len(asks)
            play_on(t, rng)   # the table plays on between batches: caches turn over
        # Still up: the page, the API and the keys.
        assert t.get("/")[0] == 200 and t.get("/api/evening")[0] == 200
        keys = t.box.key_count
        t.press("D")
        assert t.box.key_count == keys + 1
    # aiohttp itself logs, with a traceback, each request it cannot read (a
    # broken request line, a body that does not decompress): counted here;
    # the box's own log stays clean.
    unparsed = [r for r in caplog.records if r.name == "aiohttp.server" and r.exc_info
                and isinstance(r.exc_info[1], (HttpProcessingError, RequestPayloadError))]
    errors = [r for r in caplog.records if (r.levelno >= logging.ERROR or r.exc_info) and r not in unparsed]
    problems += [f"logged by {r.name}: {r.getMessage()} ({r.exc_info[0].__name__ if r.exc_info else ''})"
                 for r in errors]
    counted = collections.Counter(problems)
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(
        f"{n} × {problem}" for problem, n in sorted(counted.items())[:40])
    assert sum(statuses.values()) == total and len(secrets.tokens) >= 4
    print(f"\nweb fuzz: {total} requests, by status {dict(sorted(statuses.items(), key=str))}; "
          f"{len(unparsed)} unparsable requests logged by aiohttp with a traceback")


def token_in(path: str) -> str | None:
    """The team token a request's path opens, if it is a team page's."""
    route = urllib.parse.urlsplit(path).path
    return route[3:].upper() if route[:3].upper() == "/T/" else None


async def batch(base: str, asks: list[Ask]) -> list[Answer]:
    """The requests of one batch, from twenty phones at once."""
    answers: list[Answer | None] = [None] * len(asks)
    queue = iter(range(len(asks)))

    async def phone():
        jar = aiohttp.DummyCookieJar()
        async with aiohttp.ClientSession(cookie_jar=jar, timeout=aiohttp.ClientTimeout(total=30)) as http:
            for i in queue:
                answers[i] = await send(http, base, asks[i])

    await asyncio.gather(*(phone() for _ in range(PHONES)))
    return answers


def words_of_the_pages() -> set[str]:
    """Words the pages' own text may use whatever is played ("key",
    "round"...): a keyword among them could not be told from the page."""
    folder = resources.files("referee.web")
    text = " ".join(item.read_text(encoding="utf-8") for sub in (folder, folder / "templates")
                    for item in sub.iterdir() if item.is_file() and item.name.endswith((".py", ".html")))
    return {w.lower() for w in re.findall(r"[A-Za-z]+", text)}


def test_DE3_the_secrecy_scan_sees_keywords_codes_and_form_secrets():
    """The scan above is not blind: a team's page read as if it were public
    gives away its keywords and its form secret, and a code in play is seen
    in each of the ways a page could write it."""
    with Table(seed=SEED, lang="en") as t:
        t.start("decrypto")
        secrets = Secrets()
        learn(t, secrets)
        status, headers, body = t.get("/T/" + page_token(t, 0))
        page = Answer(status, "\n".join(f"{k}: {v}" for k, v in headers.items()) + "\n\n" + body)
        common = words_of_the_pages()
        found = leaks(Ask("GET", "/"), page, secrets, set(), common, own_page=None)
        mine = {w for w in secrets.keywords[0] if w.lower() not in common}
        assert len(mine) >= 3 and mine <= set(found)
        assert t.box.store.team_page_by_token(page_token(t, 0)).csrf in found
        assert not leaks(Ask("GET", "/T/" + page_token(t, 0)), page, secrets, set(), common, own_page=0)
        code = t.box.session.state.codes[1]
        for written in ("-".join(map(str, code)), json.dumps(list(code)), json.dumps(list(code)).replace(" ", "")):
            assert leaks(Ask("GET", "/"), Answer(200, f"<td>{written}</td>"), secrets, set(), common, None)
            assert not leaks(Ask("GET", "/"), Answer(200, f"<td>{written}</td>"), secrets, {code}, common, None)
