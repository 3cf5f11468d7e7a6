from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from server.catalog import statcodes
from server.models import stat_tables


def _lines() -> pd.DataFrame:
    # player 1: 2 games, 3-for-8 with 8 PA; player 2: 1 game, 2-for-4; team 10 played 2 games.
    # pitcher 3: 9 outs (3 IP), 2 ER -> ERA 27 x 2 / 9 = 6.0; pitcher 4: 27 outs, 3 ER -> 3.0.
    return pd.DataFrame([
        {"season": 2024, "entity_id": 1, "team_id": 10, "game_day": "d1", "PA": 4, "AB": 4, "H": 1},
        {"season": 2024, "entity_id": 1, "team_id": 10, "game_day": "d2", "PA": 4, "AB": 4, "H": 2},
        {"season": 2024, "entity_id": 2, "team_id": 10, "game_day": "d2", "PA": 4, "AB": 4, "H": 2},
        {"season": 2024, "entity_id": 3, "team_id": 10, "game_day": "d1", "OUTS": 9, "ER": 2},
        {"season": 2024, "entity_id": 4, "team_id": 10, "game_day": "d2", "OUTS": 27, "ER": 3},
    ]).fillna(0)


def _tables() -> pd.DataFrame:
    lines = _lines()
    codes = [c for c in lines.columns if c not in ("season", "entity_id", "team_id", "game_day")]
    tot = stat_tables.season_totals(lines, codes)
    team_games = pd.Series({(2024, 10): 2})
    return stat_tables.build_tables(tot, "baseball", "player", team_games, pd.Series({10: 77}))


def test_avg_value_qualifier_and_ranks() -> None:
    t = _tables()
    avg = t[t.code == "AVG"].set_index("entity_id")
    assert avg.loc[1, "value"] == pytest.approx(3 / 8) and avg.loc[2, "value"] == 0.5
    # 3.1 PA x 2 team games = 6.2: player 1 (8 PA) qualifies, player 2 (4 PA) does not
    assert bool(avg.loc[1, "qualified"]) and not bool(avg.loc[2, "qualified"])
    assert avg.loc[1, "rank"] == 1 and avg.loc[2, "rank"] == 2  # qualifiers first
    assert avg.loc[1, "qualified_rank"] == 1 and np.isnan(avg.loc[2, "qualified_rank"])
    assert avg.loc[1, "gp"] == 2 and avg.loc[1, "sublevel_id"] == 77
    assert 3 not in avg.index  # no at bats: AVG undefined, no row


def test_era_ranks_ascending_and_totals_descending() -> None:
    t = _tables()
    era = t[t.code == "ERA"].set_index("entity_id")
    assert era.loc[3, "value"] == pytest.approx(6.0) and era.loc[4, "value"] == pytest.approx(3.0)
    assert era.loc[4, "rank"] == 1
    h = t[t.code == "H"].set_index("entity_id")
    assert h.loc[1, "rank"] == 1 and h.loc[2, "rank"] == 2 and h.loc[3, "rank"] == 3
    assert "2B" not in set(t.code)  # no line carries doubles: no table


def test_catalog_is_consistent() -> None:
    seen = set()
    for s in statcodes.STAT_CODES:
        key = (s.sport, s.type, s.code)
        assert key not in seen, key
        seen.add(key)
        assert s.order in ("asc", "desc")
        assert (s.qualifier is None) == (s.rule is None)
        for p in s.formula.parts:
            assert any(o.code == p and o.sport == s.sport for o in statcodes.STAT_CODES)
    rows = statcodes.glossary_rows()
    assert {r["code"] for r in rows} >= {"AVG", "OBP", "SLG", "OPS", "ERA", "WHIP", "PPG", "FG%"}
    assert all(set(r) == {"sport", "type", "code", "name", "description", "order", "qualifier"}
               for r in rows)
