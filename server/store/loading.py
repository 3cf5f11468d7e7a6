"""Levels not whole yet: ``store_info`` rows ``loading:LEVEL`` holding the notice the service
gives while it still loads or computes the level in the background ("MLB 2021-2023 loading, 2 of 3
seasons"). Written only by the background fill (``server.jobs.fill``), with its plan, in one
transaction; read by ``seasons`` (each season's ``Loading``). Kept here, below both."""
from __future__ import annotations

PREFIX = "loading:"
