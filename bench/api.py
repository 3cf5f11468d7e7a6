"""Benchmark the query service over real HTTP with wrk (32 connections, ~10 s per scenario).

Scenarios, all against ``python -m server serve --workers 2`` on loopback:

  (a) one games list URL repeated: 100 records, team + season filter (result cache warm);
  (b) the same query with a distinct page/date per request (a wrk Lua script), served with the
      result cache disabled (SPORTS_CACHE_TTL=0) so every request reaches the store;
  (c) one game's detail record;
  (n) the page of (a) under /natstat/ (the NatStat dialect: the same result, shaped and encoded
      otherwise); (a0) and (n0) the same two URLs on the server without caches, where every
      request parses, queries, shapes and encodes; (n4) and (n3) the page of (n) in the NatStat
      v4 and v3 forms (docs/api/natstat.md: the key's quota in every body, so never replayed).
  bare: a bare Starlette route returning a fixed body the size of (a), same run, same workers.

Every server runs as the bare one does, without an access log; (a) is measured once more with
the access log on, to show what a line per request costs. Each scenario runs ``--rounds`` times
(default 3), the rounds interleaved so that a burst of load on this noisy machine lands on all of
them, every other round in the reverse order so that none always runs first; the median of each
figure is reported, with the range of p99. Against itself (``--against HEAD``, idle machine) it
reads 0.94-1.01x: a ratio within about 6% of 1 is no change.
Targets on the 2-core machine: (a) >= 0.5x bare, (b) >= 1500 req/s, p99 < 25 ms; the dialect
page within 1.3x of the root page ((a)/(n) and (a0)/(n0) <= 1.3).

``--against REV`` also serves (a), (b), (c) and (a0) from the code of an earlier commit (its own
files from ``git archive``, its own store built by its own ``build_store``, the same interpreter),
interleaved with the rest, and prints each figure of this code against that one: a change that
should cost nothing (the request path's reshaping) is held to within 10% in the same run. The two
codes' (a) bodies may differ in size (fields added since), so the cached page is also set against
a bare server sending that code's very bytes, and the servers' own CPU a request (from /proc,
what other work on a shared machine moves least) is printed for (a) and both bare servers.

``--postgres`` serves the same store from PostgreSQL instead (copied into a scratch database on
the server ``BENCH_POSTGRES_ADMIN_URL`` names, default 127.0.0.1:5432, created and dropped here),
without caches, so that every request reaches the store: (b), (a0), and (c0) the game detail of
(c) (six statements). With ``--against REV`` the earlier code serves its own scratch copy, and
each figure is printed against it.
``--postgres --store URL`` serves that PostgreSQL store instead (a copy of the real-data store:
``copy-store``; a key is issued into it, nothing else written), both codes on the same database,
without caches: (p) the plain pitch list (every pitch of MLB, the first page), (y) a season's
play-by-play (MLB 2023), (pd) a distinct day's pitches every request (MLB 2022-2023), (g) the
plain games list, which neither code changed.
Usage: .venv/bin/python bench/api.py [--duration 10] [--connections 32] [--against REV]
       .venv/bin/python bench/api.py --postgres [--against REV] [--store URL]
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TEAMS, SEASONS, GAMES_PER_TEAM = 30, (2022, 2023, 2024), 162
BODY_ENV = "BENCH_BODY_FILE"
# Every scenario is one key on 32 connections: its caps of requests in flight (4 per worker,
# and of those 1 built in a store thread: bench/hostile.py and bench/heavy_pages.py measure
# them) are lifted so that the request path is what is measured.
ONE_CLIENT = {"SPORTS_KEY_IN_FLIGHT": "0", "SPORTS_KEY_HEAVY": "0"}
PG_ADMIN = os.environ.get("BENCH_POSTGRES_ADMIN_URL",
                          "postgresql+psycopg://postgres@127.0.0.1:5432/postgres")


def build_store(path: Path) -> dict[str, int]:
    """A full-size MLB store (30 teams, 3 seasons of 2430 games, plays for one game), with the
    planner statistics every bulk write through the command line leaves behind."""
    from server.store import schema as s
    from server.store.engine import analyze, make_engine
    from server.store.init import init_store
    from server.store.loader import loading

    engine = make_engine(f"sqlite:///{path}")
    init_store(engine)
    rnd = random.Random(1)
    with loading(engine, "simulated") as ld:
        teams = ld.ids("team", [f"T{n}" for n in range(TEAMS)])
        venues = ld.ids("venue", [f"V{n}" for n in range(TEAMS)])
        ld.put(s.venues, [{"id": v, "name": f"Park {n}", "city_state": "City, ST",
                           "nation": "US", "latitude": 40.0, "longitude": -74.0,
                           "capacity": 40000} for n, v in enumerate(venues)])
        ld.put(s.teams, [{"id": t, "level": "MLB", "name": f"Team Number {n}",
                          "abbrev": f"T{n}", "city": "City", "nickname": "Nums",
                          "sublevel_id": None, "venue_id": venues[n], "nation": "US",
                          "source": "simulated"} for n, t in enumerate(teams)])
        games: list[dict[str, Any]] = []
        for season in SEASONS:
            ld.put(s.seasons, [{"level": "MLB", "season": season, "name": str(season),
                                "start": dt.date(season, 3, 28), "end": dt.date(season, 9, 29),
                                "source": "simulated", "playoffs": None}])
            keys = [f"{season}-{n}" for n in range(TEAMS * GAMES_PER_TEAM // 2)]
            for n, gid in enumerate(ld.ids("game", keys)):
                day = dt.date(season, 3, 28) + dt.timedelta(days=n // 15)
                home, vis = teams[(n * 7) % TEAMS], teams[(n * 7 + 1 + n // 15) % TEAMS]
                if home == vis:
                    vis = teams[(n * 7 + 2) % TEAMS]
                sv, sh = rnd.randint(0, 9), rnd.randint(0, 9)
                sh += sh == sv
                games.append({
                    "id": gid, "level": "MLB", "season": season, "sublevel_id": None,
                    "game_day": day, "game_no": 1, "start_time": None, "visitor_id": vis,
                    "home_id": home, "score_vis": sv, "score_home": sh, "state": "final",
                    "game_status": "Final", "overtime": None, "periods": 9,
                    "winner_id": home if sh > sv else vis, "loser_id": vis if sh > sv else home,
                    "venue_id": venues[teams.index(home)], "neutral": False, "playoff": None,
                    "attendance": 30000, "duration": 180, "line_score": None, "info": None,
                    "source": "simulated"})
        ld.put(s.games, games)
        detail = games[-1]["id"]
        ld.replace_children(s.plays, "game_id", [detail], [
            {"id": detail * 1000 + q, "level": "MLB", "game_id": detail, "seq": q,
             "period": (q + 1) // 2, "half": "top" if q % 2 else "bottom", "clock": None,
             "team_id": games[-1]["visitor_id"], "opponent_id": games[-1]["home_id"],
             "player_id": None, "pitcher_id": None, "event": "out",
             "explanation": "grounded out", "scoring": False, "points": 0, "tags": None,
             "the_count": "1-1", "pitcher_hand": "R", "batter_hand": "L", "sequence": "BX",
             "score_vis": 0, "score_home": 0} for q in range(1, 60)])
    analyze(engine)
    engine.dispose()
    return {"team": teams[0], "detail": detail}


def bare_app() -> object:
    """uvicorn factory: a bare Starlette route with a fixed body (the (a) response's size)."""
    from starlette.applications import Starlette
    from starlette.responses import Response
    from starlette.routing import Route

    body = Path(os.environ[BODY_ENV]).read_bytes()

    async def fixed(request: object) -> Response:
        return Response(body, media_type="application/json")

    return Starlette(routes=[Route("/bare", fixed)])


def _start(args: list[str], env: dict[str, str], probe: str,
           cwd: Path = ROOT) -> subprocess.Popen[bytes]:
    process = subprocess.Popen(args, cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    for _ in range(300):
        try:
            httpx.get(probe, timeout=1)
            return process
        except httpx.TransportError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit(f"server did not start: {' '.join(args)}")


def _bare(path: Path, body: bytes, port: int, env: dict[str, str]) -> subprocess.Popen[bytes]:
    """A bare Starlette server (``bare_app``, 2 workers) sending ``body``."""
    path.write_bytes(body)
    return _start([sys.executable, "-m", "uvicorn", "api:bare_app", "--factory", "--app-dir",
                   str(ROOT / "bench"), "--workers", "2", "--host", "127.0.0.1", "--port",
                   str(port), "--no-access-log", "--log-level", "warning"],
                  {**env, BODY_ENV: str(path)}, f"http://127.0.0.1:{port}/bare")


def _wrk(url: str, seconds: int, connections: int, script: Path | None = None) -> dict[str, float]:
    cmd = ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency"]
    if script is not None:
        cmd += ["-s", str(script)]
    out = subprocess.run(cmd + [url], capture_output=True, text=True, check=True).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out)[1])  # type: ignore[index]
    requests = float(re.search(r"(\d+) requests in", out)[1])  # type: ignore[index]

    def pct(p: str) -> float:
        m = re.search(rf"\s{p}%\s+([\d.]+)(us|ms|s)", out)
        assert m, out
        return float(m[1]) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[m[2]]

    non2xx = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    return {"rps": rps, "p50": pct("50"), "p99": pct("99"), "requests": requests,
            "errors": float(non2xx[1]) if non2xx else 0.0}


def _cpu_seconds(process: subprocess.Popen[bytes]) -> float:
    """CPU seconds (user and system) a server and its worker processes have used so far: the
    request path's own cost, which other work on a shared machine barely moves, unlike
    requests/s."""
    ticks = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(entry) == process.pid or int(fields[1]) == process.pid:
            ticks += int(fields[11]) + int(fields[12])  # utime, stime
    return ticks / os.sysconf("SC_CLK_TCK")


def _interleaved(scenarios: dict[str, tuple[str, Path | None]], rounds: int,
                 run: tuple[int, int], owners: dict[str, subprocess.Popen[bytes]] | None = None
                 ) -> dict[str, list[dict[str, float]]]:
    """Each scenario's figures in ``rounds`` rounds of (seconds, connections) ``run``,
    interleaved, so a burst of load lands on every scenario alike; for a scenario whose server
    ``owners`` names, also the server's CPU microseconds a request (``cpu_us``)."""
    runs: dict[str, list[dict[str, float]]] = {name: [] for name in scenarios}
    owners = owners or {}
    for n in range(rounds):  # every other round backwards: no scenario always runs first
        for name, (target, lua) in (reversed(scenarios.items()) if n % 2 else scenarios.items()):
            owner = owners.get(name)
            before = _cpu_seconds(owner) if owner else 0.0
            figures = _wrk(target, *run, script=lua)
            if owner:
                figures["cpu_us"] = (_cpu_seconds(owner) - before) * 1e6 / figures["requests"]
            runs[name].append(figures)
    return runs


def _stop(servers: list[subprocess.Popen[bytes]], work: Path) -> None:
    """End the servers a run started and remove its stores."""
    for process in servers:
        process.terminate()
        process.wait(10)
    shutil.rmtree(work, ignore_errors=True)


def _median(runs: list[dict[str, float]]) -> dict[str, float]:
    """Each figure's median over the rounds; errors are summed, never averaged away."""
    out = {k: statistics.median(run[k] for run in runs) for k in runs[0]}
    out["errors"] = sum(run["errors"] for run in runs)
    return out


def _lua(path: str, first_team: int) -> str:
    """A wrk script: every request a different team/season/page/size or date (no two alike
    within a cycle of several thousand)."""
    return f"""
counter = 0
request = function()
  counter = counter + 1
  local season = 2022 + (counter % 3)
  if counter % 2 == 0 then
    local month = 4 + (counter % 6)
    local day = 1 + (counter % 28)
    return wrk.format(nil, string.format("{path}&date=%d-%02d-%02d", season, month, day))
  end
  local team = {first_team} + (counter % 30)
  local page = 1 + (counter % 2)
  local size = 60 + (counter % 41)
  return wrk.format(nil, string.format("{path}&team=%d&season=%d&max=%d&page=%d",
                                       team, season, size, page))
end
"""


def earlier_code(rev: str, work: Path, postgres: str | None = None
                 ) -> tuple[Path, str, dict[str, int], str]:
    """The files of commit ``rev`` in ``work``, with a bench store built and a key issued by that
    code (and copied into ``postgres`` by it, when given): (folder, store URL, ids, key)."""
    folder = work / "earlier"
    folder.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev], capture_output=True,
                             check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    store = work / "earlier.db"
    url = postgres or f"sqlite:///{store}"
    copy = (f"copy_store(make_engine('sqlite:///{store}'), make_engine({url!r}), False)\n"
            if postgres else "")
    made = subprocess.run([sys.executable, "-c", (
        "import json, sys\n"
        "from bench.api import build_store\n"
        "from server.keys import issue\n"
        "from server.store.copy import copy_store\n"
        "from server.store.engine import make_engine\n"
        f"ids = build_store(__import__('pathlib').Path({str(store)!r}))\n"
        f"{copy}"
        f"key = issue(make_engine({url!r}), None, 100_000_000, 'bench')\n"
        "print(json.dumps({'ids': ids, 'key': key}))\n")],
        cwd=folder, capture_output=True, text=True, check=True).stdout
    found = json.loads(made.strip().splitlines()[-1])
    return folder, url, found["ids"], found["key"]


@contextmanager
def scratch_database(label: str) -> Iterator[str]:
    """An empty PostgreSQL database of this run, dropped at the end: its URL."""
    import sqlalchemy as sa

    admin = sa.create_engine(PG_ADMIN, isolation_level="AUTOCOMMIT")
    name = f"bench_api_{label}_{uuid.uuid4().hex[:8]}"
    with admin.connect() as conn:
        conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
    try:
        yield PG_ADMIN.rsplit("/", 1)[0] + "/" + name
    finally:
        with admin.connect() as conn:
            conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def _days_lua(path: str) -> str:
    """A wrk script: a distinct day of the 2022 and 2023 seasons every request."""
    return f"""
counter = 0
request = function()
  counter = counter + 1
  local season = 2022 + (counter % 2)
  local month = 4 + (counter % 6)
  local day = 1 + (math.floor(counter / 2) % 28)
  return wrk.format(nil, string.format("{path}&date=%d-%02d-%02d", season, month, day))
end
"""


def postgres_store_run(opts: argparse.Namespace) -> int:
    """(p), (y), (pd), (g) from the PostgreSQL store ``--store``, no caches (and from REV's
    code, on the same store)."""
    from server.keys import issue
    from server.store.engine import make_engine

    work = Path(tempfile.mkdtemp(prefix="bench-api-pgstore-"))
    servers: list[subprocess.Popen[bytes]] = []
    url = opts.store
    key = issue(make_engine(url), None, 100_000_000, "bench")
    folders = {"this": ROOT}
    if opts.against:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", opts.against],
                                 capture_output=True, check=True).stdout
        (work / "earlier").mkdir()
        subprocess.run(["tar", "-x", "-C", str(work / "earlier")], input=archive, check=True)
        folders["that"] = work / "earlier"
    serve = [sys.executable, "-m", "server", "serve", "--host", "127.0.0.1", "--workers", "2",
             "--no-access-log", "--no-scheduler", "--port"]
    labels = {"p": "(p) every MLB pitch, page 1", "y": "(y) MLB 2023 play-by-play",
              "pd": "(pd) a distinct day's pitches", "g": "(g) every MLB game, page 1"}
    try:
        scenarios: dict[str, tuple[str, Path | None]] = {}
        for code, folder in folders.items():
            base = _serve_uncached(serve, url, folder, servers)
            script = work / f"days-{code}.lua"
            script.write_text(_days_lua(f"/v1/pitch/MLB/?key={key}"))
            pages = {"p": f"{base}/v1/pitch/MLB/?key={key}",
                     "y": f"{base}/v1/playbyplay/MLB/?key={key}&season=2023",
                     "g": f"{base}/v1/games/MLB/?key={key}"}
            for name, page in pages.items():
                answer = httpx.get(page, timeout=30)
                assert answer.status_code == 200, answer.text[:300]
                scenarios[f"{name}{code}"] = (page, None)
            scenarios[f"pd{code}"] = (f"{base}/", script)
        ordered = {f"{name}{code}": scenarios[f"{name}{code}"]
                   for name in labels for code in folders}
        rounds = _interleaved(ordered, opts.rounds, (opts.duration, opts.connections))
        results = {name: _median(runs) for name, runs in rounds.items()}
    finally:
        _stop(servers, work)
    _print_paired(opts, "PostgreSQL store, no caches", list(folders), labels, results, rounds)
    return 0


def _serve_uncached(serve: list[str], store: str, folder: Path,
                    servers: list[subprocess.Popen[bytes]]) -> str:
    """A server of ``folder``'s code on ``store`` without caches, one client's limits off
    (``ONE_CLIENT``), added to ``servers``; its base address."""
    from tests.conftest import free_port

    env = {**os.environ, "DATABASE_URL": store, "SPORTS_CACHE_TTL": "0", **ONE_CLIENT}
    env.pop("REDIS_URL", None)
    port = free_port()
    servers.append(_start(serve + [str(port)], env, f"http://127.0.0.1:{port}/health", cwd=folder))
    return f"http://127.0.0.1:{port}"


def _print_paired(opts: argparse.Namespace, title: str, codes: list[str], labels: dict[str, str],
                  results: dict[str, dict[str, float]], rounds: dict[str, list[dict[str, float]]],
                  machine_ms: bool = False) -> None:
    """Under ``title``, each code's figures of each scenario (``machine_ms``: the machine's time
    a request, cores x 1000 / req/s), then this code's against the earlier one's."""
    print(f"{title}; {opts.connections} connections, {opts.duration} s each; median of "
          f"{opts.rounds} interleaved rounds (p99 range in brackets)")
    cores = os.cpu_count() or 1
    width = max(len(label) for label in labels.values()) + 2
    for code in codes:
        for scenario, label in labels.items():
            name = f"{scenario}{code}"
            r = results[name]
            p99s = sorted(run["p99"] for run in rounds[name])
            machine = f" ({cores * 1000 / r['rps']:.2f} machine ms/request)" if machine_ms else ""
            print(f"{code:4s} {label:{width}s} {r['rps']:8.0f} req/s{machine}  p50 {r['p50']:7.2f} ms  "
                  f"p99 {r['p99']:7.2f} ms [{p99s[0]:.1f}-{p99s[-1]:.1f}]  "
                  f"non-2xx {int(r['errors'])}")
    if opts.against:
        print(f"this code / {opts.against}'s:")
        for scenario, label in labels.items():
            new, old = results[f"{scenario}this"], results[f"{scenario}that"]
            print(f"  {label:{width}s} req/s {new['rps'] / old['rps']:.2f}x   "
                  f"p50 {new['p50'] / old['p50']:.2f}x   p99 {new['p99'] / old['p99']:.2f}x")


def postgres_run(opts: argparse.Namespace) -> int:
    """(b), (a0) and (c0) served from PostgreSQL without caches (and from REV's code)."""
    from server.keys import issue
    from server.store.copy import copy_store
    from server.store.engine import make_engine

    work = Path(tempfile.mkdtemp(prefix="bench-api-pg-"))
    servers: list[subprocess.Popen[bytes]] = []
    codes: dict[str, tuple[Path, str, dict[str, int], str]] = {}
    serve = [sys.executable, "-m", "server", "serve", "--host", "127.0.0.1", "--workers", "2",
             "--no-access-log", "--no-scheduler", "--port"]
    try:
        with scratch_database("this") as url, scratch_database("that") as old_url:
            print("building the bench store and copying it into PostgreSQL ...", file=sys.stderr)
            ids = build_store(work / "bench.db")
            copy_store(make_engine(f"sqlite:///{work / 'bench.db'}"), make_engine(url), False)
            codes["this"] = (ROOT, url, ids, issue(make_engine(url), None, 100_000_000, "bench"))
            if opts.against:
                print(f"building {opts.against}'s code and store ...", file=sys.stderr)
                codes["that"] = earlier_code(opts.against, work, old_url)
            scenarios: dict[str, tuple[str, Path | None]] = {}
            for code, (folder, store, found, key) in codes.items():
                base = _serve_uncached(serve, store, folder, servers)
                script = work / f"distinct-{code}.lua"
                script.write_text(_lua(f"/v1/games/MLB/?key={key}", found["team"]))
                page = f"{base}/v1/games/MLB/?key={key}&team={found['team']}&season=2024&max=100"
                assert len(httpx.get(page).json()["games"]) == 100
                scenarios.update({
                    f"b{code}": (f"{base}/", script),
                    f"a0{code}": (page, None),
                    f"c0{code}": (f"{base}/v1/games/MLB/?key={key}&id={found['detail']}", None),
                })
            rounds = _interleaved(scenarios, opts.rounds, (opts.duration, opts.connections))
            results = {name: _median(runs) for name, runs in rounds.items()}
    finally:
        _stop(servers, work)
    labels = {"b": "(b) distinct page/date", "a0": "(a0) the page of (a)",
              "c0": "(c0) the game detail of (c)"}
    _print_paired(opts, "PostgreSQL, no caches", list(codes), labels, results, rounds,
                  machine_ms=True)
    return 0


def _print_only(opts: argparse.Namespace, results: dict[str, dict[str, float]],
                rounds: dict[str, list[dict[str, float]]]) -> int:
    """The figures of an ``--only`` run, each against the earlier code's when there is one."""
    print(f"{opts.connections} connections, {opts.duration} s each; median of {opts.rounds} "
          "interleaved rounds (p99 range in brackets)")
    for name, r in results.items():
        p99s = sorted(run["p99"] for run in rounds[name])
        print(f"({name:6s}) {r['rps']:9.0f} req/s  p50 {r['p50']:6.2f} ms  p99 {r['p99']:6.2f} ms"
              f" [{p99s[0]:.1f}-{p99s[-1]:.1f}]  non-2xx {int(r['errors'])}  server CPU "
              f"{r.get('cpu_us', 0):.0f} µs/request")
    for name, new in results.items():
        old = results.get(f"{name}@")
        if old is not None:
            print(f"  ({name}) this / {opts.against}: req/s {new['rps'] / old['rps']:.2f}x  "
                  f"p99 {new['p99']:.2f} / {old['p99']:.2f} ms = {new['p99'] / old['p99']:.2f}x  "
                  f"CPU {new.get('cpu_us', 0) / max(old.get('cpu_us', 0), 1e-9):.2f}x")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=int, default=10)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--against", metavar="REV",
                        help="also serve (a), (b), (c), (a0) from this commit's code")
    parser.add_argument("--postgres", action="store_true",
                        help="serve (b), (a0), (c0) from PostgreSQL, without caches")
    parser.add_argument("--store", metavar="URL",
                        help="with --postgres: serve this PostgreSQL store's plain pitch and "
                             "play-by-play lists instead of a copy of the bench store")
    parser.add_argument("--only", metavar="NAMES",
                        help="run only these scenarios, comma-separated (e.g. a0,b,c: with "
                             "--against, each beside the earlier code's; a quicker paired run)")
    opts = parser.parse_args()
    if shutil.which("wrk") is None:
        print("wrk is not installed (apt-get install wrk)", file=sys.stderr)
        return 1
    if opts.postgres and opts.store:
        return postgres_store_run(opts)
    if opts.postgres:
        return postgres_run(opts)
    from server.keys import issue
    from server.store.engine import make_engine
    from tests.conftest import free_port

    work = Path(tempfile.mkdtemp(prefix="bench-api-"))
    store = work / "bench.db"
    print("building the bench store ...", file=sys.stderr)
    ids = build_store(store)
    url = f"sqlite:///{store}"
    key = issue(make_engine(url), None, 100_000_000, "bench")
    env = {**os.environ, "DATABASE_URL": url, **ONE_CLIENT}
    env.pop("REDIS_URL", None)
    servers: list[subprocess.Popen[bytes]] = []
    try:
        port, cold_port, bare_port, logged_port = (free_port(), free_port(), free_port(),
                                                   free_port())
        serve = [sys.executable, "-m", "server", "serve", "--host", "127.0.0.1", "--workers", "2",
                 "--no-access-log", "--no-scheduler", "--port"]
        servers.append(_start(serve + [str(port)], env, f"http://127.0.0.1:{port}/health"))
        cached_server = servers[-1]
        base = f"http://127.0.0.1:{port}"
        list_url = f"{base}/v1/games/MLB/?key={key}&team={ids['team']}&season=2024&max=100"
        body = httpx.get(list_url).content
        assert len(httpx.get(list_url).json()["games"]) == 100
        dialect_url = list_url.replace(f":{port}/", f":{port}/natstat/")
        assert len(httpx.get(dialect_url).json()["games"]) == 100
        v4_url = dialect_url.replace("/natstat/v1/", "/natstat/v4/")
        v3_url = f"{base}/natstat/{key}/games/MLB/2024/0?team={ids['team']}&max=100"
        assert httpx.get(v4_url).json()["games"] == httpx.get(v3_url).json()["games"]
        servers.append(_bare(work / "body.json", body, bare_port, env))
        owners = {"bare": servers[-1], "a": cached_server}
        servers.append(_start(serve + [str(cold_port)], {**env, "SPORTS_CACHE_TTL": "0"},
                              f"http://127.0.0.1:{cold_port}/health"))
        owners.update({"b": servers[-1], "a0": servers[-1], "c": cached_server})
        logged = [a for a in serve if a != "--no-access-log"] + [str(logged_port)]
        servers.append(_start(logged, env, f"http://127.0.0.1:{logged_port}/health"))
        script = work / "distinct.lua"
        cold = f"/v1/games/MLB/?key={key}"
        script.write_text(_lua(cold, ids["team"]))
        run = (opts.duration, opts.connections)
        scenarios: dict[str, tuple[str, Path | None]] = {
            "bare": (f"http://127.0.0.1:{bare_port}/bare", None),
            "a": (list_url, None),
            "b": (f"http://127.0.0.1:{cold_port}/", script),
            "c": (f"{base}/v1/games/MLB/?key={key}&id={ids['detail']}", None),
            "logged": (list_url.replace(f":{port}/", f":{logged_port}/"), None),
            "n": (dialect_url, None),
            "n4": (v4_url, None),
            "n3": (v3_url, None),
            "a0": (list_url.replace(f":{port}/", f":{cold_port}/"), None),
            "n0": (dialect_url.replace(f":{port}/", f":{cold_port}/"), None),
        }
        if opts.against:
            print(f"building {opts.against}'s code and store ...", file=sys.stderr)
            folder, old_url, old_ids, old_key = earlier_code(opts.against, work)
            old_env = {**env, "DATABASE_URL": old_url}
            old_port, old_cold = free_port(), free_port()
            servers.append(_start(serve + [str(old_port)], old_env,
                                  f"http://127.0.0.1:{old_port}/health", cwd=folder))
            owners["a@"] = servers[-1]
            servers.append(_start(serve + [str(old_cold)], {**old_env, "SPORTS_CACHE_TTL": "0"},
                                  f"http://127.0.0.1:{old_cold}/health", cwd=folder))
            owners.update({"b@": servers[-1], "a0@": servers[-1], "c@": owners["a@"]})
            old_base = f"http://127.0.0.1:{old_port}"
            old_list = (f"{old_base}/v1/games/MLB/?key={old_key}&team={old_ids['team']}"
                        f"&season=2024&max=100")
            old_body = httpx.get(old_list).content
            old_bare = free_port()  # a bare server sending that code's body, byte for byte
            servers.append(_bare(work / "body-earlier.json", old_body, old_bare, env))
            owners["bare@"] = servers[-1]
            old_script = work / "distinct-earlier.lua"
            old_script.write_text(_lua(f"/v1/games/MLB/?key={old_key}", old_ids["team"]))
            scenarios.update({
                "bare@": (f"http://127.0.0.1:{old_bare}/bare", None),
                "a@": (old_list, None),
                "b@": (f"http://127.0.0.1:{old_cold}/", old_script),
                "c@": (f"{old_base}/v1/games/MLB/?key={old_key}&id={old_ids['detail']}", None),
                "a0@": (old_list.replace(f":{old_port}/", f":{old_cold}/"), None),
            })
        if opts.only:
            wanted = set(opts.only.split(","))
            scenarios = {name: target for name, target in scenarios.items()
                         if name.rstrip("@") in wanted}
        rounds = _interleaved(scenarios, opts.rounds, run, owners)
        results = {name: _median(runs) for name, runs in rounds.items()}
    finally:
        _stop(servers, work)
    if opts.only:
        return _print_only(opts, results, rounds)
    print(f"response size (a): {len(body)} bytes; {opts.connections} connections, "
          f"{opts.duration} s each")
    print(f"median of {opts.rounds} interleaved rounds (p99 range in brackets)")
    for name, label in (("bare", "bare Starlette, fixed body"),
                        ("a", "(a) games list, same URL"),
                        ("b", "(b) distinct page/date, no result cache"),
                        ("c", "(c) game detail"),
                        ("logged", "(a) with the access log on"),
                        ("n", "(n) the page of (a) under /natstat/"),
                        ("n4", "(n4) the page of (n) in v4's form"),
                        ("n3", "(n3) the page of (n) in v3's form"),
                        ("a0", "(a0) the page of (a), no caches"),
                        ("n0", "(n0) the page of (n), no caches")):
        r = results[name]
        p99s = sorted(run["p99"] for run in rounds[name])
        cpu = f"  server CPU {r['cpu_us']:.1f} µs/request" if "cpu_us" in r else ""
        print(f"{label:42s} {r['rps']:9.0f} req/s  p50 {r['p50']:6.2f} ms  p99 {r['p99']:6.2f} ms"
              f" [{p99s[0]:.1f}-{p99s[-1]:.1f}]  non-2xx {int(r['errors'])}{cpu}")
    ratio = results["a"]["rps"] / results["bare"]["rps"]
    print(f"(a)/bare = {ratio:.2f} (target >= 0.5); (b) = {results['b']['rps']:.0f} req/s "
          f"(target >= 1500), p99 {results['b']['p99']:.1f} ms (target < 25)")
    print(f"dialect: (a)/(n) = {results['a']['rps'] / results['n']['rps']:.2f}, "
          f"(a0)/(n0) = {results['a0']['rps'] / results['n0']['rps']:.2f}, "
          f"(a)/(n4) = {results['a']['rps'] / results['n4']['rps']:.2f}, "
          f"(a)/(n3) = {results['a']['rps'] / results['n3']['rps']:.2f} (target <= 1.3)")
    if opts.against:
        print(f"against {opts.against} (its (a) body {len(old_body)} bytes), this code / that "
              f"code, target within 10%:")
        for name in ("a", "b", "c", "a0"):
            new, old = results[name], results[f"{name}@"]
            print(f"  ({name}) req/s {new['rps']:9.0f} / {old['rps']:9.0f} = "
                  f"{new['rps'] / old['rps']:.2f}x   p99 {new['p99']:6.2f} / {old['p99']:6.2f} ms"
                  f" = {new['p99'] / old['p99']:.2f}x   non-2xx {int(old['errors'])}")
        # The bodies differ in size (this code's carries more), and sending more bytes costs
        # both ends more (wrk reads 8 KB at a time): the cached page against a bare server
        # sending the same bytes, and the servers' own CPU a request, hold the body fixed.
        this, that = results["a"], results["a@"]
        this_bare, that_bare = this["rps"] / results["bare"]["rps"], that["rps"] / results["bare@"]["rps"]
        print(f"  (a) against a bare server sending the same bytes: {this_bare:.2f}x bare / "
              f"{that_bare:.2f}x bare = {this_bare / that_bare:.2f}x; server CPU a request "
              f"{this['cpu_us']:.1f} / {that['cpu_us']:.1f} µs = "
              f"{this['cpu_us'] / that['cpu_us']:.2f}x (bare {results['bare']['cpu_us']:.1f} / "
              f"{results['bare@']['cpu_us']:.1f} µs)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
