"""The running totals of a game as a small SVG line chart, drawn on the
server so that it shows with JavaScript off and costs a phone nothing.

Colours come from the stylesheet (classes ``s0``…``s5``), so the chart
follows the page into dark mode; the markup carries no style attribute,
which the content security policy would refuse.

Lines that meet would hide one another (Player 2 under Player 3): where
several series have the same value after a round, their points are drawn a
few pixels apart, in series order, so every colour stays in sight; the
first of them keeps the true height, so that a zero lies on the zero line.  A
series drawn ``dashed`` (a team's second line, in its colour) is also thin,
with hollow square marks, so that over its solid twin both still show.

A game may chart itself otherwise: ``chart(entry, names)`` in its web
module (Decrypto charts each team's tokens, as players count them).
"""
from __future__ import annotations

from markupsafe import Markup, escape

from referee import catalogue
from referee.i18n import _
from referee.store.scorelog import Entry
from referee.web import sheets

W, H = 320, 160
LEFT, RIGHT, TOP, BOTTOM = 30, 10, 8, 20
SERIES = 6          # colours in the stylesheet; more players reuse them
MAX_DOTS = 30       # beyond this many rounds the dots only clutter the lines
APART = 4.0         # pixels between equal points of different series


def nice_step(span: float, ticks: int = 4) -> int:
    """A tick spacing of 1, 2 or 5 times a power of ten giving at most
    ``ticks`` intervals."""
    step = 1
    while True:
        for k in (1, 2, 5):
            if span / (step * k) <= ticks:
                return step * k
        step *= 10


def spread(values: tuple) -> list[float]:
    """Each series' offset in pixels at one round: of equal values the
    first series' is drawn at its true height (a zero on the zero line),
    the others beside it, below, above, further below, in series order."""
    offsets = [0.0] * len(values)
    for v in set(values):
        same = [k for k, w in enumerate(values) if w == v]
        for j, k in enumerate(same):
            offsets[k] = (j + 1) // 2 * APART * (1 if j % 2 else -1)
    return offsets


def running_totals(players: list[str], points: list[tuple], colours: list[int] | None = None,
                   dashed: frozenset[int] = frozenset(), label: str = "") -> Markup:
    """``points[i]`` are the totals after round ``i`` (``points[0]``: the
    start), in the order of ``players``.  ``colours`` picks each series'
    colour (default: its place), ``dashed`` the series drawn dashed."""
    colours = colours if colours is not None else list(range(len(players)))
    rounds = len(points) - 1
    values = [v for p in points for v in p] or [0]
    low, high = min(0, min(values)), max(1, max(values))
    step = nice_step(high - low)
    low, high = step * (low // step), step * -(-high // step)

    def x(i: float) -> float:
        return LEFT + (W - LEFT - RIGHT) * (i / rounds if rounds else 0.5)

    def y(v: float) -> float:
        return TOP + (H - TOP - BOTTOM) * (high - v) / (high - low)

    label = label or _("Running totals: {scores}").format(
        scores=", ".join(f"{name} {total}" for name, total in zip(players, points[-1])))
    apart = [spread(p) for p in points]
    out = [f'<svg class="chart" viewBox="0 0 {W} {H}" role="img" aria-label="{escape(label)}">',
           f"<title>{escape(label)}</title>"]
    for v in range(int(low), int(high) + 1, step):
        out.append(f'<line class="{"axis" if v == 0 else "grid"}" x1="{LEFT}" x2="{W - RIGHT}" '
                   f'y1="{y(v):.1f}" y2="{y(v):.1f}"/>')
        out.append(f'<text class="tick" x="{LEFT - 4}" y="{y(v) + 3.5:.1f}" text-anchor="end">{v}</text>')
    stride = nice_step(rounds, 8) if rounds else 1
    for i in range(stride, rounds + 1, stride):
        out.append(f'<text class="tick" x="{x(i):.1f}" y="{H - 5}" text-anchor="middle">{i}</text>')
    for k in range(len(players)):
        colour = f"s{colours[k] % SERIES}"
        line = " ".join(f"{x(i):.1f},{y(p[k]) + apart[i][k]:.1f}" for i, p in enumerate(points))
        out.append(f'<polyline class="line {colour}{" dash thin" if k in dashed else ""}" points="{line}"/>')
        if rounds <= MAX_DOTS:
            for i, p in enumerate(points):
                cx, cy = x(i), y(p[k]) + apart[i][k]
                if not i:
                    continue
                if k in dashed:
                    out.append(f'<rect class="dot hollow {colour}" x="{cx - 2.5:.1f}" y="{cy - 2.5:.1f}" '
                               f'width="5" height="5"/>')
                else:
                    out.append(f'<circle class="dot {colour}" cx="{cx:.1f}" cy="{cy:.1f}" r="2.5"/>')
    out.append("</svg>")
    return Markup("".join(out))


def for_entry(entry: Entry, standings: list) -> tuple[Markup | str, list[dict]]:
    """The chart a game's page shows, and its legend (name, colour, dashed,
    value): the game's own (its web module's ``chart``), or its running totals."""
    if not entry.summary.rounds or not entry.summary.scored:   # no points, nothing to draw
        return "", []
    own = catalogue.hook(entry.game, "web", "chart")
    if own is not None:
        return own(entry, [s.name for s in standings])
    points = sheets.running_totals(entry)
    legend = [{"name": s.name, "colour": k, "dashed": False, "value": s.total} for k, s in enumerate(standings)]
    return running_totals([s.name for s in standings], points), legend
