"""``referee``: the box's command line."""
from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from importlib.metadata import PackageNotFoundError, version

from referee import config as configuration


def _version() -> str:
    try:
        return version("tabletop-referee")
    except PackageNotFoundError:
        return "unknown"


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="referee",
        description="Tabletop Referee: a game-night box that referees Decrypto, Osmišifry, "
                    "Octiles, Da Vinci Code and Decipher.")
    p.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    sim = sub.add_parser("sim", help="the box in this terminal, on simulated devices")
    sim.add_argument("--config", metavar="FILE", help="a configuration file (default: all devices simulated)")
    sim.add_argument("--database", metavar="FILE", help="where the score log is kept (default: sim.db in the data folder)")
    run = sub.add_parser("run", help="the service, with the devices of the configuration")
    run.add_argument("--config", metavar="FILE", default=None,
                     help=f"the configuration file (default: {configuration.DEFAULT_PATH} if it exists, else all simulated)")
    check = sub.add_parser("check-config", help="check a configuration file and say what is wrong")
    check.add_argument("file")
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.command is None:
        parser().print_help()
        return 0
    try:
        if args.command == "check-config":
            configuration.load(args.file)
            print(f"{args.file}: fine")
            return 0
        path = args.config
        if args.command == "run" and path is None and os.path.exists(configuration.DEFAULT_PATH):
            path = configuration.DEFAULT_PATH
        config = configuration.load(path)
    except configuration.ConfigError as exc:
        print(f"referee: {exc}", file=sys.stderr)
        return 2
    if args.command == "sim":
        from referee.sim import run_sim
        return run_sim(config, args.database)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    from referee.service import serve
    asyncio.run(serve(config))
    return 0


if __name__ == "__main__":
    sys.exit(main())
