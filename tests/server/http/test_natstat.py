"""The NatStat dialect under /natstat/ and the v1/v2 aliases (issue #15), over real HTTP.

The dialect is one more encoding of the root's result: these tests read both and check that the
dialect has NatStat's shape (keyed lists, strings only, success, its errors) in json, xml and
php, that its pages chain through Next_Page under the prefix, that a NatStat-style script runs
against it unchanged, and that every dialect record reads back as its root record.
"""
from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from server.endpoints.base import ParsedRequest
from server.endpoints.registry import ENDPOINTS, find_endpoint
from server.http.encode import natstat
from tests.conftest import MiniStore
from tests.demo_api import ApiServer
from tests.server.endpoints.test_endpoints import SAMPLES
from tests.server.http.test_documents import php_to_json

CLIENT = Path(__file__).with_name("natstat_client.py")
CLIENT_V3 = Path(__file__).with_name("natstat_client_v3.py")
CLIENT_V4 = Path(__file__).with_name("natstat_client_v4.py")
R_CLIENT = Path(__file__).with_name("natstat_client.R")
FORMATS = ("json", "xml", "php")


def _other(version: str) -> str:
    return "v2" if version == "v1" else "v1"


def _at(path: str, version: str, dialect: bool = False) -> str:
    """``path`` (``/v1/...``) under ``version``, and under /natstat/ when ``dialect``."""
    rest = path.split("/", 2)[2]
    return f"{natstat.PREFIX if dialect else ''}/{version}/{rest}"


def _without_next(doc: dict[str, Any]) -> dict[str, Any]:
    doc["meta"].pop("Next_Page", None)
    return doc


def _decode(response: Any, fmt: str, php: str) -> Any:
    if fmt == "json":
        return response.json()
    if fmt == "php":
        return php_to_json(php, response.content)
    return ET.fromstring(response.content)


def _walk_strings(value: Any, where: str = "") -> None:
    """Objects and strings only; the one array is a team season's League (of strings)."""
    if isinstance(value, dict):
        for key, item in value.items():
            assert isinstance(key, str)
            if key in natstat.KEEP_ARRAYS and isinstance(item, list):
                assert all(isinstance(v, str) for v in item), f"{where}.{key}"
                continue
            _walk_strings(item, f"{where}.{key}")
    else:
        assert isinstance(value, str), f"{where} is {value!r}"


def same(root: Any, dialect: Any, name: str = "") -> bool:
    """Whether a dialect value is the root value once its strings are parsed back."""
    if isinstance(root, dict):
        return (isinstance(dialect, dict)
                and all(k in dialect and same(v, dialect[k], k) for k, v in root.items()))
    if isinstance(root, list):
        # PHP has one empty array: an empty keyed object reads back as ``[]``
        items = dialect if name in natstat.KEEP_ARRAYS or dialect == [] else list(dialect.values()) \
            if isinstance(dialect, dict) else None
        return items is not None and len(items) == len(root) and all(
            same(r, d) for r, d in zip(root, items))
    if name == "Overtime" and root is None:
        return dialect in ("", "N")
    if root is None:
        return bool(dialect == "")
    if isinstance(root, bool):
        return bool(dialect == ("Y" if root else "N"))
    if isinstance(root, (int, float)):
        return float(dialect) == float(root)
    return bool(dialect == str(root))


def _records(doc: dict[str, Any], name: str) -> list[Any]:
    listing = doc[natstat.LISTS.get(name, (name,))[0]]
    values = list(listing.values())
    return values[3:] if name == "stats" else values


# ------------------------------------------------------------------------ versions

@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_every_endpoint_answers_under_both_versions_root_and_dialect(api: ApiServer, name: str) -> None:
    path, params, _ = SAMPLES[name]
    documented = path.split("/")[1]
    root = api.send(path, params)
    alias = api.send(_at(path, _other(documented)), params)
    assert root.status_code == alias.status_code == 200, alias.text
    assert _without_next(alias.json()) == _without_next(root.json())
    for version in ("v1", "v2"):
        dialect = api.send(_at(path, version, dialect=True), params)
        assert dialect.status_code == 200, dialect.text
        doc = dialect.json()
        assert doc["success"] == "1" and doc["meta"]["Endpoint"] == name


def test_a_version_not_served_is_a_404_naming_every_version_served(api: ApiServer) -> None:
    for path in ("/v3/forecasts/MLB/", "/v4/games/MLB/"):
        error = api.send(path).json()["error"]
        assert error["Code"] == "wrong_version" and "v1 and v2" in error["Message"], error
    for path in ("/natstat/v9/games/MLB/", "/natstat/V0/forecasts/MLB/"):
        response = api.send(path)
        assert response.status_code == 404
        error = response.json()["error"]
        assert error["detail"] == "wrong_version" and "v1, v2, v3 and v4" in error["message"]


# ------------------------------------------------------------------------ shapes

def test_games_are_keyed_strings_with_success(api: ApiServer) -> None:
    doc = api.send("/natstat/v2/games/MLB/", {"max": 5}).json()
    _walk_strings(doc)
    assert doc["success"] == "1"
    assert list(doc["meta"]) == list(api.send("/v2/games/MLB/", {"max": 5}).json()["meta"])
    keys = list(doc["games"])
    assert len(keys) == 5 and all(k == f"game_{g['ID']}" for k, g in doc["games"].items())
    assert doc["meta"]["Notices"] == {"notice_1": doc["meta"]["Notices"]["notice_1"]}
    final = next(g for g in doc["games"].values() if g["GameStatus"] == "Final")
    assert final["Overtime"] == "N" and final["ScoreHome"].isdigit()
    scheduled = next(g for g in doc["games"].values() if g["GameStatus"] == "")
    assert scheduled["ScoreHome"] == "" and scheduled["Overtime"] == ""


def test_game_detail_nests_lists_as_keyed_objects(api: ApiServer, mini_store: MiniStore) -> None:
    doc = api.send("/natstat/v1/games/MLB/", {"id": 5}).json()
    _walk_strings(doc)
    game = doc["games"]["game_5"]
    assert all(k.startswith("play_") for k in game["playbyplay"])
    assert isinstance(game["LineScore"], dict)


def test_overtime_is_n_ot_2ot_so_or_extra_innings() -> None:
    """Shaped from a root document holding each kind of finish the store writes."""
    games = find_endpoint("games")
    assert games is not None
    def game(ident: int, overtime: str | None, winner: int | None) -> dict[str, Any]:
        return {"ID": ident, "Overtime": overtime, "Winner_ID": winner}
    root = {"meta": {"Endpoint": "games", "Page": 1},
            "games": [game(1, None, 7), game(2, "OT", 7), game(3, "2OT", 7), game(4, "SO", 7),
                      game(5, "2", 7), game(6, None, None)]}
    ask = ParsedRequest("games", None, None, {}, (), 100, 1, "")  # type: ignore[arg-type]
    shaped = natstat.shape(root, games, ask)["games"]
    assert [g["Overtime"] for g in shaped.values()] == ["N", "OT", "2OT", "SO", "2", ""]
    assert [g["ID"] for g in shaped.values() if "OT" in g["Overtime"]] == ["2", "3"]


def test_list_names_and_fields_scripts_read(api: ApiServer) -> None:
    pitches = api.send("/natstat/v2/pitch/MLB/", {"max": 3}).json()["pitches"]
    pitch = next(iter(pitches.values()))
    assert set(pitch["players"]) == {"pitcher", "batter"}
    assert set(pitch["players"]["pitcher"]) == {"ID", "Name", "Team"}
    assert pitch["players"]["batter"]["ID"] == pitch["Batter_ID"]
    items = api.send("/natstat/v1/glossary/MLB/stats/").json()["items"]
    hr = next(i for i in items.values() if i["ID"] == "HR")
    assert hr["Label"] == "Home runs"
    stats = api.send("/natstat/v1/stats/MLB/team/", {"stat": "R"}).json()["stats"]
    opening = list(stats.items())[:3]
    assert opening == [("Stat", "R"), ("Type", "team"), ("Season", opening[2][1])]
    for record in list(stats.values())[3:]:
        assert {"Team_ID", "Team", "Team_Abbrev", "Season", "Sublevel", "Value"} <= set(record)
    teams = api.send("/natstat/v2/teams/MLB/").json()["teams"]
    assert {t["Active"] for t in teams.values()} <= {"Y", "N"} and "Nickname" in next(
        iter(teams.values()))
    team = api.send("/natstat/v2/teams/MLB/", {"id": 1}).json()["teams"]["team_1"]
    for key, season in team["seasons"].items():
        assert key == f"season_{season['ID']}" and isinstance(season["League"], list)


def test_root_gains_the_same_fields_typed(api: ApiServer) -> None:
    record = api.send("/v1/stats/MLB/", {"stat": "HR"}).json()["stats"][0]
    assert record["Team_Abbrev"] == "LAD" and "Sublevel" in record  # the fixture's tables have none
    team = api.send("/v1/teams/MLB/", {"id": 1}).json()["teams"][0]
    assert team["Active"] in ("Y", "N") and isinstance(team["seasons"][0]["League"], list)


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_three_formats_carry_the_same_tree(api: ApiServer, php_binary: str, fmt: str) -> None:
    as_json = _without_next(api.send("/natstat/v2/games/MLB/", {"max": 4}).json())
    response = api.send("/natstat/v2/games/MLB/", {"max": 4, "format": fmt})
    assert response.status_code == 200
    if fmt == "xml":
        root = ET.fromstring(response.content)
        assert root.findtext("success") == "1"
        for key, game in as_json["games"].items():
            node = root.find(f"games/{key}")
            assert node is not None
            assert {child.tag: child.text or "" for child in node} == game
        return
    assert _without_next(_decode(response, fmt, php_binary)) == as_json


@pytest.mark.parametrize("fmt", FORMATS)
def test_boxscores_in_every_format(api: ApiServer, php_binary: str, fmt: str) -> None:
    root = api.send("/v2/boxscores/MLB/", {"status": "final", "max": 2, "format": fmt})
    dialect = api.send("/natstat/v2/boxscore/MLB/", {"status": "final", "max": 2, "format": fmt})
    assert root.status_code == dialect.status_code == 200
    typed = api.send("/v2/boxscores/MLB/", {"status": "final", "max": 2}).json()["boxscores"]
    box = typed[0]
    assert box["BoxscoreHeader"] == (f"Final: {box['Visitor']} {box['ScoreVis']}, "
                                     f"{box['Home']} {box['ScoreHome']}")
    assert box["totals"]["home"]["R"] == box["ScoreHome"]
    assert {"R", "H", "E"} <= set(box["totals"]["visitor"])
    assert box["players"] and all("AB" in p for p in box["players"])
    assert sum(p["Period"] == 1 for p in box["linescore"]) == 1
    if fmt == "xml":
        tree = ET.fromstring(dialect.content)
        node = tree.find(f"boxscores/boxscore_{box['ID']}")
        assert node is not None and node.findtext("BoxscoreHeader") == box["BoxscoreHeader"]
        assert ET.fromstring(root.content).find("boxscores/boxscore/players/player") is not None
        return
    decoded = _decode(dialect, fmt, php_binary)["boxscores"]
    assert list(decoded) == [f"boxscore_{b['ID']}" for b in typed]
    assert same(typed[0], decoded[f"boxscore_{box['ID']}"])
    assert _decode(root, fmt, php_binary)["boxscores"][0]["ID"] == box["ID"]


def test_gameid_is_an_alias_of_id(api: ApiServer) -> None:
    by_id = api.send("/v2/boxscores/MLB/", {"id": 5}).json()["boxscores"]
    by_gameid = api.send("/v2/boxscore/MLB/", {"gameid": 5}).json()["boxscores"]
    assert by_id == by_gameid and len(by_id) == 1 and by_id[0]["ID"] == 5


# ------------------------------------------------------------------------ same data

@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_every_dialect_record_is_its_root_record(api: ApiServer, name: str) -> None:
    path, params, _ = SAMPLES[name]
    root = api.send(path, params).json()
    dialect = api.send(_at(path, path.split("/")[1], dialect=True), params).json()
    _walk_strings(dialect)
    found = root[name]
    shaped = _records(dialect, name)
    assert len(shaped) == len(found) > 0
    for typed, text in zip(found, shaped):
        assert same(typed, text), (typed, text)
    root_next, dialect_next = root["meta"].pop("Next_Page", ""), dialect["meta"].pop("Next_Page", "")
    assert dialect_next == root_next.replace(f"{api.url}/", f"{api.url}/natstat/", 1)
    assert same(root["meta"], dialect["meta"])


def test_detail_records_read_back_too(api: ApiServer) -> None:
    for path, params in (("/v1/games/MLB/", {"id": 5}), ("/v1/teams/MLB/", {"id": 1}),
                         ("/v1/players/MLB/", {"id": 1})):
        name = path.split("/")[2]
        root = api.send(path, params).json()[name][0]
        text = next(iter(api.send("/natstat" + path, params).json()[name].values()))
        assert same(root, text), (root, text)


# ------------------------------------------------------------------------ pages and errors

def test_pages_merge_through_next_page_under_the_prefix(api: ApiServer) -> None:
    url: str | None = f"{api.url}/natstat/v2/games/MLB/?key={api.key}&max=10"
    merged: dict[str, Any] = {}
    pages = 0
    total = None
    while url:
        assert url.startswith(f"{api.url}/natstat/v2/games/MLB/")
        doc = api.send(url, key="").json()
        total = doc["meta"]["Total_Results"]
        before = len(merged)
        merged.update(doc["games"])
        assert len(merged) == before + len(doc["games"])  # no key is on two pages
        url = doc["meta"].get("Next_Page")
        pages += 1
    assert pages > 1 and str(len(merged)) == total


def test_stats_positions_count_across_pages(api: ApiServer) -> None:
    first = api.send("/natstat/v1/stats/MLB/", {"stat": "HR", "max": 2}).json()["stats"]
    second = api.send("/natstat/v1/stats/MLB/", {"stat": "HR", "max": 2, "page": 2}).json()["stats"]
    assert list(first)[3:] == ["stat_1", "stat_2"] and list(second)[3:] == ["stat_3", "stat_4"]


ERRORS = [
    ("/natstat/v1/games/MLB/", {"team": "abc"}, 400),
    ("/natstat/v1/games/XYZ/", {}, 400),
    ("/natstat/v1/games/MLB/", {"id": 999999}, 404),
    ("/natstat/v1/scores/MLB/", {}, 404),
    ("/natstat/nowhere", {}, 404),
    ("/natstat/v1/games/MLB/", {"key": "ABCD-123456"}, 401),
]


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("path,params,status", ERRORS)
def test_errors_are_dialect_documents_with_the_root_status(
        api: ApiServer, php_binary: str, fmt: str, path: str, params: dict[str, Any],
        status: int) -> None:
    query = {**params, "format": fmt}
    key = query.pop("key", None)
    response = api.send(path, query, key=key)
    root_path = path.removeprefix("/natstat")
    assert response.status_code == status == api.send(root_path, query, key=key).status_code
    if fmt == "xml":
        tree = ET.fromstring(response.content)
        assert tree.findtext("success") == "0" and tree.findtext("error/message")
        return
    doc = _decode(response, fmt, php_binary)
    assert doc["success"] == "0" and set(doc["error"]) == {"message", "detail"}
    assert doc["error"]["message"]


def test_cached_bodies_of_root_and_dialect_stay_apart(api: ApiServer) -> None:
    """The replay front keys on the exact address; the prefix is part of it."""
    for _ in range(3):
        assert isinstance(api.send("/v2/games/MLB/", {"max": 3}).json()["games"], list)
        assert isinstance(api.send("/natstat/v2/games/MLB/", {"max": 3}).json()["games"], dict)


# ------------------------------------------------------------------------ v3 and v4

LIVE_META = ("results-max", "results-total", "page", "pages-total", "page-next")


def _v3(api: ApiServer, *segments: str, **params: Any) -> Any:
    return api.send("/".join(["/natstat", api.key, *segments]), params, key="")


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_every_endpoint_answers_v4_as_v2_with_the_paging_members(api: ApiServer, name: str) -> None:
    path, params, _ = SAMPLES[name]
    v2 = api.send(_at(path, "v2", dialect=True), params)
    v4 = api.send(_at(path, "v4", dialect=True), params)
    assert v4.status_code == v2.status_code == 200, v4.text
    old, new = v2.json(), v4.json()
    _walk_strings(new)
    assert new["success"] == "1"
    meta = new["meta"]
    assert [meta[k] for k in LIVE_META[:4]] == [old["meta"][k] for k in (
        "Max_Results", "Total_Results", "Page", "Total_Pages")]
    assert meta["page-next"] == old["meta"].get("Next_Page", "").replace("/v2/", "/v4/", 1)
    listed = natstat.LIVE_LISTS.get(name, natstat.LISTS.get(name, (name,)))[0]
    v2_list = natstat.LISTS.get(name, (name,))[0]
    assert [k.split("_")[-1] for k in new[listed]] == [k.split("_")[-1] for k in old[v2_list]]
    assert list(new[listed].values()) == list(old[v2_list].values()) or name == "forecasts"
    assert set(new["user"]) == {"ratelimit", "ratelimit-remaining", "ratelimit-reset"}


def test_v3_paths_carry_the_key_span_and_offset(api: ApiServer) -> None:
    root = api.send("/v2/games/MLB/", {"season": 2024, "max": 10, "page": 2}).json()
    by_path = _v3(api, "games", "mlb", "2024", "10", max=10).json()
    assert [int(g["ID"]) for g in by_path["games"].values()] == [g["ID"] for g in root["games"]]
    meta = by_path["meta"]
    assert (meta["page"], meta["results-max"]) == ("2", "10")
    assert meta["results-total"] == str(root["meta"]["Total_Results"])
    assert meta["page-next"] == f"{api.url}/natstat/{api.key}/games/mlb/2024/20?max=10"
    day = root["games"][0]["GameDay"]
    one_day = _v3(api, "games", "MLB", day).json()
    assert {g["GameDay"] for g in one_day["games"].values()} == {day}
    both = _v3(api, "games", "MLB", f"{day},{day}").json()
    assert both["games"] == one_day["games"]


def test_v3_page_next_counts_offsets_by_the_page_size_served() -> None:
    """A max over 1000 is served as 1000: the next offset is 1000, not the max asked."""
    asked = "http://h/natstat/v3/games/MLB/?max=5000&key=K&season=2024&page=2"
    assert natstat._page_next(asked, "v3", 1000) == "http://h/natstat/K/games/MLB/2024/1000?max=5000"
    assert natstat._page_next(asked, "v4", 1000) == asked
    assert natstat._page_next(None, "v3", 1000) == ""


def test_v3_and_v4_answer_no_data_for_a_valid_request_matching_nothing(api: ApiServer) -> None:
    for response in (_v3(api, "games", "MLB", "1901-04-01"),
                     api.send("/natstat/v4/games/MLB/", {"date": "1901-04-01"})):
        assert response.status_code == 200
        doc = response.json()
        assert doc["success"] == "0" and doc["error"]["message"] == "NO_DATA"
        assert "1901-04-01" in doc["error"]["detail"]
    v2 = api.send("/natstat/v2/games/MLB/", {"date": "1901-04-01"}).json()
    assert v2["success"] == "1" and v2["games"] == {}


def test_v3_bad_offsets_and_spans_are_the_contracts_errors(api: ApiServer) -> None:
    for segments, parameter in ((("games", "MLB", "2024", "-5"), "offset"),
                                (("games", "MLB", "2024", "ten"), "offset"),
                                (("games", "MLB", "not-a-day"), "date")):
        response = _v3(api, *segments)
        assert response.status_code == 400, response.text
        assert response.json()["error"]["detail"] == f"bad_parameter: {parameter}"
    assert _v3(api, "games", "MLB", key="x").status_code == 200  # the path's key is used


def test_v3_forecasts_carry_teams_and_the_elo_and_money_line_members(api: ApiServer) -> None:
    root = api.send("/v2/forecasts/MLB/", {"max": 5}).json()["forecasts"]
    live = api.send("/natstat/v4/forecasts/MLB/", {"max": 5}).json()["forecasts"]
    assert len(live) == len(root) > 0
    for typed, record in zip(root, live.values()):
        assert (record["home"], record["visitor"], record["League"]) == (
            typed["Home"], typed["Visitor"], "MLB")
        elo = record["forecast"]["elo"]
        assert float(elo["helowinexp"]) == typed["elo"]["HELOWinExp"]
        assert float(elo["velowinexp"]) == typed["elo"]["VELOWinExp"]
        line = typed["moneyline"] or {}
        assert record["forecast"]["moneyline"]["homemoneyline"] == (
            line.get("HomeMoneyLine") or "")
    perfs = api.send("/natstat/v4/playerperfs/MLB/", {"max": 3}).json()
    assert "performances" in perfs and "playerperfs" not in perfs


def test_the_user_block_is_the_keys_rate_as_the_headers_give_it(api: ApiServer) -> None:
    first = api.send("/natstat/v4/games/MLB/", {"max": 2})
    second = api.send("/natstat/v4/games/MLB/", {"max": 2})
    for response in (first, second):
        user = response.json()["user"]
        assert user == {"ratelimit": response.headers["X-RateLimit-Limit"],
                        "ratelimit-remaining": response.headers["X-RateLimit-Remaining"],
                        "ratelimit-reset": response.headers["X-RateLimit-Reset"]}
    left = [int(r.json()["user"]["ratelimit-remaining"]) for r in (first, second)]
    assert left[1] < left[0]  # counted every time, the cached body's included
    etag = second.headers["ETag"]
    assert etag.startswith("W/") and first.headers["ETag"] == etag  # the same data
    again = api.send("/natstat/v4/games/MLB/", {"max": 2}, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b""
    assert int(again.headers["X-RateLimit-Remaining"]) < left[1]


@pytest.mark.parametrize("fmt", ("xml", "php"))
def test_v3_and_v4_documents_in_every_format(api: ApiServer, php_binary: str, fmt: str) -> None:
    as_json = api.send("/natstat/v4/games/MLB/", {"max": 3}).json()
    for response in (api.send("/natstat/v4/games/MLB/", {"max": 3, "format": fmt}),
                     _v3(api, "games", "MLB", "2024", "0", max=3, format=fmt)):
        assert response.status_code == 200
        if fmt == "xml":
            tree = ET.fromstring(response.content)
            assert tree.findtext("success") == "1"
            assert tree.findtext("meta/results-total") is not None
            assert tree.find("user/ratelimit") is not None
            continue
        doc = _decode(response, fmt, php_binary)
        assert doc["success"] == "1" and set(LIVE_META) <= set(doc["meta"])
    assert as_json["meta"]["results-max"] == "3"


def test_a_v3_key_never_reaches_the_access_log(api: ApiServer, live_server: Any) -> None:
    _v3(api, "games", "MLB", "2024", "0", max=1)
    assert f"/natstat/{api.key}/" not in live_server.log()


# ------------------------------------------------------------------------ a real script

def _run_client(command: list[str], api: ApiServer) -> dict[str, Any]:
    """Run a client script against the dialect; what it found, checked against the root
    documents in everything both kinds of script read."""
    done = subprocess.run([*command, f"{api.url}/natstat/", api.key],
                          capture_output=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr.decode()
    found: dict[str, Any] = json.loads(done.stdout)
    games = api.send("/v1/games/MLB/", {"max": 1000}).json()["games"]
    assert found["games"] == found["frame_rows"] == len(games) > 10  # more than one page
    assert found["finals"] == sum(g["GameStatus"] == "Final" for g in games)
    assert found["overtime"] == [str(g["ID"]) for g in games if g["Overtime"] in ("OT", "2OT")]
    assert found["xml_ids"] == [str(g["ID"]) for g in games[:5]]
    assert found["first_home"] == games[0]["Home"]
    teams = api.send("/v1/teams/MLB/").json()["teams"]
    assert found["active"] == sorted(t["Abbrev"] for t in teams if t["Active"] == "Y")
    stats = api.send("/v1/stats/MLB/", {"stat": "HR"}).json()["stats"]
    assert found["leaders"] == [r["Name"] for r in stats]
    assert found["HR"] == "Home runs"
    return found


def test_a_natstat_style_script_runs_unchanged(api: ApiServer) -> None:
    found = _run_client([sys.executable, str(CLIENT)], api)
    assert found["same_id"] == 1
    assert found["header"].startswith("Final: ")


def test_a_natstat_style_r_script_runs_unchanged(api: ApiServer, rscript_binary: str) -> None:
    _run_client([rscript_binary, str(R_CLIENT)], api)


def _script(client: Path, api: ApiServer) -> dict[str, Any]:
    done = subprocess.run([sys.executable, str(client), f"{api.url}/natstat/", api.key],
                          capture_output=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr.decode()
    found: dict[str, Any] = json.loads(done.stdout)
    return found


def test_a_v3_client_script_runs_unchanged(api: ApiServer) -> None:
    found = _script(CLIENT_V3, api)
    season = found["season"]
    games = api.send("/v1/games/MLB/", {"season": season, "max": 1000}).json()["games"]
    assert found["ids"] == sorted(g["ID"] for g in games) and len(games) > 10  # several pages
    assert found["finals"] == sum(g["GameStatus"] == "Final" for g in games)
    perfs = api.send("/v1/playerperfs/MLB/", {"season": season, "max": 1})
    assert found["performances"] == perfs.json()["meta"]["Total_Results"] > 0
    page2 = api.send("/v1/games/MLB/", {"season": season, "max": 10, "page": 2}).json()["games"]
    assert found["second_page"] == [f"game_{g['ID']}" for g in page2]
    assert found["no_data"] == ["0", "NO_DATA"]
    assert int(found["user"]["ratelimit"]) > 0


def test_a_v4_client_script_runs_unchanged(api: ApiServer) -> None:
    found = _script(CLIENT_V4, api)
    games = api.send("/v1/games/MLB/", {"max": 1000}).json()["games"]
    assert found["games"] == found["games_total"] == len(games) > 10
    forecasts = api.send("/v2/forecasts/MLB/", {"max": 1000}).json()["forecasts"]
    assert found["forecasts"] == len(forecasts) > 0
    assert found["homes"] == [f["Home"] for f in forecasts]
    assert found["home_elo"] == [f["elo"]["HELOWinExp"] for f in forecasts
                                 if f["elo"]["HELOWinExp"] is not None]


def test_every_registered_endpoint_has_a_sample() -> None:
    assert {ep.name for ep in ENDPOINTS} == set(SAMPLES)
