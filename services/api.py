"""One function per question a page asks the API; DataFrames (or detail dicts) out.

Parameter names and endpoint names are those of docs/api/reference.md; ``None`` filters are dropped.
"""
from __future__ import annotations

import datetime as dt
import functools
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from services.client import MAX_FOLLOWED_PAGES, Page, Params, fetch, fetch_detail

LIST_PAGE_SIZE = 1000  # the API's maximum `max` (docs/api/index.md): fewest round trips when following pages


def _day(value: dt.date | None) -> str | None:
    return value.isoformat() if value else None


def glossary(level: str, kind: str) -> pd.DataFrame:
    return fetch("glossary", level, kind=kind).frame


def _seasons(level: str) -> Page:
    return fetch("seasons", level, {"max": LIST_PAGE_SIZE}, follow=True)


def seasons(level: str) -> pd.DataFrame:
    return _seasons(level).frame


def level_notices(level: str) -> tuple[str, ...]:
    """The credits the level's data owes (the seasons document's meta ``Notices``)."""
    return _seasons(level).notices


def season_ids(level: str, *, with_games: bool = False) -> list[int]:
    """The level's season IDs, newest first; ``with_games``: only seasons that hold games (the
    store may hold a century of season stats and two seasons of games)."""
    frame = seasons(level)
    if frame.empty or "ID" not in frame.columns:
        return []
    if with_games and "Games" in frame.columns:
        frame = frame[pd.to_numeric(frame["Games"], errors="coerce").fillna(0) > 0]
    return sorted({int(s) for s in frame["ID"]}, reverse=True)


def full_season(level: str, today: dt.date) -> int | None:
    """The newest season whose regular season has ended by ``today`` (else the newest): the one
    a page opens on when it shows leaders, not a season a few days old."""
    frame = seasons(level)
    if frame.empty or "ID" not in frame.columns:
        return None
    ends = pd.to_datetime(frame.get("End", pd.Series(dtype=str)), errors="coerce")
    done = frame[ends.dt.date < today] if "End" in frame.columns else frame.iloc[0:0]
    return int((done if len(done) else frame)["ID"].max())


def season_names(level: str) -> dict[int, str]:
    """Each season's name as the API gives it (the seasons list's ``Name``): "2022-23" for a
    season that spans two years, "2023" for one within a year, by the level's declared span
    (docs/dashboard.md, "Seasons"). Every page names a season through ``season_name``, so one rule reads
    everywhere."""
    frame = seasons(level)
    if frame.empty or not {"ID", "Name"} <= set(frame.columns):
        return {}
    return {int(s): str(n) for s, n in zip(frame["ID"], frame["Name"], strict=True) if n and not pd.isna(n)}


def season_name(level: str, season: object) -> str:
    """``season`` (its ID, the year it ends) as the level names it; the ID itself for a season
    the API does not list."""
    try:
        number = int(str(season))
    except ValueError:
        return str(season)
    return season_names(level).get(number, str(number))


def season_ends(level: str) -> dict[int, dt.date]:
    """Each season's last regular-season day (the seasons list's ``RegularEnd``; ``End`` where a
    server does not send it): where a chart marks the postseason's start. A game's own phase
    is its record's ``Phase``."""
    frame = seasons(level)
    column = "RegularEnd" if "RegularEnd" in frame.columns else "End"
    if frame.empty or not {"ID", column} <= set(frame.columns):
        return {}
    ends = pd.to_datetime(frame[column], errors="coerce")
    return {int(s): e.date() for s, e in zip(frame["ID"], ends, strict=True) if not pd.isna(e)}


def data_ends(level: str) -> dict[int, tuple[dt.date, int]]:
    """The seasons whose data stops before the season did: season -> (``DataEnd``, the last day
    with a result; ``NoResultGames``, the games listed after it without one)."""
    frame = seasons(level)
    if frame.empty or not {"ID", "DataEnd", "NoResultGames"} <= set(frame.columns):
        return {}
    ends = pd.to_datetime(frame["DataEnd"], errors="coerce")
    missing = pd.to_numeric(frame["NoResultGames"], errors="coerce").fillna(0)
    return {int(s): (e.date(), int(n)) for s, e, n in zip(frame["ID"], ends, missing, strict=True)
            if n > 0 and not pd.isna(e)}


def teams(level: str, season: int | None = None) -> pd.DataFrame:
    return fetch("teams", level, {"season": season, "max": LIST_PAGE_SIZE}, follow=True).frame


def team(level: str, team_id: int) -> dict[str, Any]:
    return fetch_detail("teams", level, team_id)[0]


def _game_params(season: int | None, team_id: int | None, start: dt.date | None, end: dt.date | None,
                 limit: str | None, status: str | None, phase: str | None,
                 sublevel: int | None = None) -> Params:
    return {"season": season, "team": team_id, "start": _day(start), "end": _day(end), "limit": limit,
            "status": status, "phase": phase, "sublevel": sublevel}


def games(level: str, *, season: int | None = None, team_id: int | None = None,
          start: dt.date | None = None, end: dt.date | None = None, limit: str | None = None,
          status: str | None = None, phase: str | None = None, sublevel: int | None = None,
          page: int = 1, size: int = 50) -> Page:
    """One server-side page of games, newest first; ``status`` is a game state (final, scheduled,
    inprogress, postponed, noresult), ``phase`` one or more phases (``playin,postseason``) and
    ``sublevel`` one league or competition, filtered by the API so that totals and pages stay
    exact."""
    params = {**_game_params(season, team_id, start, end, limit, status, phase, sublevel),
              "page": page, "max": size}
    return fetch("games", level, params)


def all_games(level: str, *, season: int | None = None, team_id: int | None = None,
              start: dt.date | None = None, end: dt.date | None = None, limit: str | None = None,
              status: str | None = None, phase: str | None = None, sublevel: int | None = None,
              max_pages: int = MAX_FOLLOWED_PAGES) -> Page:
    """Every game matching the filters, newest first, following ``Next_Page`` for up to
    ``max_pages`` pages of ``LIST_PAGE_SIZE`` (``truncated`` says when that bound was hit)."""
    params = {**_game_params(season, team_id, start, end, limit, status, phase, sublevel),
              "max": LIST_PAGE_SIZE}
    return fetch("games", level, params, follow=True, max_pages=max_pages)


def game(level: str, game_id: int) -> dict[str, Any]:
    return fetch_detail("games", level, game_id)[0]


@dataclass(frozen=True)
class BoxScore:
    """A game's box score as the API's ``boxscores`` endpoint gives it: every player's line
    (Name, Team, Home, Starter, Position, BattingOrder, then the sport's stat codes), each side's
    team totals (``visitor`` and ``home``: baseball R, H, E), and baseball's decisions (W, L, S
    with the pitcher's record) and notes under the box (per side: 2B, 3B, HR, SB, CS, E)."""

    players: pd.DataFrame
    totals: dict[str, dict[str, Any]]
    decisions: list[dict[str, Any]] = field(default_factory=list)
    notes: dict[str, list[dict[str, Any]]] = field(default_factory=dict)


def boxscore(level: str, game_id: int) -> BoxScore:
    record = fetch_detail("boxscores", level, game_id, version="v2")[0]
    totals = record.get("totals")
    decisions, notes = record.get("decisions"), record.get("notes")
    return BoxScore(pd.DataFrame(record.get("players") or []),
                    totals if isinstance(totals, dict) else {},
                    decisions if isinstance(decisions, list) else [],
                    notes if isinstance(notes, dict) else {})


def ratings(endpoint: str, level: str, *, season: int | None = None, team_id: int | None = None,
            date: dt.date | None = None) -> pd.DataFrame:
    """Rankings of the ``elo`` or ``rpi`` endpoint: the newest, on a date, or a team's series
    over a season (``team_id``)."""
    params: Params = {"season": season, "team": team_id, "date": _day(date), "max": LIST_PAGE_SIZE}
    return fetch(endpoint, level, params, follow=True).frame


elo = functools.partial(ratings, "elo")
rpi = functools.partial(ratings, "rpi")


def forecasts(level: str, *, season: int | None = None, team_id: int | None = None,
              start: dt.date | None = None, end: dt.date | None = None, phase: str | None = None) -> Page:
    params: Params = {"season": season, "team": team_id, "start": _day(start), "end": _day(end),
                      "phase": phase, "max": LIST_PAGE_SIZE}
    return fetch("forecasts", level, params, version="v2", follow=True)


def projections(level: str, *, season: int | None = None, date: dt.date | None = None,
                team_id: int | None = None) -> Page:
    """Season projections: one record per team as of the end of ``date`` (default: the newest
    snapshot of the season), or with ``team_id`` and no date that team's series over the season."""
    params: Params = {"season": season, "date": _day(date), "team": team_id, "max": LIST_PAGE_SIZE}
    return fetch("projections", level, params, version="v2", follow=True)


def standings(level: str, *, season: int | None = None, date: dt.date | None = None,
              sublevel: int | None = None) -> Page:
    """The season's table as of the end of ``date`` (default: the season so far), one record per
    team in league, division and rank order; ``sublevel``: one league's, or a cup's groups."""
    return fetch("standings", level, {"season": season, "date": _day(date), "sublevel": sublevel},
                 version="v2")


def moneyline(level: str, *, season: int | None = None, team_id: int | None = None) -> pd.DataFrame:
    params: Params = {"season": season, "team": team_id, "max": LIST_PAGE_SIZE}
    return fetch("moneyline", level, params, version="v2", follow=True).frame


def playbyplay(level: str, game_id: int) -> Page:
    return fetch("playbyplay", level, {"game": game_id, "max": LIST_PAGE_SIZE}, follow=True)


def player_plays(level: str, player_id: int, season: int) -> pd.DataFrame:
    """Every play of a season naming the player (as its player, or as the pitcher)."""
    return fetch("playbyplay", level, {"player": player_id, "season": season, "max": LIST_PAGE_SIZE},
                 follow=True).frame


def winprob(level: str, game_id: int) -> pd.DataFrame:
    """One game's win probability line: the pre-game forecast, then every play in order."""
    return fetch("winprob", level, {"game": game_id}, version="v2").frame


def calibration(level: str, season: int, phase: str | None = None) -> pd.DataFrame:
    """The in-game win probability's calibration in a season beside the pre-game forecast's:
    ten bins of each (``Forecast`` ingame, pregame) with that forecast's season scores."""
    return fetch("calibration", level, {"season": season, "phase": phase}, version="v2").frame


@dataclass(frozen=True)
class RunEnvironment:
    """A baseball season's run expectancy (one row per base-out state: Bases, Outs,
    RunExpectancy, Count) and its constants (the ``constants`` object: wOBA weights, scale,
    league wOBA, runs per PA, FIP constant, ``leagues``, ``parks``)."""

    states: pd.DataFrame
    constants: dict[str, Any]


def run_environment(level: str, season: int | None) -> RunEnvironment:
    page = fetch("runexpectancy", level, {"season": season}, version="v2")
    found = page.records[0].get("constants") if page.records else None
    states = page.frame[[c for c in page.frame.columns if not str(c).startswith("constants")]]
    return RunEnvironment(states, found if isinstance(found, dict) else {})


def pitches(level: str, game_id: int) -> pd.DataFrame:
    return fetch("pitch", level, {"game": game_id, "max": LIST_PAGE_SIZE}, follow=True).frame


def players(level: str, *, search: str | None = None, name: str | None = None, page: int = 1,
            size: int = 50) -> Page:
    """Players of the level: ``search`` (5 letters or more) matches any part of a name, best
    matches first; ``name`` is a full name or a surname of any length (``Ruth``)."""
    return fetch("players", level, {"search": search or None, "name": name or None, "page": page,
                                    "max": size})


def player(level: str, player_id: int, season: int | None = None) -> dict[str, Any]:
    return fetch_detail("players", level, player_id, {"season": season})[0]


def splits(level: str, split: str, season: int, *, player_id: int | None = None,
           team_id: int | None = None) -> pd.DataFrame:
    """A season line divided (``split``: homeaway, month, phase), one row per part: a player's
    (``playerperfs``) or, without a player, the team's (``teamperfs``)."""
    endpoint = "playerperfs" if player_id is not None else "teamperfs"
    params: Params = {"split": split, "season": season, "player": player_id,
                      "team": team_id if player_id is None else None}
    return fetch(endpoint, level, params).frame


def stats(level: str, kind: str, stat: str, *, season: int | None = None, team_id: int | None = None,
          qualifiers: bool = False, phase: str | None = None, size: int = 100) -> Page:
    """A stat table in ranking order: the regular season's, or the ``phase`` named (one)."""
    params: Params = {"stat": stat, "season": season, "team": team_id, "max": size, "phase": phase,
                      "limit": "qualifiers" if qualifiers and kind == "player" else None}
    return fetch("stats", level, params, kind=kind)


def _level_row(level: str, column: str) -> object:
    """One field of the level's glossary row (None when the API does not list it)."""
    table = glossary(level, "levels")
    if table.empty or "ID" not in table.columns or column not in table.columns:
        return None
    match = table[table["ID"].astype(str).str.lower() == level.lower()]
    return match[column].iloc[0] if len(match) else None


def level_sport(level: str) -> str:
    """The sport of a level from the glossary (``baseball``, ``basketball``, ...), '' if unknown."""
    sport = _level_row(level, "Sport")
    return str(sport).lower() if sport is not None else ""


def level_serves(level: str, endpoint: str) -> bool:
    """Whether ``endpoint`` serves the level, as the glossary's levels say (docs/api/index.md)."""
    endpoints = _level_row(level, "Endpoints")
    return isinstance(endpoints, list | tuple) and endpoint in endpoints


def outcomes(level: str, season: int) -> pd.DataFrame:
    """A football season's home/draw/away forecasts scored per league (RPS, log loss, Brier),
    ours beside each comparison forecaster on the same matches; each row's ``calibration`` is
    its list of bins per outcome."""
    return fetch("outcomes", level, {"season": season}, version="v2").frame
