"""The World Cup knock-out bracket: read from the results alone (a made-up tournament), then on
the Standings page over the real data, in the app and in a browser at desktop and phone widths
(2026: 16 matches of the round of 32 to Spain's final against Argentina)."""
from __future__ import annotations

import json
from typing import Any

import pandas as pd
import pytest

from components import bracket
from tests.dashboard._apptest import assert_clean, figures, open_page
from tests.dashboard._streamlit import SHOTS, open_chart
from tests.dashboard.conftest import ApiServer, chromium_browser, dashboard_over, point_services_at


def _game(gid: int, day: str, home: int, vis: int, sh: int, sv: int, winner: int,
          overtime: str | None = None) -> dict[str, Any]:
    return {"ID": gid, "GameDay": day, "Home": f"T{home}", "Home_ID": home,
            "Visitor": f"T{vis}", "Visitor_ID": vis, "ScoreHome": sh, "ScoreVis": sv,
            "Winner_ID": winner, "Overtime": overtime}


def test_the_tree_is_read_from_who_won_and_leaves_out_the_third_place_match() -> None:
    games = pd.DataFrame([
        _game(1, "2026-07-01", 1, 2, 1, 0, 1), _game(2, "2026-07-01", 3, 4, 2, 2, 4, "PSO"),
        _game(3, "2026-07-02", 5, 6, 0, 3, 6), _game(4, "2026-07-02", 7, 8, 1, 0, 7),
        _game(5, "2026-07-05", 1, 4, 2, 1, 1, "ET"), _game(6, "2026-07-06", 6, 7, 0, 1, 7),
        _game(7, "2026-07-09", 4, 6, 3, 1, 4),  # third place: the semi-finals' losers
        _game(8, "2026-07-10", 1, 7, 0, 1, 7)])
    final = bracket.tree(games)
    assert final is not None and int(final.row["ID"]) == 8
    semis = [int(f.row["ID"]) for f in final.feeders]
    assert semis == [5, 6]
    assert [int(f.row["ID"]) for f in final.feeders[0].feeders] == [1, 2]
    assert (final.x, final.feeders[0].x, final.feeders[0].feeders[0].x) == (2, 1, 0)
    assert final.y == pytest.approx(1.5)
    label = bracket._label(games.iloc[1])
    assert label.endswith("(pens)") and "> T4 2" in label
    spec = json.loads(bracket.figure(games, "bracket").to_json())
    assert spec["layout"]["xaxis"]["ticktext"] == ["QF", "SF", "Final"]


@pytest.mark.realdata
@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_the_2026_bracket_on_standings_in_the_app_and_a_browser(
        real_api: ApiServer, monkeypatch: pytest.MonkeyPatch) -> None:
    point_services_at(real_api, monkeypatch)
    at = open_page("standings", {"level": "FC", "season": "2026"})
    assert_clean(at)
    assert "FIFA World Cup 2026: knock-out" in [h.value for h in at.subheader]
    spec = next(f for f in figures(at) if "bracket" in f["layout"]["title"]["text"])
    boxes = spec["data"][-1]["text"]
    assert len(boxes) == 31  # 16 + 8 + 4 + 2 + 1: no third-place match
    assert spec["layout"]["xaxis"]["ticktext"] == ["R32", "R16", "QF", "SF", "Final"]
    assert boxes[0] == "> Spain 1<br>  Argentina 0 (a.e.t.)"
    with dashboard_over(real_api) as url, chromium_browser() as chromium:
        for width in (1440, 390):
            page, chart, right = open_chart(chromium, f"{url}/standings?level=FC&season=2026", width, "Spain",
                                            120_000)
            assert right <= width, (width, right)
            assert page.get_by_text("R32").count() >= 1
            SHOTS.mkdir(parents=True, exist_ok=True)
            chart.screenshot(path=str(SHOTS / f"world-cup-bracket-{width}.png"))
            page.context.close()
