"""The store's one schema, for SQLite and PostgreSQL alike (SQLAlchemy Core).

Canonical tables hold what ingesters load; derived tables (``elo_history``, ``rpi``, ``forecasts``,
``stat_tables``) are rebuilt by re-tabulation. Every resource has a stable integer ``id`` that is
global across levels; ``source_keys`` maps each source's own key to it, which is what makes a
re-run ingest change nothing.

Conventions: dates are ``Date``; instants are naive UTC ``DateTime``; yes/no facts are ``Boolean``
(the documents render them ``Y``/``N``); a game line's stats are a JSON object of the codes in
``server.catalog.linestats``.
"""
from __future__ import annotations

import sqlalchemy as sa

from server.catalog.phases import NO_RESULT, REGULAR

SCHEMA_VERSION = 11  # the last of server.store.migrations.MIGRATIONS, where each version is described

metadata = sa.MetaData()

_id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")  # INTEGER PRIMARY KEY is a rowid alias


def _pk() -> sa.Column[int]:
    return sa.Column("id", _id, primary_key=True, autoincrement=False)


def _level() -> sa.Column[str]:
    return sa.Column("level", sa.String(8), nullable=False)


store_info = sa.Table(
    "store_info", metadata,
    sa.Column("key", sa.String(64), primary_key=True),
    sa.Column("value", sa.Text, nullable=False),
)

source_keys = sa.Table(
    "source_keys", metadata,
    sa.Column("kind", sa.String(24), primary_key=True),  # team, player, game, venue, official, ...
    sa.Column("source", sa.String(24), primary_key=True),  # simulated, retrosheet, lahman, feed:x
    sa.Column("key", sa.String(160), primary_key=True),
    sa.Column("id", _id, nullable=False),
    sa.Index("ix_source_keys_kind_id", "kind", "id"),
)

# ---------------------------------------------------------------- reference data

levels = sa.Table(
    "levels", metadata,
    sa.Column("code", sa.String(8), primary_key=True),
    sa.Column("name", sa.Text, nullable=False),
    sa.Column("sport", sa.String(16), nullable=False),
    sa.Column("gender", sa.String(1), nullable=False),
    sa.Column("tier", sa.String(16), nullable=False),
    sa.Column("season_span", sa.String(16), nullable=False),
    sa.Column("college", sa.Boolean, nullable=False),
)

sublevels = sa.Table(
    "sublevels", metadata,
    _pk(), _level(),
    sa.Column("name", sa.Text, nullable=False),
    sa.Column("abbrev", sa.String(16)),
    sa.Column("type", sa.String(24), nullable=False),  # League, Conference, Division, Classification
    sa.Column("parent_id", _id),
    # Competition facts: used by FC leagues (the League* game fields); null elsewhere.
    sa.Column("league_type", sa.String(16)),  # Domestic | Cup | International
    sa.Column("nation", sa.Text),
    sa.Column("gender", sa.String(1)),
    sa.Column("factor", sa.Float),
    sa.Index("ix_sublevels_level", "level"),
)

seasons = sa.Table(
    "seasons", metadata,
    _level(),
    sa.Column("season", sa.Integer, nullable=False),  # the year in which the season ends
    sa.Column("name", sa.Text),  # e.g. "2022-23"
    sa.Column("start", sa.Date),
    sa.Column("end", sa.Date),
    sa.Column("source", sa.String(24), nullable=False),
    sa.Column("playoffs", sa.JSON),  # list of rounds / series, when known
    sa.PrimaryKeyConstraint("level", "season"),
)

# Which kinds of data each season holds (the seasons endpoint's Granularity), kept beside the
# data by every ingest: server.store.season_data
season_data = sa.Table(
    "season_data", metadata,
    _level(),
    sa.Column("season", sa.Integer, nullable=False),
    *(sa.Column(kind, sa.Boolean, nullable=False)
      for kind in ("player_lines", "team_lines", "plays", "pitches", "game_officials", "odds")),
    sa.PrimaryKeyConstraint("level", "season"),
)

# How many rows of the largest lists each season holds (games, plays, pitches of the level's
# games of that season), kept beside the data by every ingest: a plain list's total is read here
# (server.store.season_data). A season's games, plays or pitches without a row: none.
season_rows = sa.Table(
    "season_rows", metadata,
    _level(),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("season", sa.Integer, nullable=False),
    sa.Column("row_count", sa.BigInteger, nullable=False),
    sa.PrimaryKeyConstraint("level", "kind", "season"),
)

venues = sa.Table(
    "venues", metadata,
    _pk(),
    sa.Column("name", sa.Text, nullable=False),
    sa.Column("city_state", sa.Text),
    sa.Column("nation", sa.String(2)),
    sa.Column("latitude", sa.Float),
    sa.Column("longitude", sa.Float),
    sa.Column("capacity", sa.Integer),
)

teams = sa.Table(
    "teams", metadata,
    _pk(), _level(),
    sa.Column("name", sa.Text, nullable=False),  # full name, e.g. "New York Yankees"
    sa.Column("abbrev", sa.String(12)),
    sa.Column("city", sa.Text),
    sa.Column("nickname", sa.Text),
    sa.Column("sublevel_id", _id),  # current league/conference
    sa.Column("venue_id", _id),
    sa.Column("nation", sa.String(2)),
    sa.Column("source", sa.String(24), nullable=False),
    sa.Index("ix_teams_level", "level"),
)

team_seasons = sa.Table(
    "team_seasons", metadata,
    sa.Column("team_id", _id, nullable=False),
    _level(),
    sa.Column("season", sa.Integer, nullable=False),
    sa.Column("sublevel_id", _id),  # its league or conference (a simulated level: its division)
    # its division that season (a sublevel of type Division under the league), when it had one:
    # Lahman's divID, the declared real divisions, a simulated or feed team's own sublevel
    sa.Column("division_id", _id),
    # what the team was called that season (the Boston Braves of 1935); empty where the source
    # gives no season of its own, and then the team's current name, city and abbreviation apply
    sa.Column("name", sa.Text),
    sa.Column("abbrev", sa.String(12)),
    sa.Column("city", sa.Text),
    sa.Column("nickname", sa.Text),
    sa.Column("wins", sa.Integer),
    sa.Column("losses", sa.Integer),
    sa.Column("ties", sa.Integer),
    # the source's park factors, 100 neutral (Lahman's BPF and PPF: the park's effect on its
    # batters and on its pitchers, Baseball-Reference's multi-year factors); OPS+ and ERA+ of a
    # season without plays read them (docs/metrics.md). ``init`` adds them to an older store.
    sa.Column("batting_park_factor", sa.Float),
    sa.Column("pitching_park_factor", sa.Float),
    sa.PrimaryKeyConstraint("team_id", "season"),
    sa.Index("ix_team_seasons_level_season", "level", "season"),
)

players = sa.Table(
    "players", metadata,
    _pk(),
    sa.Column("name", sa.Text, nullable=False),  # full name as displayed
    sa.Column("first_name", sa.Text),
    sa.Column("last_name", sa.Text),
    sa.Column("height", sa.String(8)),  # X-XX (feet-inches)
    sa.Column("weight", sa.Integer),  # pounds
    sa.Column("birth_date", sa.Date),
    sa.Column("hometown", sa.Text),  # city and state / region
    sa.Column("nation", sa.Text),  # country name
    sa.Column("flag", sa.String(2)),  # ISO 3166-1 alpha-2
    sa.Column("bats", sa.String(1)),  # L | R | S (baseball)
    sa.Column("throws", sa.String(1)),  # L | R
    sa.Column("position", sa.String(8)),
    sa.Column("debut", sa.Date),
    sa.Column("source", sa.String(24), nullable=False),
    sa.Column("updated", sa.Date),
    # the name as a search compares it (server.store.folding): kept by every ingest's commit
    sa.Column("search_name", sa.Text),
    sa.Index("ix_players_name", "last_name", "first_name"),
    # the players list's order: its first page walks a hundred players, not a level's seasons
    sa.Index("ix_players_name_order", "name", "id"),
)

player_seasons = sa.Table(
    "player_seasons", metadata,
    sa.Column("player_id", _id, nullable=False),
    _level(),
    sa.Column("season", sa.Integer, nullable=False),
    sa.Column("team_id", _id, nullable=False),
    sa.Column("position", sa.String(8)),
    sa.Column("jersey", sa.String(4)),
    sa.Column("stats", sa.JSON),  # season totals from a source that has no game lines (Lahman)
    sa.PrimaryKeyConstraint("player_id", "level", "season", "team_id"),
    sa.Index("ix_player_seasons_team", "team_id", "season"),
    sa.Index("ix_player_seasons_level_season", "level", "season"),
)

officials = sa.Table(
    "officials", metadata,
    _pk(),
    sa.Column("name", sa.Text, nullable=False),
    sa.Column("first_name", sa.Text),
    sa.Column("last_name", sa.Text),
    sa.Column("source", sa.String(24), nullable=False),
)

# ---------------------------------------------------------------- games and what happens in them

# The values of games.state; the API's ``status`` filter takes exactly these. ``noresult``: a
# game on a past day the source has no result for (``server.catalog.phases``).
GAME_STATES = ("final", "scheduled", "inprogress", "postponed", NO_RESULT)

games = sa.Table(
    "games", metadata,
    _pk(), _level(),
    sa.Column("season", sa.Integer, nullable=False),
    sa.Column("sublevel_id", _id),  # league (FC: the competition) or conference of the game
    sa.Column("game_day", sa.Date, nullable=False),  # local date of the game
    sa.Column("game_no", sa.Integer, nullable=False, default=1),  # 2 = second of a doubleheader
    sa.Column("start_time", sa.DateTime),  # UTC
    sa.Column("visitor_id", _id, nullable=False),
    sa.Column("home_id", _id, nullable=False),
    sa.Column("score_vis", sa.Integer),
    sa.Column("score_home", sa.Integer),
    sa.Column("state", sa.String(12), nullable=False),  # one of GAME_STATES
    sa.Column("game_status", sa.Text, nullable=False, default=""),  # "Final", "Top 5th", "Q3 4:12"
    sa.Column("overtime", sa.Text),  # extra innings / overtimes, e.g. "2" or "OT", "SO"
    sa.Column("periods", sa.Integer),  # periods / innings played
    sa.Column("winner_id", _id),
    sa.Column("loser_id", _id),
    sa.Column("venue_id", _id),
    sa.Column("neutral", sa.Boolean, nullable=False, default=False),
    sa.Column("playoff", sa.String(40)),  # round name when a playoff game, else null
    # preseason | regular | playin | postseason (server.catalog.phases), as the source says
    sa.Column("phase", sa.String(12), nullable=False, default=REGULAR, server_default=REGULAR),
    sa.Column("attendance", sa.Integer),
    sa.Column("duration", sa.Integer),  # minutes
    sa.Column("line_score", sa.JSON),  # {"visitor": [..per period..], "home": [...]}
    sa.Column("info", sa.JSON),  # source extras: weather, day/night, starting pitchers, ...
    sa.Column("source", sa.String(24), nullable=False),
    sa.Index("ix_games_level_day", "level", "game_day", "id"),
    sa.Index("ix_games_level_season_day", "level", "season", "game_day", "id"),
    sa.Index("ix_games_home_season", "home_id", "season", "game_day", "id"),
    sa.Index("ix_games_visitor_season", "visitor_id", "season", "game_day", "id"),
    sa.Index("ix_games_venue", "venue_id"),
    sa.Index("ix_games_level_state", "level", "state"),
    sa.Index("ix_games_level_phase", "level", "phase", "season"),
)

game_officials = sa.Table(
    "game_officials", metadata,
    sa.Column("game_id", _id, nullable=False),
    sa.Column("official_id", _id, nullable=False),
    sa.Column("role", sa.String(24), nullable=False),  # HP, 1B, 2B, 3B, LF, RF; Referee, Umpire...
    sa.PrimaryKeyConstraint("game_id", "role"),
    sa.Index("ix_game_officials_official", "official_id"),
)

# Play-by-play. id = game_id * 1000 + seq, so a re-load keeps every id (see loader.replace_children).
plays = sa.Table(
    "plays", metadata,
    _pk(), _level(),
    sa.Column("game_id", _id, nullable=False),
    sa.Column("seq", sa.Integer, nullable=False),  # order within the game, from 1
    sa.Column("period", sa.Integer, nullable=False),  # inning / quarter / period / half, from 1
    sa.Column("half", sa.String(8)),  # baseball: "top" | "bottom"
    sa.Column("clock", sa.String(8)),  # time left in the period, "MM:SS", when the sport has one
    sa.Column("team_id", _id),  # the team the play is credited to (batting team in baseball)
    sa.Column("opponent_id", _id),
    sa.Column("player_id", _id),  # the most relevant player (batter, shooter, scorer)
    sa.Column("pitcher_id", _id),  # baseball
    sa.Column("event", sa.String(24)),  # machine code: single, homer, strikeout, shot, goal, sub..
    sa.Column("explanation", sa.Text, nullable=False),
    sa.Column("scoring", sa.Boolean, nullable=False),
    sa.Column("points", sa.Integer, nullable=False, default=0),  # runs/points/goals on the play
    sa.Column("tags", sa.Text),  # pipe separated
    sa.Column("the_count", sa.String(4)),  # B-S before the final pitch (baseball)
    sa.Column("pitcher_hand", sa.String(1)),
    sa.Column("batter_hand", sa.String(1)),
    sa.Column("sequence", sa.Text),  # pitch sequence or sub-events
    sa.Column("score_vis", sa.Integer, nullable=False),  # after the play
    sa.Column("score_home", sa.Integer, nullable=False),
    # Baseball's base-out state after the play (the win probability model reads it): outs in the
    # half inning (3 once it is over) and the runners on base as bits, 1 first, 2 second, 4 third
    # (0 once the half is over). Null in the other sports and in plays ingested before schema
    # version 4.
    sa.Column("outs", sa.SmallInteger),
    sa.Column("bases", sa.SmallInteger),
    # Baseball: what the play added to each player's game line, {player ID: {code: n}} (every
    # code but those a game credits as a whole: GS, W, L, SV, ER, PIT); the splits by hand read
    # it. Null where the source's plays were ingested before it, or carry no credits.
    sa.Column("credits", sa.JSON),
    # Baseball's base-out state when the play began, as the source recorded it (an extra inning's
    # placed runner included): the play-by-play prints it. Null where the source does not write it.
    sa.Column("outs_before", sa.SmallInteger),
    sa.Column("bases_before", sa.SmallInteger),
    sa.Index("ix_plays_game", "game_id", "seq"),
    sa.Index("ix_plays_player", "player_id"),
    sa.Index("ix_plays_team", "team_id"),
    sa.Index("ix_plays_level", "level", "id"),
)

# id = game_id * 10000 + n (n counts the game's pitches from 1).
pitches = sa.Table(
    "pitches", metadata,
    _pk(), _level(),
    sa.Column("game_id", _id, nullable=False),
    sa.Column("play_id", _id),
    sa.Column("inning", sa.Integer, nullable=False),
    sa.Column("half", sa.String(8), nullable=False),
    sa.Column("pitcher_id", _id),
    sa.Column("batter_id", _id),
    sa.Column("number", sa.Integer, nullable=False),  # within the plate appearance, from 1
    sa.Column("balls", sa.Integer, nullable=False),  # before the pitch
    sa.Column("strikes", sa.Integer, nullable=False),
    sa.Column("code", sa.String(2), nullable=False),  # Retrosheet pitch code (B, C, S, F, X, ...)
    sa.Column("result", sa.Text, nullable=False),  # "Ball", "Called strike", "In play", ...
    sa.Column("pitch_type", sa.String(4)),
    sa.Column("speed", sa.Float),
    sa.Index("ix_pitches_game", "game_id"),
    sa.Index("ix_pitches_pitcher", "pitcher_id"),
    sa.Index("ix_pitches_batter", "batter_id"),
    sa.Index("ix_pitches_level", "level", "id"),
)

# A baseball pitcher's record through each game he had a decision in: his season's wins,
# losses, saves and holds in the game's phase through that game (box scores print it, "W: Leclerc
# (1-0)"), one row per line with a decision (``id``: the line's), kept by every ingest beside
# ``season_rows``: server.store.season_data
pitcher_records = sa.Table(
    "pitcher_records", metadata,
    _pk(), _level(),
    sa.Column("game_id", _id, nullable=False),
    sa.Column("player_id", _id, nullable=False),
    *(sa.Column(name, sa.Integer, nullable=False) for name in ("wins", "losses", "saves", "holds")),
    sa.Index("ix_pitcher_records_game", "game_id"),
)

# Game lines. player_lines.id = game_id * 100 + k; team_lines.id = game_id * 10 + (0 visitor, 1 home).
player_lines = sa.Table(
    "player_lines", metadata,
    _pk(), _level(),
    sa.Column("season", sa.Integer, nullable=False),
    sa.Column("game_id", _id, nullable=False),
    sa.Column("game_day", sa.Date, nullable=False),
    sa.Column("player_id", _id, nullable=False),
    sa.Column("team_id", _id, nullable=False),
    sa.Column("opponent_id", _id, nullable=False),
    sa.Column("home", sa.Boolean, nullable=False),
    sa.Column("starter", sa.Boolean),
    sa.Column("position", sa.String(8)),
    sa.Column("stats", sa.JSON, nullable=False),
    # Baseball: the player's place in the batting order, 1-9 (null: he never batted in it, as a
    # pitcher the designated hitter batted for, or the source does not say); a box score lists a
    # place's players in the order of their lines (``id``), the starter first.
    sa.Column("batting_order", sa.SmallInteger),
    sa.Index("ix_player_lines_game", "game_id"),
    sa.Index("ix_player_lines_player", "player_id", "game_day"),
    sa.Index("ix_player_lines_team", "team_id", "game_day"),
    sa.Index("ix_player_lines_level_day", "level", "game_day", "id"),
    sa.Index("ix_player_lines_level_season", "level", "season"),
)

team_lines = sa.Table(
    "team_lines", metadata,
    _pk(), _level(),
    sa.Column("season", sa.Integer, nullable=False),
    sa.Column("game_id", _id, nullable=False),
    sa.Column("game_day", sa.Date, nullable=False),
    sa.Column("team_id", _id, nullable=False),
    sa.Column("opponent_id", _id, nullable=False),
    sa.Column("home", sa.Boolean, nullable=False),
    sa.Column("stats", sa.JSON, nullable=False),
    sa.Index("ix_team_lines_game", "game_id"),
    sa.Index("ix_team_lines_team", "team_id", "game_day"),
    sa.Index("ix_team_lines_level_day", "level", "game_day", "id"),
)

# Bookmaker lines: one row per snapshot; "open" ~24 h before the start, "close" at the start.
odds = sa.Table(
    "odds", metadata,
    sa.Column("game_id", _id, nullable=False),
    sa.Column("taken", sa.String(8), nullable=False),  # open | close
    sa.Column("taken_at", sa.DateTime, nullable=False),  # UTC
    sa.Column("book", sa.Text),
    sa.Column("vis_ml", sa.Integer),  # American format, e.g. +135 / -150
    sa.Column("home_ml", sa.Integer),
    sa.Column("spread", sa.Float),  # home team's spread (negative = home favoured)
    sa.Column("total", sa.Float),  # over/under line
    sa.PrimaryKeyConstraint("game_id", "taken"),
)

# Other forecasters' published pre-game home-win chances (``server.catalog.forecasters``), one row
# per game and forecaster, as the source gives them. Canonical (an ingest loads them; re-tabulation
# keeps them) and never an input to our models: ``evaluate``, the forecasts endpoint and the
# dashboard score and show them beside ours.
comparison_forecasts = sa.Table(
    "comparison_forecasts", metadata,
    sa.Column("game_id", _id, nullable=False),
    sa.Column("forecaster", sa.String(24), nullable=False),
    _level(),
    sa.Column("season", sa.Integer, nullable=False),
    sa.Column("home_win_prob", sa.Float, nullable=False),  # 0-1
    # football's three outcomes (FiveThirtyEight's SPI); null where only a home win is published
    sa.Column("draw_prob", sa.Float), sa.Column("vis_win_prob", sa.Float),
    sa.Column("source", sa.String(24), nullable=False),
    sa.PrimaryKeyConstraint("game_id", "forecaster"),
    sa.Index("ix_comparison_forecasts_season", "level", "season", "forecaster"),
)

# ---------------------------------------------------------------- around the games

news = sa.Table(
    "news", metadata,
    _pk(), _level(),
    sa.Column("published", sa.DateTime, nullable=False),
    sa.Column("title", sa.Text, nullable=False),
    sa.Column("summary", sa.Text),
    sa.Column("body", sa.Text),
    sa.Column("url", sa.Text),
    sa.Column("source", sa.Text),
    sa.Column("team_id", _id),
    sa.Column("game_id", _id),
    sa.Index("ix_news_level_published", "level", "published", "id"),
    sa.Index("ix_news_team", "team_id"),
    sa.Index("ix_news_game", "game_id"),
)

transactions = sa.Table(
    "transactions", metadata,
    _pk(), _level(),
    sa.Column("date", sa.Date, nullable=False),
    sa.Column("team_id", _id),
    sa.Column("player_id", _id),
    sa.Column("type", sa.String(24), nullable=False),  # Signed, Released, Traded, Recalled, ...
    sa.Column("description", sa.Text, nullable=False),
    sa.Index("ix_transactions_level_date", "level", "date", "id"),
    sa.Index("ix_transactions_team", "team_id"),
)

social_accounts = sa.Table(
    "social_accounts", metadata,
    _pk(), _level(),
    sa.Column("handle", sa.String(64), nullable=False),  # unique, matched case-insensitively
    sa.Column("handle_lower", sa.String(64), nullable=False, unique=True),
    sa.Column("name", sa.Text, nullable=False),
    sa.Column("platform", sa.String(24), nullable=False),
    sa.Column("type", sa.String(8), nullable=False),  # team | player
    sa.Column("team_id", _id),
    sa.Column("player_id", _id),
    sa.Column("last_post", sa.DateTime),
    sa.Index("ix_social_accounts_level", "level", "last_post"),
)

social_posts = sa.Table(
    "social_posts", metadata,
    _pk(),
    sa.Column("account_id", _id, nullable=False),
    sa.Column("posted", sa.DateTime, nullable=False),
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("url", sa.Text),
    sa.Column("game_id", _id),
    sa.Index("ix_social_posts_account", "account_id", "posted"),
)

glossary_stats = sa.Table(
    "glossary_stats", metadata,
    sa.Column("sport", sa.String(16), nullable=False),
    sa.Column("type", sa.String(8), nullable=False),  # player | team
    sa.Column("code", sa.String(16), nullable=False),
    sa.Column("name", sa.Text, nullable=False),
    sa.Column("description", sa.Text, nullable=False),
    sa.Column("order", sa.String(4), nullable=False),  # desc | asc
    sa.Column("qualifier", sa.Text),  # human-readable qualifier rule, null when none
    sa.PrimaryKeyConstraint("sport", "type", "code"),
)

nations = sa.Table(
    "nations", metadata,
    sa.Column("code", sa.String(2), primary_key=True),
    sa.Column("name", sa.Text, nullable=False),
)

api_keys = sa.Table(
    "api_keys", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("key_hash", sa.String(64), nullable=False, unique=True),  # HMAC-SHA256, hex
    sa.Column("hint", sa.String(8), nullable=False),  # last characters, for `keys list`
    sa.Column("label", sa.Text),
    sa.Column("levels", sa.Text, nullable=False),  # comma separated codes, or "*"
    sa.Column("rate", sa.Integer, nullable=False),  # requests per minute
    sa.Column("created", sa.DateTime, nullable=False),
    sa.Column("last_used", sa.DateTime),
    sa.Column("revoked", sa.DateTime),
)

# ---------------------------------------------------------------- derived (re-tabulation)

# One row per team per game, in game order: the ELO series and, at its newest row, the rating.
elo_history = sa.Table(
    "elo_history", metadata,
    _level(),
    sa.Column("season", sa.Integer, nullable=False),
    sa.Column("team_id", _id, nullable=False),
    sa.Column("game_id", _id, nullable=False),
    sa.Column("date", sa.Date, nullable=False),
    sa.Column("opponent_id", _id, nullable=False),
    sa.Column("elo_before", sa.Float, nullable=False),
    sa.Column("elo_after", sa.Float, nullable=False),
    sa.Column("win_exp", sa.Float, nullable=False),
    sa.Column("result", sa.String(1), nullable=False),  # W | L | T
    sa.PrimaryKeyConstraint("team_id", "game_id"),
    sa.Index("ix_elo_history_level_date", "level", "date"),
    sa.Index("ix_elo_history_level_season", "level", "season", "team_id", "date"),
)

rpi = sa.Table(
    "rpi", metadata,
    _level(),
    sa.Column("season", sa.Integer, nullable=False),
    sa.Column("date", sa.Date, nullable=False),  # ratings as of the end of this date
    sa.Column("team_id", _id, nullable=False),
    sa.Column("rank", sa.Integer, nullable=False),
    sa.Column("rpi", sa.Float, nullable=False),
    sa.Column("wp", sa.Float, nullable=False),
    sa.Column("owp", sa.Float, nullable=False),
    sa.Column("oowp", sa.Float, nullable=False),
    sa.Column("wins", sa.Integer, nullable=False),
    sa.Column("losses", sa.Integer, nullable=False),
    sa.PrimaryKeyConstraint("level", "season", "date", "team_id"),
    sa.Index("ix_rpi_team", "team_id", "date"),
)

# One row per game: the forecast record's objects (docs/api/reference.md), flattened.
forecasts = sa.Table(
    "forecasts", metadata,
    sa.Column("game_id", _id, primary_key=True, autoincrement=False),
    _level(),
    sa.Column("season", sa.Integer, nullable=False),
    sa.Column("game_day", sa.Date, nullable=False),
    sa.Column("velo_before", sa.Float), sa.Column("helo_before", sa.Float),
    sa.Column("velo_after", sa.Float), sa.Column("helo_after", sa.Float),
    sa.Column("elo_k", sa.Float), sa.Column("elo_adjust", sa.Float),
    sa.Column("elo_points", sa.Float),
    sa.Column("velo_change", sa.Float), sa.Column("helo_change", sa.Float),
    sa.Column("velo_win_exp", sa.Float), sa.Column("helo_win_exp", sa.Float),
    # football: the Elo's chances of a home win, a draw, an away win (server.models.football)
    sa.Column("elo_home_prob", sa.Float), sa.Column("elo_draw_prob", sa.Float),
    sa.Column("elo_vis_prob", sa.Float),
    sa.Column("prediction_favourite", _id),  # team id
    sa.Column("prediction", sa.Text),  # predicted score, "4-3" (visitor-home)
    sa.Column("prediction_correct", sa.Boolean),
    sa.Column("home_win_prob", sa.Float),  # simulation's probability of a home win
    sa.Column("over_under", sa.Float),
    sa.Column("over_under_result", sa.String(8)),  # Over | Under | Push
    sa.Column("vis_ml", sa.Integer), sa.Column("home_ml", sa.Integer),
    sa.Column("ml_drift", sa.Integer),  # home line at close minus at open (American points)
    sa.Column("ml_movement", sa.String(16)),  # Toward home | Toward visitor | None
    sa.Column("ml_correct", sa.Boolean),
    sa.Column("spread", sa.Float),
    sa.Column("favourite", _id),  # team id favoured by the spread
    sa.Column("spread_correct", sa.Boolean),
    sa.Index("ix_forecasts_level_day", "level", "game_day", "game_id"),
    # the games with a money line (the moneyline list): most stores have few or none, and the
    # list walked every forecast of the level to find them
    sa.Index("ix_forecasts_lines", "level", "game_day", "game_id",
             sqlite_where=sa.text("vis_ml IS NOT NULL OR home_ml IS NOT NULL"),
             postgresql_where=sa.text("vis_ml IS NOT NULL OR home_ml IS NOT NULL")),
)

# A season's tables for each phase it played (server.catalog.phases: regular, playin, postseason).
stat_tables = sa.Table(
    "stat_tables", metadata,
    _level(),
    sa.Column("season", sa.Integer, nullable=False),
    sa.Column("phase", sa.String(12), nullable=False, default=REGULAR, server_default=REGULAR),
    sa.Column("type", sa.String(8), nullable=False),  # player | team
    sa.Column("code", sa.String(16), nullable=False),
    sa.Column("entity_id", _id, nullable=False),  # player or team id
    sa.Column("team_id", _id),  # the player's (last) team
    sa.Column("sublevel_id", _id),
    sa.Column("value", sa.Float, nullable=False),
    sa.Column("gp", sa.Integer, nullable=False),
    sa.Column("qualified", sa.Boolean, nullable=False),
    sa.Column("rank", sa.Integer, nullable=False),  # among all (qualifiers ranked first for rates)
    sa.Column("qualified_rank", sa.Integer),  # among qualifiers only
    sa.PrimaryKeyConstraint("level", "season", "phase", "type", "code", "entity_id"),
    sa.Index("ix_stat_tables_rank", "level", "season", "phase", "type", "code", "rank"),
    sa.Index("ix_stat_tables_entity", "entity_id", "season"),
)

# One row per play of the level's games with play-by-play (final and in progress): the home
# team's chance to win after the play and the change the play made for the team credited with it
# (``server.jobs.winprob_plays``). Baseball plays without the base-out state and the clock
# sports' substitutions have no row.
play_winprob = sa.Table(
    "play_winprob", metadata,
    sa.Column("play_id", _id, primary_key=True, autoincrement=False),
    _level(),
    sa.Column("game_id", _id, nullable=False),
    sa.Column("wp_home", sa.Float, nullable=False),  # 0-1, after the play
    sa.Column("wp_draw", sa.Float),  # soccer: the chance of a draw; null elsewhere
    sa.Column("wpa", sa.Float, nullable=False),  # for the credited team (batting, acting)
    sa.Index("ix_play_winprob_level", "level", "game_id"),
)

# The in-game line's calibration beside the pre-game forecast's, per season, phase and tenth of
# probability (``server.jobs.winprob_calibration``), written with ``play_winprob`` by the same
# transaction. Sums, not means: a request over several phases adds rows exactly, and scoring a
# season's plays at request time took 0.82 s on MLB.
INGAME, PREGAME = "ingame", "pregame"  # ``forecast``: the line after each play, the ELO forecast
winprob_calibration = sa.Table(
    "winprob_calibration", metadata,
    _level(),
    sa.Column("season", sa.Integer, nullable=False),
    sa.Column("phase", sa.String(12), nullable=False),
    sa.Column("forecast", sa.String(8), nullable=False),  # INGAME or PREGAME
    sa.Column("bin", sa.Integer, nullable=False),  # 0..9: the forecast's tenth
    sa.Column("count", sa.Integer, nullable=False),  # plays (ingame) or games (pregame)
    sa.Column("predicted", sa.Float, nullable=False),  # sum of the forecasts
    sa.Column("observed", sa.Float, nullable=False),  # sum of the outcomes (a draw 0.5)
    sa.Column("brier", sa.Float, nullable=False),  # sum of squared errors
    sa.Column("log_loss", sa.Float, nullable=False),  # sum of negative log-likelihoods
    sa.PrimaryKeyConstraint("level", "season", "phase", "forecast", "bin"),
)

# A baseball season's run environment (``server.jobs.run_environment``, docs/metrics.md), by the
# same re-tabulation: the runs expected from each of the 24 base-out states, and the constants of
# the season (``scope`` empty), of a league (``sublevel:ID``) and of a team's park (``team:ID``)
# that the stat codes' formulas name (wOBA weights, league wOBA, FIP constant, park factor...).
run_expectancy = sa.Table(
    "run_expectancy", metadata,
    _level(),
    sa.Column("season", sa.Integer, nullable=False),
    sa.Column("outs", sa.SmallInteger, nullable=False),  # 0..2 when the plate appearance began
    sa.Column("bases", sa.SmallInteger, nullable=False),  # runners as bits: 1 first, 2, 4 third
    sa.Column("runs", sa.Float),  # mean runs to the end of the half; null for a state not seen
    sa.Column("count", sa.Integer, nullable=False),  # plate appearances begun in the state
    sa.PrimaryKeyConstraint("level", "season", "outs", "bases"),
)

run_constants = sa.Table(
    "run_constants", metadata,
    _level(),
    sa.Column("season", sa.Integer, nullable=False),
    sa.Column("scope", sa.String(32), nullable=False),  # "", "sublevel:ID" or "team:ID"
    sa.Column("name", sa.String(16), nullable=False),
    sa.Column("value", sa.Float, nullable=False),
    sa.PrimaryKeyConstraint("level", "season", "scope", "name"),
)

# A player's metrics with each of his teams in a season he played for several (a traded
# player's line per team, as Baseball-Reference prints it beside his season's), by the same
# re-tabulation: baseball's, from his game lines or (Lahman's seasons) his season totals with
# each team. The season's own are ``stat_tables``' rows.
stint_metrics = sa.Table(
    "stint_metrics", metadata,
    _level(),
    sa.Column("season", sa.Integer, nullable=False),
    sa.Column("player_id", _id, nullable=False),
    sa.Column("team_id", _id, nullable=False),
    sa.Column("code", sa.String(16), nullable=False),
    sa.Column("value", sa.Float, nullable=False),
    sa.PrimaryKeyConstraint("level", "season", "player_id", "team_id", "code"),
    sa.Index("ix_stint_metrics_player", "player_id", "season"),
)

DERIVED_TABLES = (elo_history, rpi, forecasts, stat_tables, play_winprob, winprob_calibration,
                  run_expectancy, run_constants, stint_metrics)

# Season projections (``server.jobs.projections``), one row per team per snapshot: the season
# as of the end of ``date`` (a day with regular-season games), simulated to its end. Not among
# DERIVED_TABLES: re-tabulation keeps it; its own job replaces the snapshots it computes.
projections = sa.Table(
    "projections", metadata,
    _level(),
    sa.Column("season", sa.Integer, nullable=False),
    sa.Column("date", sa.Date, nullable=False),  # as of the end of this day
    sa.Column("team_id", _id, nullable=False),
    sa.Column("sublevel_id", _id),  # the team's league or conference that season
    sa.Column("wins", sa.Integer, nullable=False),  # regular-season record so far
    sa.Column("losses", sa.Integer, nullable=False),
    sa.Column("ties", sa.Integer, nullable=False),  # draws, or overtime losses (hockey)
    sa.Column("points", sa.Integer),  # table points so far (hockey, soccer)
    sa.Column("elo", sa.Float, nullable=False),
    sa.Column("proj_wins", sa.Float, nullable=False),  # means over the simulated seasons
    sa.Column("proj_losses", sa.Float, nullable=False),
    sa.Column("proj_ties", sa.Float, nullable=False),
    sa.Column("proj_wins_10", sa.Float, nullable=False),  # 10th / 90th percentiles of wins
    sa.Column("proj_wins_90", sa.Float, nullable=False),
    sa.Column("proj_points", sa.Float),  # hockey, soccer
    sa.Column("playoff_prob", sa.Float),  # null where the format has no playoff
    sa.Column("bye_prob", sa.Float),  # null where the format has no bye
    sa.Column("title_prob", sa.Float, nullable=False),
    # football: the mean final position in the league, and the chance of each kind of place a
    # final position earns (server.catalog.football.places); null where the league has none
    sa.Column("proj_rank", sa.Float),
    sa.Column("champions_league_prob", sa.Float), sa.Column("europe_prob", sa.Float),
    sa.Column("promotion_prob", sa.Float), sa.Column("promotion_playoff_prob", sa.Float),
    sa.Column("relegation_playoff_prob", sa.Float), sa.Column("relegation_prob", sa.Float),
    sa.Column("sims", sa.Integer, nullable=False),  # simulated seasons behind the row
    sa.PrimaryKeyConstraint("level", "season", "date", "team_id"),
    sa.Index("ix_projections_team", "level", "season", "team_id", "date"),
)
