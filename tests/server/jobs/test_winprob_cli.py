"""``python -m server evaluate --winprob LEVEL`` asked what it cannot answer: a clear error line
and status 1, never a traceback."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.conftest import MiniStore
from tests.demo_api import ROOT


def _evaluate(store: MiniStore, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DATABASE_URL": store.url}
    return subprocess.run([sys.executable, "-m", "server", "evaluate", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300, check=False)


@pytest.mark.parametrize(("args", "message"), [
    (("--winprob", "NBA"), "covers baseball for now; NBA is basketball"),
    (("--winprob", "XYZ"), "unknown level 'XYZ'"),
    # the mini store's MLB plays were written without the base-out state
    (("--winprob", "mlb"), "no MLB plays hold the base-out state"),
])
def test_unanswerable_questions_get_one_line(mini_store: MiniStore, args: tuple[str, ...],
                                             message: str) -> None:
    done = _evaluate(mini_store, *args)
    assert done.returncode == 1
    assert done.stderr.startswith("error: ") and message in done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""
