"""Every endpoint's plain list on a PostgreSQL store: the statements it runs and, for each, its
planning and execution time (EXPLAIN (ANALYZE, BUFFERS), the median of ``--repeat`` runs).

Each list (the one filter it requires, its first page, as tests/production/test_limits.py asks
them) is answered in this process through the request path (``query.run`` on the reader), its
statements captured as sent, then explained on a session of their own with the join order each
asked for (``server.store.engine.JOINS_AS_WRITTEN``). ``--setting`` runs a SET on both sessions
first (``"SET join_collapse_limit = 1"``: what a session-wide setting would do); ``--dump DIR``
writes each plan's nodes, to compare two runs with diff.
Usage: .venv/bin/python bench/plans.py postgresql://... [--levels MLB,NBA] [--repeat 5]
"""
from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PLAIN = {"MLB": {"stats": "stat=HR", "playbyplay": "season=2023"},
         "NBA": {"stats": "stat=PTS", "playbyplay": "season=2023"},
         "NHL": {"stats": "stat=G", "playbyplay": "season=2023"},
         "WNBA": {"stats": "stat=PTS", "playbyplay": "season=2023"},
         "FC": {"stats": "stat=G", "playbyplay": "season=2023"}}
NODE = re.compile(r"^\s*(->\s+)?[A-Z][A-Za-z ]+(on|using|\s*\()")


def main() -> int:
    import psycopg
    import sqlalchemy as sa

    from server.catalog.levels import find_level
    from server.endpoints import query
    from server.endpoints.registry import ENDPOINTS, serves
    from server.http.parse import parse
    from server.store.engine import JOINS_AS_WRITTEN, database_url, make_engine, reader

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("store")
    parser.add_argument("--levels", default="MLB")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--setting", default="")
    parser.add_argument("--dump", type=Path)
    opts = parser.parse_args()
    engine = reader(make_engine(opts.store))
    captured: list[tuple[str, Any, bool]] = []

    def grab(_conn: Any, _cursor: Any, statement: str, params: Any, context: Any,
             _many: bool) -> None:
        if not statement.startswith(("SET ", "RESET ")):
            written = bool(context is not None and context.execution_options.get(JOINS_AS_WRITTEN))
            captured.append((statement, params, written))

    sa.event.listen(engine, "before_cursor_execute", grab)
    raw = psycopg.connect(database_url(opts.store).replace("+psycopg", ""), autocommit=True)
    if opts.setting:
        raw.execute(opts.setting)

    def explain(statement: str, params: Any, written: bool) -> tuple[float, float, str]:
        if written:
            raw.execute("SET join_collapse_limit = 1")
        runs = []
        for _ in range(opts.repeat):
            text = "\n".join(r[0] for r in raw.execute(
                "EXPLAIN (ANALYZE, BUFFERS) " + statement, params).fetchall())
            runs.append((float(re.search(r"Planning Time: ([\d.]+)", text)[1]),  # type: ignore[index]
                         float(re.search(r"Execution Time: ([\d.]+)", text)[1]), text))  # type: ignore[index]
        if written:
            raw.execute("RESET join_collapse_limit" if not opts.setting else opts.setting)
        return (statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs),
                runs[-1][2])

    print("level endpoint: the request in this process; each statement planning/execution ms")
    for code in opts.levels.split(","):
        level = find_level(code)
        assert level is not None, code
        with engine.connect() as conn:
            game = conn.execute(sa.text("SELECT id FROM games WHERE level = :l ORDER BY id "
                                        "LIMIT 1"), {"l": code}).scalar()
        for ep in ENDPOINTS:
            if not serves(ep, code):
                continue
            asked = {**PLAIN.get(code, {}), "winprob": f"game={game}"}.get(ep.name, "")
            ask = parse(ep, level, None, [tuple(p.split("=")) for p in asked.split("&") if p],
                        "http://localhost")
            captured.clear()
            started = time.perf_counter()
            with engine.connect() as conn:
                if opts.setting:
                    conn.exec_driver_sql(opts.setting)
                found, total = query.run(conn, ep, ask)
                if opts.setting:
                    conn.exec_driver_sql("RESET ALL")
            took = (time.perf_counter() - started) * 1000
            parts, planned, ran = [], 0.0, 0.0
            for n, (statement, params, written) in enumerate(captured):
                plan, run, text = explain(statement, params, written)
                planned, ran = planned + plan, ran + run
                parts.append(f"{plan:.1f}/{run:.1f}")
                if opts.dump:
                    opts.dump.mkdir(parents=True, exist_ok=True)
                    nodes = [re.sub(r"\(.*?\)", "", line) for line in text.splitlines()
                             if NODE.match(line)]
                    (opts.dump / f"{code}-{ep.name}-{n}.txt").write_text("\n".join(nodes))
            print(f"{code:5s} {ep.name:14s} {took:7.1f} ms  planning {planned:6.1f}  execution "
                  f"{ran:6.1f}  [{' '.join(parts)}]  {len(found)} of {total}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
