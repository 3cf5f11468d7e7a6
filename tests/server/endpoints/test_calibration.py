"""The calibration endpoint over the fixture store: the season's twenty bins, a default season,
and bad input answered in the API's error shape (docs/api/index.md)."""
from __future__ import annotations
from tests.demo_api import ApiServer

import pytest



def test_a_season_answers_ten_bins_of_each_forecast(api: ApiServer) -> None:
    doc = api.send("/v2/calibration/MLB/", {"season": 2024}).json()
    records = doc["calibration"]
    assert [(r["Forecast"], r["Bin"]) for r in records] == \
        [(f, b) for f in ("ingame", "pregame") for b in range(10)]
    for forecast in ("ingame", "pregame"):
        of = [r for r in records if r["Forecast"] == forecast]
        assert sum(r["Count"] for r in of) == of[0]["scores"]["Count"] > 0
        assert all((r["Predicted"] is None) == (r["Count"] == 0) for r in of)
        assert all(r["Low"] <= r["Predicted"] <= r["High"] for r in of if r["Count"])
    # the season defaults to the level's newest
    assert api.send("/v2/calibration/MLB/").json()["calibration"] == records
    # a season without a line is an empty list, not an error
    assert api.send("/v2/calibration/MLB/", {"season": 1990}).json()["calibration"] == []


@pytest.mark.parametrize("path,params,status,code", [
    ("/v2/calibration/MLB/", {"season": "abc"}, 400, "bad_parameter"),
    ("/v2/calibration/MLB/", {"phase": "spring"}, 400, "bad_parameter"),
    ("/v2/calibration/EuroBB/", {}, 400, "level_not_supported"),
])
def test_bad_input_gets_a_clear_error(api: ApiServer, path: str, params: dict[str, str], status: int,
                                      code: str) -> None:
    for fmt in ("json", "xml", "php"):
        response = api.send(path, {**params, "format": fmt})
        assert response.status_code == status, response.text
        assert code in response.text and "Traceback" not in response.text
    error = api.send(path, params).json()["error"]
    assert (error["Status"], error["Code"]) == (status, code) and error["Message"]
    dialect = api.send("/natstat" + path, params).json()
    assert dialect["success"] == "0" and dialect["error"]["message"]
