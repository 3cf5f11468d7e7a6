"""The simulated store keeps the promises of the demo: every level filled, box scores that agree
with the play-by-play and the lines, seasons that add up, determinism and idempotency."""
from __future__ import annotations

import argparse
import datetime as dt
import re
from collections import defaultdict
from pathlib import Path
from typing import Any

import orjson
import pytest
import sqlalchemy as sa

from server.catalog.levels import ALL_CODES, BY_CODE
from server.catalog.linestats import line_codes
from server.errors import UserError
from server.ingest.simulator import cli, parse_levels, run
from server.store.engine import make_engine
from tests.fixtures.digest import table_digests
from tests.server.ingest.simulator.conftest import BUILD_NOW, SEED, build_store

_SCORE_CODE = {"baseball": "R", "basketball": "PTS", "hockey": "G", "soccer": "G"}
TODAY = (BUILD_NOW - dt.timedelta(hours=5)).date()


def _rows(engine: sa.Engine, sql: str, **params: Any) -> list[Any]:
    with engine.connect() as conn:
        return list(conn.execute(sa.text(sql), params))


def _dump(engine: sa.Engine) -> dict[str, str]:
    return table_digests(engine, skip=("api_keys",))


def _stats(value: Any) -> dict[str, int]:
    return orjson.loads(value) if isinstance(value, str) else dict(value)


def test_every_level_has_teams_games_players_plays(small_store: sa.Engine) -> None:
    for table in ("teams", "games", "plays", "player_lines", "team_lines", "player_seasons",
                  "team_seasons", "seasons", "sublevels", "news", "social_accounts"):
        levels = {r[0] for r in _rows(small_store, f"SELECT DISTINCT level FROM {table}")}
        assert levels == set(ALL_CODES), (table, set(ALL_CODES) - levels)
    for table in ("venues", "players", "officials", "game_officials", "transactions", "social_posts"):
        assert _rows(small_store, f"SELECT count(*) FROM {table}")[0][0] > 0, table
    assert {r[0] for r in _rows(small_store, "SELECT DISTINCT source FROM games")} == {"simulated"}
    assert {r[0] for r in _rows(small_store, "SELECT DISTINCT source FROM players")} == {"simulated"}


def test_player_bios_are_complete(small_store: sa.Engine) -> None:
    rows = _rows(small_store, "SELECT name, height, weight, birth_date, hometown, nation, flag, position "
                              "FROM players")
    for name, height, weight, born, town, nation, flag, pos in rows:
        assert re.fullmatch(r"\d-\d\d", height), height
        assert 100 <= weight <= 330 and born and town and nation and pos
        assert re.fullmatch(r"[A-Z]{2}", flag)
    names = {r[0] for r in rows}
    assert any(re.search(r"[\uac00-\ud7a3]", n) for n in names)  # Korean
    assert any(re.search(r"[čšžćđ]", n) for n in names)  # Slavic diacritics


def test_scores_equal_scoring_plays_team_lines_and_player_lines(small_store: sa.Engine) -> None:
    games = _rows(small_store, "SELECT g.id, l.sport, g.visitor_id, g.home_id, g.score_vis, g.score_home "
                               "FROM games g JOIN levels l ON l.code = g.level WHERE g.state != 'scheduled'")
    points: dict[tuple[int, int], int] = defaultdict(int)
    last: dict[int, tuple[int, int]] = {}
    for gid, team, pts, sv, sh in _rows(small_store, "SELECT game_id, team_id, points, score_vis, score_home "
                                                      "FROM plays ORDER BY game_id, seq"):
        points[(gid, team)] += pts
        last[gid] = (sv, sh)
    team_lines = {(g, t): _stats(s) for g, t, s in _rows(small_store, "SELECT game_id, team_id, stats FROM team_lines")}
    player_sum: dict[tuple[int, int], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for g, t, s in _rows(small_store, "SELECT game_id, team_id, stats FROM player_lines"):
        for k, v in _stats(s).items():
            player_sum[(g, t)][k] += v
    assert games
    for gid, sport, vis, home, sv, sh in games:
        assert points[(gid, vis)] == sv and points[(gid, home)] == sh, gid
        assert last.get(gid, (0, 0)) == (sv, sh), gid
        code = _SCORE_CODE[sport]
        for team, score in ((vis, sv), (home, sh)):
            tl = team_lines[(gid, team)]
            assert tl.get(code, 0) == score, (gid, sport, tl)
            ps = {k: v for k, v in player_sum[(gid, team)].items() if k in line_codes(sport, team=True) and v}
            assert ps == {k: v for k, v in tl.items() if v}, (gid, sport)
            assert set(tl) <= set(line_codes(sport, team=True))


def _sport_plays(engine: sa.Engine, sport: str) -> dict[int, list[Any]]:
    """Plays of every played game of a sport, per game, in sequence order."""
    out: dict[int, list[Any]] = defaultdict(list)
    for row in _rows(engine, "SELECT p.game_id, p.seq, p.period, p.clock, p.team_id, p.player_id, p.event, "
                             "p.explanation, p.scoring, p.points, p.tags, p.score_vis, p.score_home "
                             "FROM plays p JOIN levels l ON l.code = p.level WHERE l.sport = :s "
                             "ORDER BY p.game_id, p.seq", s=sport):
        out[row[0]].append(row)
    return out


def _player_lines(engine: sa.Engine, sport: str) -> dict[tuple[int, int], tuple[int, str, dict[str, int]]]:
    """(game, player) -> (team, position, stats) for a sport's player lines."""
    return {(g, p): (t, pos, _stats(st)) for g, p, t, pos, st in _rows(
        engine, "SELECT pl.game_id, pl.player_id, pl.team_id, pl.position, pl.stats FROM player_lines pl "
                "JOIN levels l ON l.code = pl.level WHERE l.sport = :s", s=sport)}


def _clock_order(period: int, clock: str) -> tuple[int, int]:
    mm, ss = clock.split(":")
    return period, -(int(mm) * 60 + int(ss))


@pytest.mark.parametrize("sport", ["basketball", "hockey"])
def test_play_by_play_runs_in_time_order_with_the_running_score(small_store: sa.Engine, sport: str) -> None:
    """Events are in time order (sequence = clock order) and each carries the score at that moment:
    the sum of the points of the scoring events up to it."""
    games = _sport_plays(small_store, sport)
    home = {gid: h for gid, h in _rows(small_store, "SELECT id, home_id FROM games")}
    assert games
    for gid, plays in games.items():
        run = {0: 0, 1: 0}
        for prev, play in zip([None, *plays], plays):
            side = int(play[4] == home[gid])
            assert bool(play[8]) == (play[9] > 0), play  # scoring plays are the ones with points
            run[side] += play[9]
            assert (play[11], play[12]) == (run[0], run[1]), play
            if prev is not None:
                assert _clock_order(prev[2], prev[3]) <= _clock_order(play[2], play[3]), (prev, play)


def test_basketball_events_match_the_player_lines(small_store: sa.Engine) -> None:
    """Every player's shots, free throws, rebounds, turnovers and fouls in the play-by-play are his
    line: FGA/FGM/3PA/3PM, FTA/FTM, OREB/DREB/REB, TOV, PF; a rebound follows every miss."""
    games = _sport_plays(small_store, "basketball")
    lines = _player_lines(small_store, "basketball")
    under_way = {gid for (gid,) in _rows(small_store, "SELECT id FROM games WHERE state = 'inprogress'")}
    counted: dict[tuple[int, int], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    kinds: dict[str, int] = defaultdict(int)
    for gid, plays in games.items():
        for k, (_, _, _, _, team, pid, event, text, scoring, pts, tags, _, _) in enumerate(plays):
            kinds[event] += 1
            c = counted[(gid, pid)] if pid is not None else defaultdict(int)
            tag = set(tags.split("|"))
            if event == "shot":
                c["FGA"] += 1
                c["FGM"] += bool(scoring)
                c["3PA"] += "3pt" in tag
                c["3PM"] += "3pt" in tag and bool(scoring)
                assert pts == (0 if not scoring else 3 if "3pt" in tag else 2), (gid, text)
                assert ("made" if scoring else "missed") in text, text
                # the rebound comes next (a game under way may stop with the ball in the air)
                if not scoring and (k + 1 < len(plays) or gid not in under_way):
                    assert plays[k + 1][6] == "rebound", (gid, plays[k:k + 2])
            elif event == "free_throw":
                c["FTA"] += 1
                c["FTM"] += bool(scoring)
                assert pts == int(bool(scoring))
            elif event == "rebound":
                if pid is None:
                    assert "team" in tag, text  # a team rebound, after a missed last free throw
                    assert plays[k - 1][6] == "free_throw" and not plays[k - 1][8], (gid, text)
                else:
                    c["OREB" if "offensive" in tag else "DREB"] += 1
                    c["REB"] += 1
            elif event == "turnover":
                c["TOV"] += 1
            elif event == "foul":
                c["PF"] += 1
            elif event == "substitution":
                assert "enters the game for" in text and not scoring and pts == 0, text
            else:
                raise AssertionError(f"unexpected basketball event {event!r}")
    assert {"shot", "free_throw", "rebound", "turnover", "foul", "substitution"} <= set(kinds)
    assert kinds["rebound"] > kinds["turnover"] > 0
    codes = ("FGA", "FGM", "3PA", "3PM", "FTA", "FTM", "OREB", "DREB", "REB", "TOV", "PF")
    assert set(counted) <= set(lines)
    played = set(games)
    checked = 0
    for (gid, pid), (_, _, stats) in lines.items():
        if gid not in played:
            continue
        checked += 1
        c = counted.get((gid, pid), {})
        assert {k: stats.get(k, 0) for k in codes} == {k: c.get(k, 0) for k in codes}, (gid, pid)
    assert checked > 100


def test_basketball_possession_changes_hands(small_store: sa.Engine) -> None:
    """The ball goes to the other team after a made basket, a made last free throw, a turnover or a
    defensive rebound, and stays after an offensive one: no team shoots, turns it over or goes to
    the line twice in a row without getting the ball back (a period starts afresh)."""
    games = _sport_plays(small_store, "basketball")
    sides = {gid: (v, h) for gid, v, h in _rows(small_store, "SELECT id, visitor_id, home_id FROM games")}
    checked = 0
    for gid, plays in games.items():
        v, h = sides[gid]
        other = {v: h, h: v}
        ball: int | None = None
        period = None
        for play in plays:
            _, _, per, _, team, _, event, text, scoring, _, _, _, _ = play
            if per != period:
                ball, period = None, per
            if event in ("shot", "turnover") or (event == "free_throw" and "throw 1 of" in text):
                assert ball in (None, team), (gid, play)
                checked += ball is not None
                ball = team
            last_ft = event == "free_throw" and re.search(r"throw (\d) of \1$", text) is not None
            if event == "rebound":
                ball = team  # offensive or defensive, the rebounders have it
            elif event == "turnover" or (scoring and (event == "shot" or last_ft)):
                ball = other[team]
    assert checked > 1000


def test_basketball_minutes_and_plus_minus_come_from_the_floor(small_store: sa.Engine) -> None:
    """Five players a side are on the floor at every moment, so both teams play the same minutes
    (five times a finished game's) and a team's plus-minus adds up to five times its margin,
    exactly, in finished games and in games under way; the starters play more than the bench."""
    lines = _player_lines(small_store, "basketball")
    games = {gid: (v, h, sv, sh, state) for gid, v, h, sv, sh, state in _rows(
        small_store, "SELECT g.id, g.visitor_id, g.home_id, g.score_vis, g.score_home, g.state FROM games g "
                     "JOIN levels l ON l.code = g.level WHERE l.sport = 'basketball' "
                     "AND g.state IN ('final', 'inprogress')")}
    starters = {(g, p): bool(s) for g, p, s in _rows(
        small_store, "SELECT pl.game_id, pl.player_id, pl.starter FROM player_lines pl "
                     "JOIN levels l ON l.code = pl.level WHERE l.sport = 'basketball'")}
    minutes: dict[tuple[int, int], int] = defaultdict(int)
    plus_minus: dict[tuple[int, int], int] = defaultdict(int)
    played: dict[bool, list[int]] = {True: [], False: []}
    for (gid, pid), (team, _, stats) in lines.items():
        if gid in games:
            minutes[(gid, team)] += stats.get("MIN", 0)
            plus_minus[(gid, team)] += stats.get("PM", 0)
            played[starters[(gid, pid)]].append(stats.get("MIN", 0))
    checked = 0
    for gid, (v, h, sv, sh, state) in games.items():
        if (gid, v) not in minutes:
            continue
        checked += 1
        assert minutes[(gid, v)] == minutes[(gid, h)], gid
        assert state != "final" or minutes[(gid, h)] % 5 == 0, gid  # whole minutes, five a side
        assert plus_minus[(gid, h)] == 5 * (sh - sv) == -plus_minus[(gid, v)], gid
    assert checked > 100
    assert sum(played[True]) / len(played[True]) > 1.5 * sum(played[False]) / len(played[False])


def test_hockey_shots_and_saves_match_the_lines(small_store: sa.Engine) -> None:
    """Each skater's shots on goal are his shot events (goals included); each goalie's saves are
    the other team's saved shots, which name him."""
    games = _sport_plays(small_store, "hockey")
    lines = _player_lines(small_store, "hockey")
    names = {pid: n for pid, n in _rows(small_store, "SELECT id, name FROM players")}
    goalie = {(gid, team): pid for (gid, pid), (team, pos, _) in lines.items() if pos == "G"}
    sog: dict[tuple[int, int], int] = defaultdict(int)
    saves: dict[tuple[int, int], int] = defaultdict(int)
    checked = 0
    for gid, plays in games.items():
        teams = {(t, o) for t, o in _rows(small_store, "SELECT visitor_id, home_id FROM games WHERE id = :g",
                                          g=gid)}.pop()
        for play in plays:
            team, pid, event, text = play[4], play[5], play[6], play[7]
            if event in ("shot", "goal", "shootout_goal"):
                sog[(gid, pid)] += 1
            if event == "shot":
                assert not play[8] and play[9] == 0 and "saved" in play[10]
                keeper = goalie[(gid, teams[1] if team == teams[0] else teams[0])]
                assert names[keeper] in text, text
                saves[(gid, keeper)] += 1
        checked += 1
    assert checked > 10
    for (gid, pid), (_, pos, stats) in lines.items():
        if gid not in games:
            continue
        if pos == "G":
            assert stats.get("SV", 0) == saves[(gid, pid)], (gid, pid, stats)
        else:
            assert stats.get("SOG", 0) == sog[(gid, pid)], (gid, pid, stats)


def test_baseball_plays_carry_counts_hands_and_sequences(small_store: sa.Engine) -> None:
    rows = _rows(small_store, "SELECT p.the_count, p.pitcher_hand, p.batter_hand, p.sequence, p.pitcher_id, "
                              "p.half, p.event FROM plays p JOIN levels l ON l.code = p.level "
                              "WHERE l.sport = 'baseball'")
    levels = {r[0] for r in _rows(small_store, "SELECT DISTINCT p.level FROM plays p JOIN levels l "
                                               "ON l.code = p.level WHERE l.sport = 'baseball' AND p.the_count IS NOT NULL")}
    assert levels == {"MLB", "MiLB", "KBO", "NPB", "CBB"}
    pas = [r for r in rows if r[6] not in ("stolen_base", "caught_stealing")]
    assert pas
    for count, ph, bh, seq, pitcher, half, _ in pas:
        assert re.fullmatch(r"[0-3]-[0-2]", count)
        assert ph in ("L", "R") and bh in ("L", "R") and pitcher
        assert re.fullmatch(r"[BCSFXH]+", seq) and half in ("top", "bottom")
    expl = [r[0] for r in _rows(small_store, "SELECT explanation FROM plays WHERE level='MLB' AND points > 0 "
                                             "AND event = 'homer' AND explanation LIKE '%scored%' LIMIT 5")]
    assert expl and all("homered to" in e for e in expl)


def test_pitches_follow_the_count(small_store: sa.Engine) -> None:
    assert {r[0] for r in _rows(small_store, "SELECT DISTINCT level FROM pitches")} == {"MLB", "MiLB"}
    by_play: dict[int, list[tuple[int, int, int, str]]] = defaultdict(list)
    for play, n, b, s, code in _rows(small_store, "SELECT play_id, number, balls, strikes, code FROM pitches "
                                                  "ORDER BY play_id, number"):
        by_play[play].append((n, b, s, code))
    plays = {pid: (cnt, seq) for pid, cnt, seq in _rows(
        small_store, "SELECT id, the_count, sequence FROM plays WHERE level IN ('MLB', 'MiLB') "
                     "AND event NOT IN ('stolen_base', 'caught_stealing') "
                     "AND game_id IN (SELECT DISTINCT game_id FROM pitches)")}
    assert set(by_play) == set(plays)
    for play, pitches in by_play.items():
        balls = strikes = 0
        for k, (n, b, s, code) in enumerate(pitches, start=1):
            assert (n, b, s) == (k, balls, strikes), play
            if code == "B":
                balls += 1
            elif code in ("C", "S"):
                strikes += 1
            elif code == "F":
                strikes = min(2, strikes + 1)
            terminal = balls == 4 or strikes == 3 or code in ("X", "H")
            assert terminal == (k == len(pitches)), play
        cnt, seq = plays[play]
        assert cnt == f"{pitches[-1][1]}-{pitches[-1][2]}"
        assert seq == "".join(p[3] for p in pitches)
    types = {r[0] for r in _rows(small_store, "SELECT DISTINCT pitch_type FROM pitches")}
    assert {"FF", "SL", "CH"} <= types


def test_season_records_add_up(small_store: sa.Engine) -> None:
    for level, season, w, lo, ti in _rows(small_store, "SELECT level, season, sum(wins), sum(losses), sum(ties) "
                                                       "FROM team_seasons GROUP BY level, season"):
        decided, tied = _rows(small_store, "SELECT sum(winner_id IS NOT NULL), sum(winner_id IS NULL) FROM games "
                                           "WHERE level=:l AND season=:s AND state='final' AND playoff IS NULL",
                              l=level, s=season)[0]
        assert w == lo == (decided or 0), (level, season)
        assert ti == 2 * (tied or 0), (level, season)


def test_no_player_in_two_games_at_once(small_store: sa.Engine) -> None:
    clash = _rows(small_store, "SELECT pl.player_id, g.start_time, count(*) FROM player_lines pl "
                               "JOIN games g ON g.id = pl.game_id GROUP BY pl.player_id, g.start_time "
                               "HAVING count(*) > 1")
    assert clash == []
    per_day = _rows(small_store, "SELECT pl.player_id, g.game_day, count(*), max(g.game_no) FROM player_lines pl "
                                 "JOIN games g ON g.id = pl.game_id GROUP BY pl.player_id, g.game_day "
                                 "HAVING count(*) > 1")
    assert all(n == 2 and no == 2 for _, _, n, no in per_day)


def test_final_games_have_winners_and_status(small_store: sa.Engine) -> None:
    rows = _rows(small_store, "SELECT level, score_vis, score_home, winner_id, loser_id, game_status, "
                              "visitor_id, home_id, overtime FROM games WHERE state='final'")
    for level, sv, sh, w, lo, status, vis, home, ot in rows:
        innings = f"Final ({9 + int(ot)} innings)" if ot and ot.isdigit() else None
        assert status in ("Final", innings), (level, status, ot)
        if sv != sh:
            assert (w, lo) == ((vis, home) if sv > sh else (home, vis)), level
        elif w is not None:  # a knockout decided on penalties
            assert level == "FC" and ot == "PEN"
    assert any(row[5].endswith(" innings)") for row in rows), "an extra-inning game says how far it went"
    assert _rows(small_store, "SELECT count(*) FROM games WHERE level='FC' AND state='final' "
                              "AND score_vis = score_home")[0][0] > 0
    sched = _rows(small_store, "SELECT game_status, score_vis, winner_id FROM games WHERE state='scheduled'")
    assert sched and all(r == ("", None, None) for r in sched)
    assert _rows(small_store, "SELECT count(*) FROM games WHERE game_day < :d AND state != 'final'",
                 d=TODAY.isoformat())[0][0] == 0


def test_line_scores_are_per_side_and_add_up(small_store: sa.Engine) -> None:
    """Every line score has the schema's shape, ``{"visitor": [..], "home": [..]}`` (final
    basketball games once stored a bare ``[[..], [..]]`` pair); a final one has an entry per
    period played and adds up to the score (soccer's extra-time goals included)."""
    rows = _rows(small_store, "SELECT g.id, l.sport, g.state, g.line_score, g.score_vis, "
                              "g.score_home, g.periods FROM games g "
                              "JOIN levels l ON l.code = g.level WHERE g.line_score IS NOT NULL")
    finals: dict[str, int] = defaultdict(int)
    extra_time: dict[str, int] = defaultdict(int)
    for gid, sport, state, line, sv, sh, periods in rows:
        ls = orjson.loads(line) if isinstance(line, str) else line
        assert isinstance(ls, dict) and sorted(ls) == ["home", "visitor"], (gid, sport, ls)
        assert all(isinstance(x, int) for side in ls.values() for x in side), (gid, ls)
        if state == "final":
            finals[sport] += 1
            assert (sum(ls["visitor"]), sum(ls["home"])) == (sv, sh), (gid, sport, ls)
            assert max(len(ls["visitor"]), len(ls["home"])) == periods, (gid, sport, ls)
            extra_time[sport] += periods == 4 and sport == "soccer"
    assert set(finals) == {"baseball", "basketball", "hockey", "soccer"}
    assert extra_time["soccer"] > 0  # cup ties to extra time, whose goals count in periods 3-4


def test_today_has_games_under_way_for_in_season_levels(small_store: sa.Engine) -> None:
    rows = _rows(small_store, "SELECT level, state, game_status FROM games WHERE game_day = :d",
                 d=TODAY.isoformat())
    levels_today = {r[0] for r in rows}
    assert {"NBA", "NHL", "MBB"} <= levels_today
    assert not levels_today & {"MLB", "KBO", "NPB"}  # baseball is in its off-season
    live = [r for r in rows if r[1] == "inprogress"]
    assert len({r[0] for r in live}) >= 5
    for level, _, status in live:
        assert re.fullmatch(r"(Top|Bot) \d+(st|nd|rd|th)|[QH]\d \d+:\d\d|\d(st|nd|rd|th) \d+:\d\d|\d+'|HT",
                            status), (level, status)
    assert {r[1] for r in rows} >= {"final", "inprogress", "scheduled"}


def test_doubleheaders_and_extra_innings_in_mlb(small_store: sa.Engine) -> None:
    pairs = _rows(small_store, "SELECT g1.start_time, g2.start_time FROM games g2 JOIN games g1 "
                               "ON g1.level = g2.level AND g1.game_day = g2.game_day AND g1.home_id = g2.home_id "
                               "AND g1.game_no = 1 WHERE g2.level = 'MLB' AND g2.game_no = 2")
    assert pairs and all(a < b for a, b in pairs)
    assert _rows(small_store, "SELECT count(*) FROM games WHERE level='MLB' AND periods > 9 "
                              "AND overtime IS NOT NULL")[0][0] > 0


def test_playoffs_recorded(small_store: sa.Engine) -> None:
    done = _rows(small_store, "SELECT level, season, playoffs FROM seasons WHERE playoffs IS NOT NULL")
    assert {"MLB", "NBA", "NHL"} <= {r[0] for r in done}
    for level, season, playoffs in done:
        rounds = orjson.loads(playoffs) if isinstance(playoffs, str) else playoffs
        n = _rows(small_store, "SELECT count(*) FROM games WHERE level=:l AND season=:s AND playoff IS NOT NULL",
                  l=level, s=season)[0][0]
        assert rounds and n > 0


def test_odds_open_and_close_with_drift_at_pro_levels(small_store: sa.Engine) -> None:
    rows = _rows(small_store, "SELECT g.level, o.taken, o.vis_ml, o.home_ml, o.taken_at, g.start_time, o.game_id "
                              "FROM odds o JOIN games g ON g.id = o.game_id")
    levels = {r[0] for r in rows}
    assert {lv.code for lv in BY_CODE.values() if lv.tier in ("pro", "international")} <= levels
    priced = dict(_rows(small_store, "SELECT g.level, avg(g.id IN (SELECT game_id FROM odds)) FROM games g "
                                     "WHERE g.state = 'final' GROUP BY g.level"))
    assert priced["MBB"] < priced["NBA"] and priced["MB3"] < priced["MBB"]  # thinner lower down
    by_game: dict[int, dict[str, tuple[int, int]]] = defaultdict(dict)
    for level, taken, vml, hml, at, start, gid in rows:
        assert abs(vml) >= 100 and abs(hml) >= 100
        by_game[gid][taken] = (vml, hml)
        if taken == "close":
            assert str(at)[:16] == str(start)[:16]
    both = [v for v in by_game.values() if len(v) == 2]
    assert both and any(v["open"] != v["close"] for v in both)
    finals = _rows(small_store, "SELECT count(*), sum(id IN (SELECT game_id FROM odds)) FROM games "
                                "WHERE state='final' AND level IN ('MLB','NBA','NHL')")[0]
    assert 0.75 < finals[1] / finals[0] < 0.97
    # a margin: the two implied probabilities sum to more than one
    def implied(ml: int) -> float:
        return 100 / (ml + 100) if ml > 0 else -ml / (-ml + 100)
    over = [implied(v["close"][0]) + implied(v["close"][1]) for v in both]
    assert sum(over) / len(over) > 1.02


def test_transactions_match_roster_changes(small_store: sa.Engine) -> None:
    rosters = {(p, t, s) for p, t, s in _rows(small_store, "SELECT player_id, team_id, season FROM player_seasons")}
    tx = _rows(small_store, "SELECT level, date, team_id, player_id, type FROM transactions")
    assert {r[4] for r in tx} >= {"Signed", "Released", "Traded"}
    for level, day, team, player, kind in tx:
        year = int(str(day)[:4])
        seasons = {year, year + 1}
        if kind in ("Signed", "Traded"):
            assert any((player, team, s) in rosters for s in seasons), (level, day, kind)
        else:
            assert any((player, team, s - 1) in rosters for s in seasons), (level, day, kind)
    moved = _rows(small_store, "SELECT player_id, level, season FROM player_seasons GROUP BY player_id, level, "
                               "season HAVING count(*) > 1")
    traded = {r[3] for r in tx if r[4] == "Traded"}
    assert moved and all(p in traded for p, _, _ in moved)


def test_officials_news_social(small_store: sa.Engine) -> None:
    roles = {r[0] for r in _rows(small_store, "SELECT DISTINCT go.role FROM game_officials go JOIN games g "
                                              "ON g.id = go.game_id WHERE g.level = 'MLB'")}
    assert roles == {"HP", "1B", "2B", "3B"}
    handles = [r[0] for r in _rows(small_store, "SELECT handle FROM social_accounts")]
    assert len({h.lower() for h in handles}) == len(handles)
    assert _rows(small_store, "SELECT count(*) FROM social_posts WHERE game_id IS NOT NULL")[0][0] > 0
    news = _rows(small_store, "SELECT title, body, game_id, team_id, url FROM news LIMIT 50")
    assert all(t and b and g and tm and u.startswith("https://") for t, b, g, tm, u in news)
    fc = _rows(small_store, "SELECT DISTINCT league_type, gender FROM sublevels WHERE level='FC' "
                            "AND league_type IS NOT NULL")
    assert {r[0] for r in fc} >= {"Domestic", "International"} and {r[1] for r in fc} == {"M", "W"}


def test_small_realism_is_in_a_broad_range(small_store: sa.Engine) -> None:
    rows = {lv: (per, draws) for lv, per, draws in _rows(
        small_store, "SELECT level, avg(score_vis + score_home) / 2.0, avg(score_vis = score_home) FROM games "
                     "WHERE state = 'final' GROUP BY level")}
    assert 3.5 < rows["MLB"][0] < 5.8
    assert 100 < rows["NBA"][0] < 122
    assert 2.4 < rows["NHL"][0] < 3.8
    assert 0.9 < rows["FC"][0] < 1.9


def test_level_codes_are_checked() -> None:
    assert parse_levels("mlb, nba") == ["MLB", "NBA"]
    with pytest.raises(UserError, match="unknown level code 'XYZ'"):
        parse_levels("MLB,XYZ")


def test_same_seed_same_rows_and_rerun_changes_nothing(small_store: sa.Engine, tmp_path: Path) -> None:
    before = _dump(small_store)
    run(small_store, seed=SEED, size="small", now=BUILD_NOW)
    assert _dump(small_store) == before
    other = build_store(tmp_path / "again.db", workers=1)  # one process, same rows
    try:
        assert _dump(other) == before
    finally:
        other.dispose()


def test_levels_option_and_skip_real(tmp_path: Path) -> None:
    engine = build_store(tmp_path / "one.db", levels="khl")
    try:
        assert {r[0] for r in _rows(engine, "SELECT DISTINCT level FROM games")} == {"KHL"}
        with engine.begin() as conn:
            conn.execute(sa.text("UPDATE seasons SET source = 'feed:x' WHERE level = 'KHL'"))
        counts = run(engine, seed=SEED, size="small", levels="KHL,NHL", skip_real=True, now=BUILD_NOW)
        assert list(counts) == ["NHL"]
    finally:
        engine.dispose()


def test_cli_builds_and_reports(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'cli.db'}")
    try:
        args = argparse.Namespace(seed=7, size="small", levels="mhk", skip_real=False)
        assert cli(args, lambda: engine) == 0
        err = capsys.readouterr().err
        assert re.search(r"MHK: \d+ games, \d+ plays, 0 pitches, [\d.]+ s", err)
        with pytest.raises(UserError):
            cli(argparse.Namespace(seed=7, size="small", levels="NOPE", skip_real=False), lambda: engine)
    finally:
        engine.dispose()


def test_seasons_option_is_checked(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'none.db'}")
    try:
        with pytest.raises(UserError, match="--seasons must be 1 or more"):
            run(engine, seed=SEED, size="small", levels="KHL", seasons=0, now=BUILD_NOW)
    finally:
        engine.dispose()
