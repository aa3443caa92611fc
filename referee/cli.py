"""``referee``: the box's command line."""
from __future__ import annotations

import argparse
import logging
import os
import sys

from referee import catalogue, config as configuration
from referee import logs


def _version() -> str:
    # Looked up only for --version: importlib.metadata brings email, zipfile
    # and csv with it, 2.5 MB that no process of the box needs to run.
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("tabletop-referee")
    except PackageNotFoundError:
        return "unknown"


class _Version(argparse.Action):
    def __init__(self, option_strings, dest, **kwargs) -> None:
        super().__init__(option_strings, dest, nargs=0, help="show the version and exit")

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        sys.stdout.write(f"{parser.prog} {_version()}\n")
        parser.exit()


def _games() -> str:
    """The games of the menu, in English as the catalogue names them."""
    *first, last = [game.title for game in catalogue.on_menu()]
    return f"{', '.join(first)} and {last}"


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="referee",
        description=f"Tabletop Referee: a game-night box that referees {_games()}.")
    p.add_argument("--version", action=_Version)
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    sim = sub.add_parser("sim", help="the box in this terminal, on simulated devices")
    sim.add_argument("--config", metavar="FILE", help="a configuration file (default: all devices simulated)")
    sim.add_argument("--database", metavar="FILE", help="where the score log is kept (default: sim.db in the data folder)")
    run = sub.add_parser("run", help="the box: keys, rules, screens and score log, with the devices of the configuration")
    run.add_argument("--config", metavar="FILE", default=None,
                     help=f"the configuration file (default: {configuration.DEFAULT_PATH} if it exists, else all simulated)")
    web = sub.add_parser("web", help="the score log for phones, served from the box's database beside `referee run`")
    web.add_argument("--config", metavar="FILE", default=None,
                     help=f"the configuration file (default: {configuration.DEFAULT_PATH} if it exists, else all simulated)")
    web.add_argument("--database", metavar="FILE", help="the box's database, if not the configuration's")
    check = sub.add_parser("check-config", help="check a configuration file and say what is wrong")
    check.add_argument("file")
    doctor = sub.add_parser("doctor", help="check the board, the wiring and every device, one line each")
    doctor.add_argument("--config", metavar="FILE", default=None,
                        help=f"the configuration file (default: {configuration.DEFAULT_PATH} if it exists, else all simulated)")
    doctor.add_argument("--boot-config", action="store_true",
                        help="only print the lines /boot/firmware/config.txt needs for this configuration")
    club = sub.add_parser("club", help="publish this box's score log to the club's MQTT broker ([club] in the configuration)")
    club.add_argument("--config", metavar="FILE", default=None,
                      help=f"the configuration file (default: {configuration.DEFAULT_PATH} if it exists)")
    league = sub.add_parser("league", help="the club's league: follow every box on the broker and serve its page")
    league.add_argument("--config", metavar="FILE", default=None,
                        help="a configuration file whose [club] names the broker (or use --broker) and whose [ladder] sets the ladders")
    league.add_argument("--broker", metavar="URL", help="the broker, mqtt://host[:port] or mqtts://host[:port]")
    league.add_argument("--club", metavar="NAME", help="the club's name on the broker (default: club)")
    league.add_argument("--database", metavar="FILE", default="league.db",
                        help="where the league keeps what it heard (default: league.db here)")
    league.add_argument("--listen", metavar="HOST:PORT", default="0.0.0.0:8090",
                        help="where the page is served (default: 0.0.0.0:8090)")
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.command is None:
        parser().print_help()
        return 0
    if args.command == "run":
        _without_openssl()
    import asyncio
    try:
        if args.command == "check-config":
            configuration.load(args.file)
            print(f"{args.file}: fine")
            return 0
        path = args.config
        if args.command in ("run", "web", "doctor", "club") and path is None and os.path.exists(configuration.DEFAULT_PATH):
            path = configuration.DEFAULT_PATH
        # The box and its page start with what they can read, and say the
        # rest on the screens (a refusal at start left the box dark).
        refused = None
        if args.command in ("run", "web"):
            config, refused = configuration.load_kept(path)
        else:
            config = configuration.load(path)
        if args.command == "league":
            config = _league_config(config, args)
        if args.command == "web" and args.database:
            from msgspec.structs import replace
            config = replace(config, database=args.database)
        if args.command == "club" and not (config.club.broker and config.club.table):
            missing = "broker: nothing to publish to" if not config.club.broker else "table: name this box's table"
            raise configuration.ConfigError(f"{path or 'the configuration'}: [club] has no {missing}")
    except configuration.ConfigError as exc:
        for line in str(exc).splitlines():
            print(f"referee: {line}", file=sys.stderr)
        return 2
    if args.command == "doctor":
        return _doctor(config, path, args.boot_config)
    # Each command imports what it runs only when it runs it (lazily): the
    # web never loads the box's drivers, the box never the league's.
    if args.command == "sim":
        from referee.tools.sim import run_sim
        return run_sim(config, args.database, path)
    logs.to_journal_or_terminal()
    if refused is not None:
        for line in str(refused).splitlines():
            logging.getLogger("referee").error("config: %s (left at its default)", line)
    if args.command == "web":
        from referee.web.main import run as run_web
        asyncio.run(run_web(config, refused))
        return 0
    if args.command == "club":
        from referee.club.publisher import serve as publish
        asyncio.run(publish(config))
        return 0
    if args.command == "league":
        from referee.club.league_web import serve as league
        host, _, port = args.listen.rpartition(":")
        asyncio.run(league(config, args.database, host.strip("[]") or "0.0.0.0", int(port)))
        return 0
    from gpiozero.exc import GPIOZeroError

    from referee.box.service import serve
    try:
        asyncio.run(serve(config, refused=refused))
    except GPIOZeroError as exc:
        # Wiring and permissions, not a bug: one line, and what to check.
        logging.getLogger("referee").error(
            "GPIO: %s (check the pins in the configuration, that this user is in the gpio group, "
            "and run `referee doctor`)", exc)
        return 1
    return 0


def _without_openssl() -> None:
    # The box has no network (its unit denies it every address) and never
    # speaks TLS, yet asyncio loads the ssl module whenever it can, and
    # ``secrets`` loads hashlib's OpenSSL half: libssl and libcrypto, 8 MB
    # of the box's 40.  A module marked missing in sys.modules is one
    # Python does not load; asyncio then does without TLS, and hashlib and
    # hmac fall back on their own built-in hashes.  Before either is first
    # imported, so here, at the very start of `referee run`.
    for name in ("ssl", "_hashlib"):
        if name not in sys.modules:
            sys.modules[name] = None   # type: ignore[assignment]  # import refuses a name set to None


def _league_config(config, args):
    """The league's broker and club: flags over the file's [club]."""
    raw = config.tables()
    club = raw["club"]
    club["broker"] = args.broker or club["broker"]
    club["name"] = args.club or club["name"]
    if not club["broker"]:
        raise configuration.ConfigError("league: say which broker: --broker mqtt://host:1883 or [club] broker")
    host, _, port = args.listen.rpartition(":")
    if not port.isdigit() or not 1 <= int(port) <= 65535:
        raise configuration.ConfigError(f"league: --listen {args.listen!r} is not HOST:PORT")
    return configuration.parse(raw, "league")


def _doctor(config, path: str | None, boot_config: bool) -> int:
    from referee.tools import doctor
    if boot_config:
        print("\n".join(doctor.boot_lines(config)))
        return 0
    comitup = doctor.read_root_file(doctor.COMITUP_CONF)   # root's alone: read before giving root up
    checked_as = None
    if path == configuration.DEFAULT_PATH:
        # The installed box: look as its service does (its user, environment and folder).
        if os.geteuid() == 0:
            checked_as = doctor.as_service_user()
        os.environ.setdefault("STATE_DIRECTORY", doctor.SERVICE_STATE)
    return doctor.run(config, doctor.Machine(service_running=doctor.service_running(), comitup_text=comitup,
                                             checked_as=checked_as))


if __name__ == "__main__":
    sys.exit(main())
