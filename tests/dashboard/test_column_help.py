"""Every code a table shows says what it means when the pointer rests on its heading (the grids'
column help), as the glossary the API serves declares it: a box score's (a pitcher's BB is the
glossary's BBA) and a player's ranks and seasons alike."""
from __future__ import annotations

import json

from services import api
from tests.dashboard._apptest import assert_clean, open_clean, open_page
from tests.dashboard.conftest import ApiServer

def _grid_help(at: object, key_part: str) -> dict[str, str]:
    """The help of each column of the grids that hold a column named ``key_part``."""
    found: dict[str, str] = {}
    for grid in at.dataframe:  # type: ignore[attr-defined]
        config = json.loads(grid.proto.columns or "{}")
        if key_part in {str(c) for c in grid.value.columns}:
            found.update({name: str(c.get("help", "")) for name, c in config.items()
                          if isinstance(c, dict) and c.get("help")})
    return found


def test_box_score_headings_explain_their_codes(dashboard_env: ApiServer) -> None:
    glossary = api.glossary("MLB", "stats").drop_duplicates("Code").set_index("Code")["Name"]
    game = api.games("MLB", status="final", size=1).frame.iloc[0]
    at = open_page("games", {"level": "MLB", "game": str(int(game["ID"]))})
    assert_clean(at)
    pitching = _grid_help(at, "IP")  # a pitcher's BB and HR are his BBA and HRA
    assert glossary["BBA"] in pitching["BB"] and glossary["HRA"] in pitching["HR"], pitching
    assert glossary["ER"] in pitching["ER"] and glossary["PIT"] in pitching["Pitches"], pitching
    assert pitching["IP"], pitching
    batting = _grid_help(at, "RBI")
    assert glossary["AB"] in batting["AB"] and glossary["RBI"] in batting["RBI"], batting


def test_grid_columns_explain_their_codes(dashboard_env: ApiServer) -> None:
    glossary = api.glossary("MLB", "stats").drop_duplicates("Code").set_index("Code")["Name"]
    leader = api.stats("MLB", "player", "ERA", size=1).frame.iloc[0]
    link = {"level": "MLB", "player": str(int(leader["Player_ID"]))}
    ranks = _grid_help(open_clean("players", {**link, "section": "Season statistics"}), "QualifiedRank")
    assert "qualifier" in ranks["QualifiedRank"].lower() and ranks["Rank"], ranks
    at = open_clean("players", {**link, "log_table": "true"})  # a pitcher's game log: BBA, HRA
    log = _grid_help(at, "BBA")
    codes = [c for grid in at.dataframe if "BBA" in grid.value.columns for c in grid.value.columns
             if c in glossary.index]
    assert {"BBA", "HRA"} <= set(codes), codes
    for code in codes:  # every stat code the game log shows, as the glossary names it
        assert glossary[code] in log[code], (code, log.get(code))


def test_forecast_tables_explain_every_column_and_the_simulation_winner(dashboard_env: ApiServer) -> None:
    """Calibration, Lines by season and Biggest upsets: each column says what it holds on hover,
    and the lines' table says what a simulation winner is."""
    checked = {"Calibration": "Observed", "Lines by season": "Line", "Biggest upsets": "Winner"}
    for tab, column in checked.items():
        at = open_page("forecasts", {"level": "MLB", "tab": tab, "bins_table": "true"})
        assert_clean(at)
        grid = _grid_help(at, column)
        shown = [str(c) for g in at.dataframe if column in g.value.columns for c in g.value.columns]
        bare = [c for c in shown if c not in grid and c not in ("ID", "Open", "GameDay", "Visitor", "Home",
                                                               "Season", "Phase")]
        assert shown and bare == [], (tab, bare, grid)
        if tab == "Lines by season":
            assert "simulation winner" in grid["Line"] and "simulated" in grid["Line"], grid["Line"]
