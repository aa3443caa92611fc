"""``make bench``: every benchmark, one table, bench/results.json.

Each row states its target (from the issues) and whether it holds on this
machine.  Rows whose module is missing, or that raises, are reported as
such (a row that does not hold), not skipped silently, and the others are
still measured.
"""
from __future__ import annotations

import importlib
import json
import os
import platform
import sys
import time
import traceback
import warnings

warnings.filterwarnings("ignore", "Image.Image.getdata is deprecated", DeprecationWarning)

HERE = os.path.dirname(__file__)


def rows():
    from bench import foundation
    k = foundation.key_to_frame()
    yield "key → frame, median", f"{k['median_ms']:.2f} ms", "≤ 2 ms", k["median_ms"] <= 2
    yield "key → frame, p99", f"{k['p99_ms']:.2f} ms", "≤ 10 ms", k["p99_ms"] <= 10
    f = foundation.frames_per_key()
    yield (f"frames per key that changes the main screen ({f['keys']} keys)", f"{f['changed']:.2f} (most {f['most']})",
           "1.0", f["changed"] == 1)
    yield "frames per key that commits an event", f"{f['committed']:.2f}", "1.0", f["committed"] == 1
    b = foundation.bus_bytes()
    for name, value in b["per_key"].items():
        target = "0 B (unchanged)" if name != "main" else "< 1024 B"
        ok = value == 0 if name != "main" else value < 1024
        yield f"bytes per key press, {name}", f"{value:.0f} B", target, ok
    for name, value in b["per_tick"].items():
        yield f"bytes per timer tick, {name}", f"{value:.0f} B ({value / 1024:.0%})", "≤ 25 % of 1024 B", value <= 256
    c = foundation.cold_start()
    yield "cold start to ready (box)", f"{c['ready_s']:.2f} s", "≤ 1 s", c["ready_s"] <= 1
    yield "cold start to web page (its own process)", f"{c['web_s']:.2f} s", "reported", True
    yield ("peak RSS after 2000 keys (virtual table)", f"{c['rss_after_2000_keys_mb']:.1f} MB",
           "≤ 60 MB", c["rss_after_2000_keys_mb"] <= 60)
    for name in ("keys_bench", "finger_bench", "dice_bench", "octiles_bench", "crowd_bench", "web_bench",
                 "timer_bench", "club_bench", "naming_bench", "start_bench", "players_bench", "wifi_bench",
                 "replay_bench", "table_bench", "live_bench", "league_bench", "web_floods_bench",
                 "card_bench"):
        try:
            module = importlib.import_module(f"bench.{name}")
        except ModuleNotFoundError as exc:
            yield name, f"missing ({exc.name})", "", False
            continue
        try:
            yield from module.rows()
        except Exception as exc:   # noqa: BLE001  one bench that breaks is a row that fails, not the end of the table
            traceback.print_exc()
            yield name, f"failed ({type(exc).__name__})", "runs", False


def main() -> int:
    results = []
    print(f"{'measure':<64} {'result':>20}  {'target':<18} holds")
    for measure, result, target, ok in rows():
        results.append({"measure": measure, "result": result, "target": target, "holds": bool(ok)})
        print(f"{measure:<64} {result:>20}  {target:<18} {'yes' if ok else 'NO'}", flush=True)
    meta = {"when": time.strftime("%Y-%m-%d %H:%M:%S"), "python": sys.version.split()[0],
            "machine": platform.machine(), "cpus": os.cpu_count()}
    with open(os.path.join(HERE, "results.json"), "w") as f:
        json.dump({"meta": meta, "results": results}, f, indent=2, ensure_ascii=False)
    print("written: bench/results.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
