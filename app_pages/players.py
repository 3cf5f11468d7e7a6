"""Players and teams: search, profile, seasons, game log chart; a team's seasons and ELO."""
from __future__ import annotations

from functools import partial
from typing import Any

import pandas as pd
import streamlit as st

from components import (chart_view, charts, filters, layout, links, page_sections, phases, player_stats, plays,
                        season_facts, team_view)
from components.plain import md
from components.search import rank_by_name
from components.tables import markdown_table, percent_column, records_frame as _frame, show_table
from server.catalog import clock, seasonlines, splits
from server.catalog.parameters import SEARCH_MIN  # shorter text is searched as a surname
from services import ApiError, api

PAGE_SIZE = 50
LEADERS_SHOWN = 10
MAX_SEASON_LINES = 6  # one request each; a long career keeps its stored lines
PHASES = phases.PHASES
# a game log opens on the first of these the player has (batters, pitchers, scorers, keepers)
PREFERRED_STATS = ("PTS", "H", "G", "K", "SO", "OUTS", "REB", "AST", "SOG", "SV", "MIN")
TABS_KEY, PLAYERS_TAB, TEAMS_TAB = "tab", "Players", "Teams"
# a profile's sections, one open at a time (each opens on charts or on grids: page_sections.disclosure)
SECTION_KEY, GAME_LOG, SEASONS, STATISTICS, SPLITS = "section", "Game log", "Seasons", "Season statistics", "Splits"
SECTIONS = (GAME_LOG, SEASONS, STATISTICS, SPLITS)
RATING = "ELO"
TEAM_SECTION_KEY, TEAM_SECTIONS = "team_section", (SEASONS, RATING, SPLITS)  # its seasons first, each under its name
BASEBALL_ONLY = frozenset({SPLITS})  # the play-by-play that splits a line is baseball's
LOG_TABLE_KEY, ELO_TABLE_KEY = "log_table", "elo_table"  # the records a click below a section's chart
FORMATS = {"ELOAfter": st.column_config.NumberColumn("ELO after", format="%.1f"),
           "ELOBefore": st.column_config.NumberColumn("ELO before", format="%.1f"),
           "Change": st.column_config.NumberColumn(format="%+.1f"),
           "WinExp": percent_column("Win expectation")}


def _profile_line(detail: dict[str, Any]) -> str:
    parts = [detail.get("Team"), detail.get("Position"),
             f"bats {detail['Bats']}, throws {detail['Throws']}" if detail.get("Bats") else None,
             f"{detail['Height']}, {detail['Weight']} lb" if detail.get("Height") and detail.get("Weight") else None,
             f"born {detail['DateOfBirth']}" if detail.get("DateOfBirth") else None,
             ", ".join(str(v) for v in (detail.get("Hometown"), detail.get("Nation")) if v) or None,
             f"career {detail.get('CareerStart') or '?'}–{detail.get('CareerEnd') or '?'}"]
    return " · ".join(str(p) for p in parts if p)


def _default_stat(games: pd.DataFrame, numeric: list[str]) -> int:
    """The index of the stat a game log opens on: a preferred one the player actually recorded."""
    recorded = [c for c in numeric if pd.to_numeric(games[c], errors="coerce").fillna(0).abs().sum() > 0]
    for code in (*PREFERRED_STATS, *recorded):
        if code in recorded:
            return numeric.index(code)
    return 0


def _search(level: str, expanded: bool) -> None:
    search = filters.text_filter("Search players", key="q", placeholder="a name, or part of one",
                                 help="Part of a name (5 letters or more), or a surname of any length.")
    # while a profile is open the box stays closed until a search or a click opens it, and its
    # table is asked for only then: a profile's page costs no search request, draws no hidden table
    box = st.expander("Find a player", expanded=expanded or bool(search), icon=":material/search:",
                      on_change="rerun")
    if not box.open:
        return
    with box:
        # the API's search ignores 4 letters or fewer (docs/api/index.md): shorter text is a surname
        query = search if len(search) >= SEARCH_MIN else None
        surname = search if search and not query else None
        first = api.players(level, search=query, name=surname, page=1, size=PAGE_SIZE)
        slot = st.container()
        page_no = page_sections.pager(first.pages, key="players_page") if first.pages > 1 else 1
        found = first if page_no == 1 else api.players(level, search=query, name=surname,
                                                       page=page_no, size=PAGE_SIZE)
        with slot:
            st.caption(f"{found.total:,} players · page {page_no} of {found.pages} · click a row to open a profile"
                       + (" · best matches first" if search else ""))
            ranked = links.with_link(rank_by_name(found.frame, search or ""), "ID", "player", level)
            show_table(ranked, name="players", select_into="player", height=280,
                       columns=("ID", "Name", "Team", "Position", "CareerStart", "CareerEnd", "Nation", links.LINK_COLUMN),
                       hidden=("ID",), formats=links.link_format("profile"))


def _leaders(level: str) -> None:
    """What the page shows before a player is picked: the level's leaders of its headline stat."""
    codes = api.glossary(level, "stats")
    known = set(codes["Code"].astype(str)) if "Code" in codes.columns else set()
    stat = next((c for c in ("HR", "PTS", "G") if c in known), None)
    if stat is None:
        return
    season = api.full_season(level, clock.today())
    page = api.stats(level, "player", stat, season=season, size=LEADERS_SHOWN)
    layout.note_page(page)
    if page.frame.empty:
        st.info(season_facts.why_empty(level, season, f"{stat} statistics", computed_by=season_facts.RETABULATED))
        return
    st.caption(f"The {api.season_name(level, season)} {stat} leaders: click one to open the profile, or search above.")
    leaders = page.frame.rename(columns={"Player_ID": "ID"})
    show_table(links.with_link(leaders, "ID", "player", level), name="players_leaders", select_into="player",
               columns=("ID", "Rank", "Name", "Team", "Value", "GP", links.LINK_COLUMN), hidden=("ID",), csv=False,
               formats={**links.link_format("profile"), "Value": player_stats.stat_column(
                   stat, leaders.get("Value", pd.Series(dtype=float)))})
    box = page_sections.chart_below(f"Chart: the {stat} leaders")
    if box.open:  # the leaders first, their chart a click below (a view opens on grids or on charts)
        chart_view.draw(charts.leaders(page.frame, stat=stat,
                                       title=charts.level_season_title(level, [season], f"{stat} leaders")),
                        key="players_leaders", where=box)


def _ranked(level: str, season: int | None) -> bool:
    """Whether the season's stat tables rank anyone (its headline stat's table has a row)."""
    codes = api.glossary(level, "stats")
    known = [str(c) for c in codes.get("Code", pd.Series(dtype=str))]
    stat = next((c for c in ("HR", "PTS", "G") if c in known), None)
    return stat is not None and not api.stats(level, "player", stat, season=season, size=1).frame.empty


def _stored_lines(level: str, player_id: int, seasons: list[dict[str, Any]]) -> dict[int, dict[str, str]]:
    """Season stat lines for the seasons whose record carries none (seasons the store holds game
    by game: the API ranks them, but the profile's seasons list leaves their stats empty)."""
    missing = [int(r["Season"]) for r in seasons if isinstance(r, dict) and not r.get("Stats")
               and isinstance(r.get("Season"), int) and (r.get("Games") or 0) > 0][:MAX_SEASON_LINES]
    return {s: player_stats.season_line(api.player(level, player_id, s).get("stats")) for s in missing}


def _player(level: str) -> None:
    player_id = filters.id_input("Player ID", key="player", sidebar=True, help="Click a row of the search to pick one.")
    _search(level, expanded=not player_id)
    if not player_id:
        _leaders(level)
        return
    base = api.player(level, player_id)
    raw_seasons = [r for r in base.get("seasons") or [] if isinstance(r, dict)]
    years = [int(r["Season"]) for r in raw_seasons if r.get("Season") is not None]
    played = [int(r["Season"]) for r in raw_seasons if (r.get("Games") or 0) > 0 and r.get("Season") is not None]
    season = filters.season_picker(years, key="player_season", label="Player season",
                                   default=max(played) if played else None)
    detail = api.player(level, player_id, season) if season else base
    name = str(detail.get("Name") or f"Player {player_id}")
    st.subheader(md(name))
    st.caption(md(_profile_line(detail)))
    if detail.get("insights"):  # one list, one element: a dozen elements cost the browser more
        st.markdown("\n".join(f"- {md(line)}" for line in detail["insights"]))
    games = player_stats.game_log(detail.get("games"))
    counts = player_stats.phase_counts(games)
    after_regular = any(p != player_stats.REGULAR for p in counts)
    phase = filters.choice("Games of", PHASES, key="log_phase") if after_regular else PHASES[0]
    if not games.empty:
        games = phases.rows_in(games, phase)
    numeric = player_stats.stat_columns(games)
    stat = filters.choice("Game log stat", numeric or ["—"], key="log_stat", index=_default_stat(games, numeric),
                          drifts=True)  # a season in progress may add the stat the log opens on
    baseball = api.level_sport(level) == "baseball"
    sections = page_sections.tabs([s for s in SECTIONS if baseball or s not in BASEBALL_ONLY], key=SECTION_KEY)
    if sections[GAME_LOG].open:
        with sections[GAME_LOG]:
            if counts:
                st.caption(" · ".join(f"{n} {p.lower()} games" for p, n in counts.items())
                           + ("; season statistics and Leaders count the regular season" if len(counts) > 1 else ""))
            _game_log(level, player_id, season, name, games, numeric, stat)
    pitcher = player_stats.is_pitcher(raw_seasons)
    if sections[SEASONS].open:
        with sections[SEASONS]:
            if baseball:
                _season_lines(player_id, raw_seasons, pitcher, base.get("totals"))
            else:
                st.caption("Games: every game of the season, the postseason included.")
                lines = _stored_lines(level, player_id, raw_seasons)
                show_table(player_stats.seasons_table(raw_seasons, lines), name=f"player_{player_id}_seasons",
                           empty="No seasons held.")
    if sections[STATISTICS].open:
        with sections[STATISTICS]:
            order = seasonlines.stat_order(pitcher) if baseball else ()
            st.markdown(f"**Season {api.season_name(level, season) if season else ''} statistics and ranks** (regular season)")
            show_table(player_stats.stats_table(detail.get("stats"), order), name=f"player_{player_id}_stats",
                       empty=season_facts.why_empty(level, season, "season statistics",
                                                    computed_by=season_facts.RETABULATED, filters=f"player {name}",
                                                    unfiltered=partial(_ranked, level, season))
                       if not detail.get("stats") else "")
            if season and api.level_serves(level, "winprob"):
                _biggest_plays(level, player_id, season, detail)
    if SPLITS in sections and sections[SPLITS].open:
        with sections[SPLITS]:
            if season:
                _splits(level, season, raw_seasons, pitcher, player_id=player_id)
            else:
                st.info("Pick a season in the sidebar to split it.")


def _game_log(level: str, player_id: int, season: int | None, name: str, games: pd.DataFrame,
              numeric: list[str], stat: str) -> None:
    """The season's games: the chart of one stat, and every game's line one click below it."""
    if games.empty:  # why, in words true to the cause: nothing to draw
        st.info(season_facts.why_empty(level, season, "game logs", needs="PlayerPerfs",
                                       otherwise=f"No game of {md(name)} is held for the {level} {season} season."))
        return
    chart_view.draw(charts.game_log(games, stat=stat, title=charts.level_season_title(level, [season], f"{name}, game log: {stat}")),
                    key="game_log")
    box = page_sections.disclosure(f"Every game's line ({len(games)} games)", key=LOG_TABLE_KEY, icon=":material/table:")
    if not box.open:
        return
    # ids out, and the stats this player never recorded (a batter's pitching columns)
    unused = [c for c in numeric if not games[c].astype(bool).any()]
    log = games.drop(columns=[c for c in ("ID", "Game_ID", "Team_ID", "Opponent_ID", "Player_ID", *unused)
                              if c in games.columns])
    if "Game_ID" in games.columns and not log.empty:
        log = log.assign(**{links.LINK_COLUMN: [links.game_url(level, g, season) for g in games["Game_ID"]]})
    with box:
        show_table(log, name=f"player_{player_id}_games", formats=links.link_format("game"))


def _season_lines(player_id: int, seasons: list[dict[str, Any]], pitcher: bool,
                  season_totals: object = None) -> None:
    """Baseball's seasons as analysts read them: the batting and pitching lines
    (``server.catalog.seasonlines``), his own first, each with its career row (and a traded
    season's total over its teams)."""
    tables = player_stats.line_tables(seasons, pitcher, season_totals)
    if not tables:
        st.info("No season lines held.")
    for line, table in tables:
        st.markdown(f"**{line.title} by season** (regular season)")
        st.caption(f"{line.caption} {player_stats.CAREER}: the seasons' totals summed, its rates "
                   "computed from them.")
        show_table(table, name=f"player_{player_id}_{line.name}")


def _splits(level: str, season: int, seasons: list[dict[str, Any]], pitcher: bool, *,
            player_id: int | None = None, team_id: int | None = None) -> None:
    """The season's line divided (home and away, by month, by phase), in the season line's
    columns, as the API's ``split`` gives it: a player's own line, or a team's batting and
    pitching."""
    names = {s.label: s.name for s in splits.SPLITS}
    label = filters.choice("Split", list(names), key="split", sidebar=False)
    parts = api.splits(level, names[label], season, player_id=player_id, team_id=team_id)
    if parts.empty:
        st.info(f"No {season} plays held that say what each credited (simulated plays do not)."
                if names[label] in splits.BY_PLAY else f"No {season} games held to split.")
        return
    totals = {code: float(pd.to_numeric(parts[code]).sum()) for code in parts.columns
              if code not in ("Split", "Value", "Season") and pd.api.types.is_numeric_dtype(parts[code])}
    lines = seasonlines.lines_for(totals, pitcher) if player_id is not None else seasonlines.LINES
    for line in lines:
        st.markdown(f"**{line.title} splits, {season}** ({label.lower()}"
                    + (", regular season)" if names[label] != "phase" else ")"))
        st.caption(f"Parts: {splits.BY_NAME[names[label]].doc}. Columns as the season line's.")
        show_table(player_stats.split_table(line, parts),
                   name=f"{'player' if player_id else 'team'}_{player_id or team_id}_{line.name}_{names[label]}")


def _biggest_plays(level: str, player_id: int, season: int, detail: dict[str, Any]) -> None:
    """The season's win probability added (the stat tables' WPA) and the plays behind it."""
    stats = _frame(detail.get("stats"))
    if not {"Stat", "Value"} <= set(stats.columns) or not (stats["Stat"] == "WPA").any():
        return
    wpa = float(pd.to_numeric(stats.loc[stats["Stat"] == "WPA", "Value"]).iloc[0])
    st.metric(f"Win probability added, {api.season_name(level, season)}", f"{wpa:+.2f}",
              help="The season's sum of the change each of his plays made to his team's chance to win "
                   "(a pitcher is credited the negative of the batter's).")
    st.markdown(f"**Biggest plays** (WPA: the change in his team's chance to win, as {plays.WPA_UNIT})")
    markdown_table(plays.player_plays(api.player_plays(level, player_id, season), player_id),
                   empty="No plays held for this season.")


def _team(level: str) -> None:
    teams = api.teams(level)
    ids = filters.name_to_id(teams)
    team = filters.team_picker(list(ids))
    if not team or team not in ids:
        st.info("Pick a team in the sidebar.")
        show_table(teams, name="teams", columns=("ID", "Name", "Abbrev", "Sublevel"), hidden=("ID",),
                   empty="No teams held for this level.")
        return
    detail = api.team(level, ids[team])
    seasons = _frame(detail.get("seasons"))
    rated = set(api.season_ids(level, with_games=True))  # ELO exists only where games are held
    years = [int(s) for s in seasons.get("Season", pd.Series(dtype=int)).dropna() if int(s) in rated]
    season = filters.season_picker(years, key="team_season", label="ELO season")
    st.subheader(md(team))
    elo = detail.get("ELO")
    st.caption(md(" · ".join(str(detail.get(k)) for k in ("City", "Venue", "Sublevel") if detail.get(k)))
               + (f" · current ELO {float(elo):.1f}" if elo is not None else ""))
    baseball = api.level_sport(level) == "baseball"
    sections = page_sections.tabs([s for s in TEAM_SECTIONS if baseball or s not in BASEBALL_ONLY], key=TEAM_SECTION_KEY)
    if sections[SEASONS].open:  # each season under the name the team played it under, its record
        with sections[SEASONS]:
            show_table(team_view.seasons_table(seasons), name=f"team_{ids[team]}_seasons",
                       empty="No seasons held.")
            for note in team_view.postseason_notes(seasons, api.season_names(level)):
                st.caption(md(note))
            # a season whose source stops early: its record is short of the official one, and says so
            layout.note_data_ends(level, [int(s) for s in seasons.get("Season", pd.Series(dtype=int)).dropna()])
            if not seasons.empty:
                box = page_sections.chart_below("Chart: wins and losses by season")
                if box.open:
                    chart_view.draw(charts.win_loss(seasons, charts.level_season_title(level, seasons.get("Season", []),
                                                                           f"{team}, wins and losses by season")),
                                    key="team_seasons", where=box)
    if sections[RATING].open:
        with sections[RATING]:
            _team_elo(level, team, ids[team], season)
    if SPLITS in sections and sections[SPLITS].open:
        with sections[SPLITS]:
            if season:
                _splits(level, season, [], False, team_id=ids[team])
            else:
                st.info("Pick a season in the sidebar to split it.")


def _team_elo(level: str, team: str, team_id: int, season: int | None) -> None:
    """The team's ELO over the season, game by game one click below the chart."""
    series = api.elo(level, season=season, team_id=team_id).assign(Team=team)
    if series.empty:
        st.info(season_facts.why_empty(level, season, "ELO ratings", computed_by=season_facts.RETABULATED,
                                       filters=f"team {team}", unfiltered=lambda: not api.elo(level, season=season).empty))
        return
    chart_view.draw(charts.rating_series(series, value="ELOAfter", axis="ELO",
                                         title=charts.level_season_title(level, [season], f"{team} ELO")), key="team_elo")
    box = page_sections.disclosure(f"ELO game by game, as a table ({len(series)} games)", key=ELO_TABLE_KEY,
                                   icon=":material/table:")
    if box.open:
        with box:
            show_table(links.with_link(series, "Game_ID", "game", level), name=f"team_{team_id}_elo",
                       formats={**FORMATS, **links.link_format("game")}, hidden=("Game_ID",),
                       columns=("Date", "Opponent", "Result", "ELOBefore", "ELOAfter", "Change", "WinExp", "Game_ID",
                                links.LINK_COLUMN))


def main() -> None:
    level = filters.current_level()
    st.title(f"{level} players and teams")
    tabs = page_sections.tabs([PLAYERS_TAB, TEAMS_TAB], key=TABS_KEY)
    if tabs[PLAYERS_TAB].open:
        with tabs[PLAYERS_TAB]:
            _player(level)
    if tabs[TEAMS_TAB].open:
        with tabs[TEAMS_TAB]:
            _team(level)
    layout.copy_link()


try:
    main()
except ApiError as err:
    layout.show_error(err)
