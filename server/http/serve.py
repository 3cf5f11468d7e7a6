"""``python -m server serve``: run the API under uvicorn, one or several worker processes.

With ``--workers 1`` the app is built from the CLI's engine; with more, uvicorn's multi-process
mode imports ``app_factory``, which builds its own engine from DATABASE_URL in each worker.
Every uvicorn log handler masks ``key=`` values (``logmask``); connections go through
``protocol.GuardedHttpTools`` (a header deadline, a connection cap, error documents). The nightly re-tabulation's
scheduler runs in this process, once however many workers there are (``server.jobs.scheduler``);
every instance on a store may run one, the store picks which one runs each night, so N instances
start alike. The job's lines (which instance ran a night, which skipped it) go to the log. The same
instances run what a first build left to load (``server.jobs.fill``), one of them at a time.
"""
from __future__ import annotations

import argparse
import gc
import os
import sys
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa
import uvicorn
from starlette.types import ASGIApp

from server.http.app import create_app
from server.http.logmask import install, log_config
from server.http.protocol import TRUSTED_PROXIES, GuardedHttpTools


def app_factory() -> ASGIApp:
    """Used by uvicorn workers (``factory=True``): one engine per process."""
    from server.store.engine import make_engine

    install()
    return _settled(create_app(make_engine()))


def _settled(app: ASGIApp) -> ASGIApp:
    """Keep start-up's objects out of the collector's way (``gc.freeze``): a full collection
    then walks only what requests made, not the ~70,000 objects of the libraries, which would
    otherwise stall every request in flight for about 10 ms."""
    gc.collect()
    gc.freeze()
    return app


def _log_config() -> dict[str, Any]:
    """uvicorn's masked config, plus the nightly job's own lines (INFO and up)."""
    config = log_config()
    config["loggers"] = {**config.get("loggers", {}),
                         "server.jobs": {"handlers": ["default"], "level": "INFO",
                                         "propagate": False}}
    return config


def _loop() -> str:
    try:
        import uvloop  # noqa: F401
    except ImportError:
        return "asyncio"
    return "uvloop"


def cli(args: argparse.Namespace, engine: Callable[[], sa.Engine]) -> int:
    install()
    common: dict[str, Any] = {
        "host": args.host, "port": args.port, "log_config": _log_config(), "loop": _loop(),
        "http": GuardedHttpTools, "server_header": False,
        # X-Forwarded-For and -Proto are believed only from the proxies the operator names
        "proxy_headers": bool(TRUSTED_PROXIES), "forwarded_allow_ips": sorted(TRUSTED_PROXIES),
        "access_log": not args.no_access_log}
    from server.jobs.scheduler import run_at, start_scheduler  # here: workers need no models

    from server.jobs import fill

    store = engine()
    filler = None
    if getattr(args, "no_scheduler", False):
        jobs, nightly = None, "no nightly re-tabulation (--no-scheduler)"
    else:
        jobs, (hour, minute, second) = start_scheduler(store), run_at()
        nightly = (f"re-tabulating levels in season daily at {hour:02d}:{minute:02d}:{second:02d} "
                   "America/New_York (one instance per night, chosen by the store)")
        # what a first build left to load, loaded while this serves (progress on /health)
        filler = fill.start(store)
    print(f"serving on http://{args.host}:{args.port} ({args.workers} worker(s)); {nightly}",
          file=sys.stderr)
    try:
        if args.workers > 1:
            os.environ.setdefault("DATABASE_URL", store.url.render_as_string(hide_password=False))
            uvicorn.run("server.http.serve:app_factory", factory=True, workers=args.workers,
                        **common)
        else:
            uvicorn.run(_settled(create_app(store)), **common)
    finally:
        if filler is not None:
            filler.stop()
        if jobs is not None:
            jobs.shutdown(wait=False)
    return 0
