"""Football on the Standings page over the real data: a league table as football prints it (W, D,
L, points, goal difference, form; no winning percentage), each European cup's group tables, and
each European cup's knock-out
bracket of two-legged ties, one box per tie with its aggregate (2022-23: Manchester City 8-1
RB Leipzig in the round of 16, on to the final against Inter)."""
from __future__ import annotations

import pytest

from components import bracket
from tests.dashboard._apptest import assert_clean, figures, open_page
from tests.dashboard._streamlit import SHOTS, open_chart
from tests.dashboard.conftest import ApiServer, chromium_browser, dashboard_over, point_services_at

pytestmark = [pytest.mark.realdata, pytest.mark.slow, pytest.mark.timeout(1800)]


def test_the_premier_league_table_and_the_champions_league_bracket(
        real_api: ApiServer, monkeypatch: pytest.MonkeyPatch) -> None:
    point_services_at(real_api, monkeypatch)
    at = open_page("standings", {"level": "FC", "season": "2023"})
    assert_clean(at)
    table = next(t.value for t in at.dataframe
                 if "Manchester City FC" in list(t.value.get("Team", [])))
    columns = list(table.columns)
    assert columns.index("W") < columns.index("T") < columns.index("L") < columns.index("Points")
    assert "Pct" not in columns and "Last10" not in columns and "Form" in columns
    city = table[table["Team"] == "Manchester City FC"].iloc[0]
    assert (city["W"], city["T"], city["L"], city["Points"], city["GoalDiff"], city["Form"]) == (
        28, 5, 5, 89, 61, "WWWDL")
    # the caption names only what the page shows: leagues without divisions, no projection
    # columns on a finished season's last day
    caption = " ".join(c.value for c in at.caption)
    assert "Ranks follow the league's tiebreakers" in caption and "no projection for this day" in caption
    assert "within a division" not in caption and "projected wins" not in caption
    # the places earned, as the API marks them, with a legend of the marks
    marks = dict(zip(table["Team"], table["Clinched"], strict=True))
    assert [marks[t] for t in ("Manchester City FC", "Arsenal FC", "Southampton FC")] == [
        "Title", "Champions League", "Relegated"]
    assert marks["Liverpool FC"] == ""  # the Europa League's place: cup winners move it
    assert "Champions League, Promotion, Promotion Play-off (at least that place)" in caption
    assert "Europa League and Conference League places are not marked" in caption

    heads = [h.value for h in at.subheader]
    assert "UEFA Champions League 2022-23: knock-out" in heads
    # the cups' groups below the leagues', a table a cup, group by group
    assert {"UEFA Champions League 2022\\-23", "UEFA Europa League 2022\\-23",
            "UEFA Conference League 2022\\-23"} <= set(heads)  # markdown: the dash escaped
    cup = next(t.value for t in at.dataframe if {"SSC Napoli", "AFC Ajax"} <= set(t.value.get("Team", [])))
    assert list(dict.fromkeys(cup["Group"])) == [f"Group {g}" for g in "ABCDEFGH"], list(cup["Group"])
    group_a = cup[cup["Group"] == "Group A"]
    assert list(group_a["Team"]) == ["SSC Napoli", "Liverpool FC", "AFC Ajax", "Rangers FC"]
    assert list(group_a["Points"]) == [15, 15, 6, 0] and "Pct" not in group_a.columns
    spec = next(f for f in figures(at)
                if f["layout"]["title"]["text"].startswith("UEFA Champions League"))
    boxes = spec["data"][-1]["text"]
    assert len(boxes) == 15  # 8 ties + 4 + 2 + the final
    assert spec["layout"]["xaxis"]["ticktext"] == ["R16", "QF", "SF", "Final"]
    assert boxes[0] == "> Manchester Ci. 1<br>  FC Internazio. 0"
    leipzig = [b for b in boxes if "RB Leipzig" in b]
    assert leipzig == ["> Manchester Ci. 8<br>  RB Leipzig 1 agg."]
    hover = spec["data"][-1]["hovertext"]
    assert any("on aggregate (legs 1-1, 7-0)" in h for h in hover)


def test_qualifying_rounds_stay_out_of_the_bracket(real_api: ApiServer,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """2024-25: Lille came through the qualifying play-off in August and went straight to the
    round of 16 from the league phase; its box starts there, with no August tie before it."""
    point_services_at(real_api, monkeypatch)
    from services import api
    games = api.all_games("FC", season=2025, phase="postseason").frame
    cl = bracket.ties(games[games["LeagueName"] == "UEFA Champions League"])
    assert len(cl) == 23  # 8 knock-out play-offs, 8 + 4 + 2 ties, the final
    assert cl["GameDay"].astype(str).min() >= "2025-02-01"


@pytest.mark.browser
def test_the_cup_bracket_and_groups_fit_a_desktop_and_a_phone(real_api: ApiServer) -> None:
    """In a browser at 1440 px and 390 px: the Champions League 2022-23 bracket is drawn with
    the aggregate of City's tie against Leipzig, inside the page's width, and Group A's table
    is on the page."""
    with dashboard_over(real_api) as url, chromium_browser() as chromium:
        for width in (1440, 390):
            page, chart, right = open_chart(chromium, f"{url}/standings?level=FC&season=2023", width,
                                            "RB Leipzig 1 agg.", 180_000)
            assert right <= width, (width, right)
            assert page.get_by_text("Group A").count() >= 1
            SHOTS.mkdir(parents=True, exist_ok=True)
            chart.screenshot(path=str(SHOTS / f"champions-league-bracket-{width}.png"))
            page.context.close()
