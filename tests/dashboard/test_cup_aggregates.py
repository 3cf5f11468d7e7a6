"""A two-legged cup tie's second leg reads its aggregate on Games, as the reference sites print
it (Champions League 2022-23, round of 16: Manchester City 7-0 RB Leipzig on 14 March 2023,
1-1 in Leipzig, 8-1 on aggregate), and no other game carries one."""
from __future__ import annotations

import pytest

from components import ties
from tests.dashboard._apptest import assert_clean, open_page
from tests.dashboard.conftest import ApiServer, point_services_at

pytestmark = [pytest.mark.realdata, pytest.mark.slow]


def test_the_second_leg_names_the_aggregate_and_who_went_through(
        real_api: ApiServer, monkeypatch: pytest.MonkeyPatch) -> None:
    point_services_at(real_api, monkeypatch)
    at = open_page("games", {"level": "FC", "season": "2023", "start": "2023-03-14",
                             "end": "2023-03-14"})
    assert_clean(at)
    games = next(t.value for t in at.dataframe if "Home" in t.value.columns)
    columns = list(games.columns)
    assert columns.index("ScoreHome") + 1 == columns.index(ties.AGGREGATE)
    city = games[games["Home"] == "Manchester City FC"].iloc[0]
    assert (city["ScoreVis"], city["ScoreHome"]) == (0, 7)
    assert city[ties.AGGREGATE] == "Agg. 1-8, Manchester City FC through"
    league = games[games["LeagueName"] == "EFL Championship"]  # six league games that night
    assert len(league) == 6 and (league[ties.AGGREGATE] == "").all()
