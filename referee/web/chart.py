"""The running totals of a game as a small SVG line chart, drawn on the
server so that it shows with JavaScript off and costs a phone nothing.

Colours come from the stylesheet (classes ``s0``…``s5``), so the chart
follows the page into dark mode; the markup carries no style attribute,
which the content security policy would refuse.
"""
from __future__ import annotations

from markupsafe import Markup, escape

from referee.i18n import _

W, H = 320, 160
LEFT, RIGHT, TOP, BOTTOM = 30, 10, 8, 20
SERIES = 6          # colours in the stylesheet; more players reuse them
MAX_DOTS = 30       # beyond this many rounds the dots only clutter the lines


def nice_step(span: float, ticks: int = 4) -> int:
    """A tick spacing of 1, 2 or 5 times a power of ten giving at most
    ``ticks`` intervals."""
    step = 1
    while True:
        for k in (1, 2, 5):
            if span / (step * k) <= ticks:
                return step * k
        step *= 10


def running_totals(players: list[str], points: list[tuple]) -> Markup:
    """``points[i]`` are the totals after round ``i`` (``points[0]``: the
    start), in the order of ``players``."""
    rounds = len(points) - 1
    values = [v for p in points for v in p] or [0]
    low, high = min(0, min(values)), max(1, max(values))
    step = nice_step(high - low)
    low, high = step * (low // step), step * -(-high // step)

    def x(i: float) -> float:
        return LEFT + (W - LEFT - RIGHT) * (i / rounds if rounds else 0.5)

    def y(v: float) -> float:
        return TOP + (H - TOP - BOTTOM) * (high - v) / (high - low)

    label = _("Running totals: {scores}").format(
        scores=", ".join(f"{name} {total}" for name, total in zip(players, points[-1])))
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
        colour = f"s{k % SERIES}"
        line = " ".join(f"{x(i):.1f},{y(p[k]):.1f}" for i, p in enumerate(points))
        out.append(f'<polyline class="line {colour}" points="{line}"/>')
        if rounds <= MAX_DOTS:
            out.extend(f'<circle class="dot {colour}" cx="{x(i):.1f}" cy="{y(p[k]):.1f}" r="2.5"/>'
                       for i, p in enumerate(points) if i)
    out.append("</svg>")
    return Markup("".join(out))
