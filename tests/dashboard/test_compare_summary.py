"""Compare's players as a shared link first shows them: one line each above the chart (text
draws about 1 s into a fresh page; the chart waits for plotly's code, docs/dashboard.md)."""
from __future__ import annotations

import pandas as pd

from services import api
from tests.dashboard._apptest import assert_clean, figures, open_page, shown
from tests.dashboard.conftest import ApiServer


def test_each_player_compared_has_a_line_above_the_chart(dashboard_env: ApiServer) -> None:
    leaders = api.stats("MLB", "player", "HR", size=2).frame
    who = [str(int(i)) for i in leaders["Player_ID"]]
    at = open_page("compare", {"level": "MLB", "who": who, "career_stat": "HR", "lines": "true"})
    assert_clean(at)
    assert figures(at)
    summary = next(s for s in (shown(m.value) for m in at.markdown) if "Best season, HR" in s)
    lines = at.dataframe[0].value
    for name, seasons in lines.groupby("Player"):
        row = next(r for r in summary.splitlines() if r.startswith(f"| {name}"))
        hr = pd.to_numeric(seasons["HR"], errors="coerce")
        best = seasons.loc[hr.idxmax()]
        assert f"| {seasons['Season'].nunique()} |" in row
        assert f"{best['HR']} ({api.season_name('MLB', int(best['Season']))})" in row
