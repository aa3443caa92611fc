"""How long the Octiles referee takes to list the legal moves of a turn.

The hardest case the box meets: a full board (17 tiles, the 18th in hand,
so every placement is an exchange) and four players with 5 runners each.
Runners stand where the rules let them: on stops, their own start homes or
their own goal homes, one per circle.
"""
from __future__ import annotations

import random
import statistics
import time

from games import octiles


def full_board(rng: random.Random) -> tuple[octiles.Position, str]:
    """A random full board with 20 runners, and the tile in hand."""
    board = octiles.BOARD
    tiles = list(octiles.TILE_IDS)
    rng.shuffle(tiles)
    hand = tiles.pop()
    placed = {space: (tile, rng.randrange(8)) for space, tile in zip(board.spaces, tiles)}
    stops = [c for c in board.circles if board.is_stop(c)]
    runners: dict[str, str] = {}
    for seat in octiles.SEATS:
        open_to_seat = stops + list(board.start_homes(seat)) + list(board.goal_homes(seat))
        free = [c for c in open_to_seat if c not in runners]
        runners.update((c, seat) for c in rng.sample(free, 5))
    pos = octiles.position(players=4, tiles=placed, runners=runners, to_move=rng.choice(octiles.SEATS))
    return pos, hand


def run(n: int = 1000, seed: int = 1) -> dict:
    """Time ``legal_moves`` on ``n`` random full boards with 20 runners."""
    rng = random.Random(seed)
    cases = [full_board(rng) for _ in range(n)]
    times = []
    for pos, hand in cases:
        octiles.legal_moves.cache_clear()  # time the work, not the memo
        start = time.perf_counter()
        octiles.legal_moves(pos, hand)
        times.append((time.perf_counter() - start) * 1000)
    return {"median_ms": round(statistics.median(times), 3), "max_ms": round(max(times), 3), "positions": n}


def rows():
    """The lines ``python -m bench`` prints: (measure, result, target, holds)."""
    r = run()
    yield "octiles legal moves, median", f"{r['median_ms']:.2f} ms", "≤ 20 ms", r["median_ms"] <= 20
    yield "octiles legal moves, max", f"{r['max_ms']:.2f} ms", "reported", True


if __name__ == "__main__":
    print(run())
