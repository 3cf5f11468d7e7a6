"""Football on the dashboard over the real store. Forecasts vs outcomes: the home, draw and away tab lays the
outcomes endpoint's scores side by side (ours and SPI per league and season, each figure the
API's), says who is ahead, and draws each outcome's calibration for both on the same matches."""
from __future__ import annotations

import json

import pytest

from tests.dashboard._apptest import _decoded, assert_clean, figures, open_page, titles
from tests.dashboard.conftest import ApiServer, point_services_at

pytestmark = [pytest.mark.realdata, pytest.mark.slow, pytest.mark.timeout(1800)]


@pytest.fixture()
def real_dashboard(real_api: ApiServer, monkeypatch: pytest.MonkeyPatch) -> ApiServer:
    return point_services_at(real_api, monkeypatch)


def test_fc_2022_23_home_draw_away_beside_spi(real_dashboard: ApiServer) -> None:
    served = real_dashboard.get_json("/v2/outcomes/FC/", season=2023)["outcomes"]
    overall = {r["ForecasterName"]: r for r in served if r["League"] == "All"}
    at = open_page("forecasts", {"level": "FC", "fc_seasons": "2023"})
    assert_clean(at)
    (table,) = [t for t in at.dataframe if "RPS ELO" in t.value.columns]
    shown = table.value
    assert list(shown.columns[:3]) == ["Season", "League", "Matches"]
    assert "RPS FiveThirtyEight SPI" in shown.columns and "Log loss FiveThirtyEight SPI" in shown.columns
    assert len(shown) == 11 and shown.iloc[-1]["League"] == "All", "ten leagues, then all of them"
    last = shown.iloc[-1]
    for name, record in overall.items():
        assert last[f"RPS {name}"] == record["RPS"] and last[f"Log loss {name}"] == record["LogLoss"]
    assert int(last["Matches"]) == overall["ELO"]["Count"]
    ours, spi = overall["ELO"]["RPS"], overall["FiveThirtyEight SPI"]["RPS"]
    ahead = "ours ahead" if ours < spi else "FiveThirtyEight SPI ahead"
    said = " ".join(m.value for m in at.markdown)
    assert f"2022-23: RPS ELO {ours:.4f}, FiveThirtyEight SPI {spi:.4f}" in said and ahead in said
    assert "CC BY 4.0" in " ".join(c.value for c in at.caption)
    config = json.loads(table.proto.columns)
    assert all(config[c].get("help") for c in shown.columns), config
    title = "FC 2022-23: All: home, draw and away chances against results"
    assert title in titles(at)
    chart = figures(at)[titles(at).index(title)]
    lines = {t["name"]: t for t in chart["data"] if t["name"] != "Perfect"}
    assert set(lines) == {f"{who}: {o}" for who in overall for o in ("home", "draw", "away")}
    for trace in lines.values():
        assert sum(_decoded(trace["customdata"])) == overall["ELO"]["Count"], "every match binned"


def test_fc_ratings_league_by_league(real_dashboard: ApiServer) -> None:
    """Clubs are rated in one pool; the Ratings page shows one league's clubs at a time, as the
    API names each club's league in the rated season."""
    at = open_page("ratings", {"level": "FC", "season": "2023", "league": "Premier League"})
    assert_clean(at)
    (table,) = [t.value for t in at.dataframe if "ELO" in t.value.columns]
    assert len(table) == 20 and set(table["LeagueName"]) == {"Premier League"}
    assert table.iloc[0]["Team"] == "Manchester City FC"
    assert list(table["ELO"]) == sorted(table["ELO"], reverse=True)
    assert "Southampton FC" in set(table["Team"]) and "Burnley FC" not in set(table["Team"]), \
        "2022-23's clubs: relegated Southampton in, promoted-later Burnley (Championship) out"


def test_fc_ratings_keep_clubs_and_national_teams_apart(real_dashboard: ApiServer) -> None:
    """The two pools never meet, so neither page mixes them: all leagues' rankings are clubs
    ranked from 1 (with the clubs met only in the European cups, in no league here), the
    national teams a choice of their own, also ranked from 1."""
    clubs = open_page("ratings", {"level": "FC", "season": "2023"})
    assert_clean(clubs)
    (table,) = [t.value for t in clubs.dataframe if "ELO" in t.value.columns]
    assert table.iloc[0]["Rank"] == 1 and table.iloc[0]["Team"] == "Manchester City FC"
    assert {"FC Basel 1893", "Celtic FC"} <= set(table["Team"]), "cup clubs are clubs"
    assert not {"Argentina", "France", "Jersey"} & set(table["Team"])
    nations = open_page("ratings", {"level": "FC", "season": "2023", "league": "National teams"})
    assert_clean(nations)
    (table,) = [t.value for t in nations.dataframe if "ELO" in t.value.columns]
    assert (table["LeagueName"].fillna("") == "").all() and 150 < len(table) <= 211  # shown blank
    assert list(table["Rank"][:3]) == [1, 2, 3] and table.iloc[0]["Team"] == "Argentina"
    assert {"Brazil", "France", "England"} <= set(table["Team"][:10])
    assert not {"Celtic FC", "Jersey", "Guernsey"} & set(table["Team"])


def test_a_final_decided_on_penalties_shows_halves_extra_time_and_the_shoot_out(
        real_dashboard: ApiServer) -> None:
    """The 2023 Championship play-off final (Coventry 1-1 Luton after extra time, Luton on
    penalties 6-5; Coventry at home, 0-1 at half-time): the Games page gives each half, extra time
    and the shoot-out."""
    games = real_dashboard.get_json("/v1/games/FC/", season=2023, phase="postseason", max=100)["games"]
    (final,) = [g for g in games if "Luton" in g["Home"] + g["Visitor"]
                and "Coventry" in g["Home"] + g["Visitor"]]
    at = open_page("games", {"level": "FC", "game": str(final["ID"])})
    assert_clean(at)
    texts = [m.value for m in at.markdown]
    line = next(t for t in texts if "1st half" in t)
    assert "2nd half" in line and "Extra time" in line
    assert final["Home"] == "Coventry City FC" and final["Visitor"] == "Luton Town FC"
    assert "**Penalties:** Luton Town FC 6, Coventry City FC 5" in texts
    rows = {r.split("|")[1].strip(): [c.strip() for c in r.split("|")[2:-1]]
            for r in line.splitlines() if "FC" in r}
    assert rows["Luton Town FC"][:3] == ["1", "0", "0"] and rows["Coventry City FC"][:3] == ["0", "1", "0"]
    # the final at Wembley: neutral ground, no visitor (the semi-finals were home and away)
    heading = at.subheader[0].value
    assert heading.startswith("Luton Town FC 1 vs Coventry City FC 1"), heading
    assert any("neutral ground" in c.value for c in at.caption)
    semi = next(g for g in games if g["Home"] == "Luton Town FC" and g["Visitor"] == "Sunderland AFC")
    at = open_page("games", {"level": "FC", "game": str(semi["ID"])})
    assert at.subheader[0].value.startswith("Sunderland AFC 0 @ Luton Town FC 2")
    assert not any("neutral ground" in c.value for c in at.caption)


def test_games_of_one_competition(real_dashboard: ApiServer) -> None:
    """A football season holds its leagues, the European cups and the year's internationals:
    Games lists one competition's matches when asked (the 2022-23 Premier League: 380, every one
    of them a Premier League match; the API counts them, so the total is exact)."""
    at = open_page("games", {"level": "FC", "season": "2023", "competition": "Premier League"})
    assert_clean(at)
    games = next(t.value for t in at.dataframe if "Home" in t.value.columns)
    assert len(games) == 380 and set(games["LeagueName"]) == {"Premier League"}
    assert any(c.value.startswith("380 games") for c in at.caption)
    picker = next(s for s in at.sidebar.selectbox if s.label == "Competition")
    assert picker.options[:2] == ["All competitions", "Austrian Bundesliga"]  # leagues by nation
    assert picker.options.index("Premier League") < picker.options.index("UEFA Champions League") \
        < picker.options.index("FIFA World Cup")

