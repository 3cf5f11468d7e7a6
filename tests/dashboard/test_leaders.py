"""Leaders page: a stat code from the URL, ranked, charted, with its qualifier."""
from __future__ import annotations

from services import api
from tests.dashboard._apptest import assert_clean, figures, open_page, printed, shown, titles
from tests.dashboard.conftest import ApiServer


def test_leaders_of_a_stat_code(dashboard_env: ApiServer) -> None:
    codes = api.glossary("NBA", "stats")
    code = str(codes[codes["Type"].astype(str) == "player"]["Code"].iloc[0])
    board = open_page("leaders", {"level": "NBA", "stat": code})
    assert_clean(board)
    assert board.dataframe and not figures(board), "the page opens on the board, its chart a click below"
    assert board.expander[0].label == f"Chart: the top {min(len(board.dataframe[0].value), 25)}"
    at = open_page("leaders", {"level": "NBA", "stat": code, "chart": "true"})  # the chart opened
    assert_clean(at)
    assert at.selectbox(key="stat").value == code
    assert titles(at) == [f"NBA {api.season_name('NBA', api.season_ids('NBA')[0])}: {code} leaders"]
    table = at.dataframe[0].value
    assert list(figures(at)[0]["data"][0]["y"])[-1].startswith(str(table["Name"].iloc[0]))


def test_default_stat_and_qualifier(dashboard_env: ApiServer) -> None:
    at = open_page("leaders", {"level": "MLB", "chart": "true"})
    assert_clean(at)
    assert at.selectbox(key="stat").value == "HR"
    labels = list(figures(at)[0]["data"][0]["text"])
    assert labels and all(t.isdigit() for t in labels), f"home runs are counted in whole numbers: {labels}"
    assert all("nan" not in c.value for c in at.caption)
    avg = open_page("leaders", {"level": "MLB", "stat": "AVG", "qualified": "true"})
    assert_clean(avg)
    assert any("qualifier: 3.1 plate appearances" in shown(c.value) for c in avg.caption)
    assert set(avg.dataframe[0].value["Qualified"]) <= {"Y"}


def test_the_value_column_sorts_as_numbers(dashboard_env: ApiServer) -> None:
    """A click on the Value heading sorts the grid by the column's cells: they must be numbers
    (as text, 98 sorts above 131), printed as the sites print the stat (.458, 207, 3.16)."""
    for stat, pattern in (("AB", r"\d+"), ("AVG", r"\.\d{3}"), ("wOBA", r"\.\d{3}"),
                          ("wRC+", r"-?\d+"), ("FIP", r"-?\d+\.\d{2}"), ("K%", r"\d+\.\d%")):
        # qualifiers rank first, so a rate's column is in order among them
        at = open_page("leaders", {"level": "MLB", "stat": stat,
                                   **({"qualified": "true"} if stat != "AB" else {})})
        assert_clean(at)
        grid = at.dataframe[0]
        values = grid.value["Value"]
        assert values.dtype.kind in "if", f"{stat} values are {values.dtype}, not numbers"
        lowest_first = stat in ("FIP", "K%")  # a batter's strikeouts, a pitcher's FIP: fewer first
        assert values.tolist() == sorted(values.tolist(), reverse=not lowest_first)  # by number
        texts = printed(grid)["Value"]
        assert texts.str.fullmatch(pattern).all(), f"{stat} printed {texts.tolist()[:5]}"


def test_the_sites_metrics_rank_qualified_or_not(dashboard_env: ApiServer) -> None:
    """wRC+ and FIP from the season's run environment: qualified hitters and pitchers only, or
    everyone, qualifiers first."""
    for stat in ("wRC+", "FIP"):
        qualified = open_page("leaders", {"level": "MLB", "stat": stat, "qualified": "true"})
        assert_clean(qualified)
        grid = qualified.dataframe[0].value
        assert len(grid) and set(grid["Qualified"]) == {"Y"}
        everyone = open_page("leaders", {"level": "MLB", "stat": stat})
        assert_clean(everyone)
        assert len(everyone.dataframe[0].value) >= len(grid)
