"""Tune football's Elo on the seasons never scored against SPI, then score the scored ones.

    python bench/football_tuning.py --store PATH [--first-only]

Reads a store's FC matches read-only (the real-data store: ``tests/real_store.py``), rates every
match with ``server.models.elo.run_elo`` and turns the differences into three chances
(``server.models.football``). Every setting is chosen by the ranked probability score of the
ten leagues' league-round matches of 2023-24 and 2024-25 (seasons 2024, 2025); only then are
2021-22 and 2022-23 scored, ours beside SPI's on the same matches, as ``evaluate`` does. Steps:
a draw model per league, a home advantage per league, a grid of the constants around the
declared ones, then the first-season boost chosen on 2023-24 replayed from nothing
(``--first-only``: that step alone, on the declared settings). The figures it prints are in
docs/football.md (about 3 minutes of CPU; 10 s with ``--first-only``).
"""
from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np
import pandas as pd
import sqlalchemy as sa

from server.catalog.football import tiers_by_abbrev
from server.catalog.phases import REGULAR
from server.models import football
from server.models.elo import SPORT_ELO, EloParams, run_elo
from server.store import schema
from server.jobs import _frames

TRAIN, SCORED = (2024, 2025), (2022, 2023)
BASE = SPORT_ELO["soccer"]


class Data:
    """The level's games, each match's league code, the division tiers and SPI's chances."""

    def __init__(self, store: Path) -> None:
        engine = sa.create_engine(f"sqlite:///file:{store}?mode=ro&uri=true")
        with engine.connect() as conn:
            self.games = _frames.read_games(conn, "FC")
            s = schema.sublevels.c
            subs = dict(conn.execute(sa.select(s.id, s.abbrev).where(s.level == "FC")).all())
            domestic = {a for (a,) in conn.execute(sa.select(s.abbrev).where(
                s.level == "FC", s.league_type == "Domestic"))}
            tiers = tiers_by_abbrev()
            self.tier_of = {int(i): tiers[a] for i, a in subs.items() if a in tiers}
            c = schema.comparison_forecasts.c
            spi = conn.execute(sa.select(c.game_id, c.home_win_prob, c.draw_prob, c.vis_win_prob)
                               .where(c.forecaster == "fte_spi")).all()
        self.spi = pd.DataFrame(spi, columns=["game_id", "h", "d", "a"]).set_index("game_id")
        sub = pd.to_numeric(self.games["sublevel_id"], errors="coerce")
        self.games["league"] = sub.map(lambda i: None if pd.isna(i) else subs.get(int(i)))
        ten = set(self.games.loc[self.games["season"] == 2022, "league"].dropna()) & domestic
        self.ten = ten
        g = self.games
        self.scored_mask = ((g["phase"] == REGULAR) & g["score_home"].notna()
                            & g["league"].isin(ten))


def chances(data: Data, params: EloParams, draw: Callable[[pd.DataFrame, np.ndarray], np.ndarray],
            home_by_league: Mapping[str, float] | None = None,
            games: pd.DataFrame | None = None) -> pd.DataFrame:
    """Every match's three chances under ``params`` (a per-league home advantage in place of
    ``params.home`` where given; ``draw`` maps the rows and differences to chances)."""
    g = data.games if games is None else games
    if home_by_league:
        g = g.assign(lineup_adjust=g["league"].map(home_by_league).fillna(params.home)
                     - params.home)
    initial = football.first_ratings(g, data.tier_of, params)
    elo = run_elo(g, params, initial=initial)
    out = g[["game_id", "season", "league", "score_home", "score_vis", "phase"]].merge(elo, on="game_id")
    out = out[out["game_id"].isin(g.loc[data.scored_mask.reindex(g.index, fill_value=False),
                                        "game_id"])]
    diff = (out["helo_before"] - out["velo_before"] + out["elo_adjust"]).to_numpy(float)
    p = draw(out, diff)
    out = out.assign(ph=p[:, 0], pd=p[:, 1], pa=p[:, 2],
                     y=football.outcomes(out["score_home"].to_numpy(float),
                                         out["score_vis"].to_numpy(float)))
    return out


def rps(df: pd.DataFrame, seasons: tuple[int, ...]) -> float:
    part = df[df["season"].isin(seasons)]
    return football.ranked_probability_score(part[["ph", "pd", "pa"]].to_numpy(float),
                                             part["y"].to_numpy(int))


def shared_draw(model: football.DrawModel) -> Callable[[pd.DataFrame, np.ndarray], np.ndarray]:
    return lambda rows, diff: football.three_way(diff, model)


def league_draw(models: Mapping[str, football.DrawModel], fallback: football.DrawModel
                ) -> Callable[[pd.DataFrame, np.ndarray], np.ndarray]:
    def apply(rows: pd.DataFrame, diff: np.ndarray) -> np.ndarray:
        p = np.zeros((len(diff), 3))
        leagues = rows["league"].to_numpy()
        for lg in set(leagues):
            m = leagues == lg
            p[m] = football.three_way(diff[m], models.get(lg, fallback))
        return p
    return apply


def fit_shared(df: pd.DataFrame) -> football.DrawModel:
    part = df[df["season"].isin(TRAIN)]
    diff = (part["helo_before"] - part["velo_before"] + part["elo_adjust"]).to_numpy(float)
    return football.fit_draw_model(diff, part["y"].to_numpy(int))


def fit_per_league(df: pd.DataFrame) -> dict[str, football.DrawModel]:
    out = {}
    part = df[df["season"].isin(TRAIN)]
    for lg, rows in part.groupby("league"):
        diff = (rows["helo_before"] - rows["velo_before"] + rows["elo_adjust"]).to_numpy(float)
        out[str(lg)] = football.fit_draw_model(diff, rows["y"].to_numpy(int))
    return out


def with_spi(df: pd.DataFrame, spi: pd.DataFrame) -> tuple[pd.DataFrame, np.ndarray]:
    """The matches SPI forecast too, and its three chances for them (each row summing to 1)."""
    both = df.join(spi, on="game_id", how="inner")
    theirs = both[["h", "d", "a"]].to_numpy(float)
    return both, theirs / theirs.sum(axis=1, keepdims=True)


def against_spi(data: Data, df: pd.DataFrame, label: str) -> None:
    """Ours and SPI's RPS and log loss on the scored seasons' shared matches."""
    both, theirs = with_spi(df, data.spi)
    for season in SCORED:
        m = (both["season"] == season).to_numpy()
        y = both.loc[m, "y"].to_numpy(int)
        ours = football.scores(both.loc[m, ["ph", "pd", "pa"]].to_numpy(float), y)
        spi = football.scores(theirs[m], y)
        print(f"  {label:<34} {season - 1}-{season % 100:02d} n={int(m.sum())}: RPS ours "
              f"{ours['rps']:.4f} SPI {spi['rps']:.4f}  log loss ours {ours['log_loss']:.4f} "
              f"SPI {spi['log_loss']:.4f}", flush=True)


def train_score(data: Data, params: EloParams, home: Mapping[str, float] | None = None,
                per_league_draw: bool = False) -> tuple[float, pd.DataFrame]:
    """Train RPS with the draw model refitted on the training seasons (shared or per league)."""
    df = chances(data, params, shared_draw(football.SOCCER_DRAW), home)
    model = fit_shared(df)
    draw = league_draw(fit_per_league(df), model) if per_league_draw else shared_draw(model)
    df = chances(data, params, draw, home)
    return rps(df, TRAIN), df


def first_season(data: Data, params: EloParams, home: Mapping[str, float] | None) -> None:
    """Step 4, the first season: a start from nothing replayed on 2023-24 (every club new there,
    as every club is in 2021-22), the K boost of a club's first games here chosen on 2023-24's
    RPS, then the scored seasons against SPI."""
    cold = data.games[data.games["season"] >= TRAIN[0]]
    s, df = train_score(data, params, home)
    draw = shared_draw(fit_shared(df))
    cold_best = (float("inf"), params)
    for first_boost in (0.0, 0.5, 1.0, 2.0, 3.0):
        for first_games in (10.0, 20.0, 38.0, 76.0):
            p = replace(params, first_boost=first_boost, first_games=first_games)
            d = chances(data, p, draw, home, games=cold)
            sc = rps(d, TRAIN[:1])
            print(f"  cold 2023-24: first boost {first_boost} over {first_games}: {sc:.5f}",
                  flush=True)
            if sc < cold_best[0]:
                cold_best = (sc, p)
            if first_boost == 0.0:
                break
    params = cold_best[1]
    s, df = train_score(data, params, home)
    print(f"with the first-season boost {params.first_boost} over {params.first_games}: "
          f"train RPS {s:.5f}; draw model {fit_shared(df)}", flush=True)
    against_spi(data, df, "first-season boost")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--store", type=Path, required=True)
    ap.add_argument("--first-only", action="store_true",
                    help="only the first-season boost (step 4), on the declared settings")
    args = ap.parse_args()
    started = time.perf_counter()
    data = Data(args.store)
    print(f"{len(data.games)} FC games; leagues scored: {sorted(data.ten)}", flush=True)
    if args.first_only:
        first_season(data, BASE, None)
        print(f"{time.perf_counter() - started:.0f} s", flush=True)
        return

    base_df = chances(data, BASE, shared_draw(football.SOCCER_DRAW))
    print(f"declared settings: train RPS {rps(base_df, TRAIN):.5f}", flush=True)
    against_spi(data, base_df, "declared settings")

    # 1. the draw threshold per league (slope shared), ratings as declared
    s, df = train_score(data, BASE, per_league_draw=True)
    print(f"draw model per league: train RPS {s:.5f}", flush=True)
    against_spi(data, df, "draw per league")

    # 2. home advantage per league: each league's own best of a grid, the others as declared
    best_home: dict[str, float] = {}
    for lg in sorted(data.ten):
        scores_ = {}
        for h in (20.0, 35.0, 50.0, 65.0, 80.0, 95.0):
            trial = {lg: h}
            sc, d = train_score(data, BASE, trial, per_league_draw=True)
            part = d[(d["league"] == lg)]
            scores_[h] = rps(part, TRAIN)
        best_home[lg] = min(scores_, key=lambda h: scores_[h])
        print(f"  home {lg}: " + " ".join(f"{h:.0f}:{v:.5f}" for h, v in scores_.items()),
              flush=True)
    s, df = train_score(data, BASE, best_home, per_league_draw=True)
    print(f"home per league {best_home} + draw per league: train RPS {s:.5f}", flush=True)
    against_spi(data, df, "home and draw per league")

    # 3. K, early boost, revert and division gap around the declared values, with 1 and 2
    best = (s, BASE)
    for k in (16.0, 20.0, 24.0):
        for boost in (0.5, 1.0, 2.0):
            for revert in (0.0, 0.1):
                for gap in (200.0, 300.0):
                    p = replace(BASE, k=k, early_boost=boost, revert=revert, tier_gap=gap)
                    sc, _ = train_score(data, p, best_home, per_league_draw=True)
                    if sc < best[0]:
                        best = (sc, p)
                        print(f"  better: k {k} boost {boost} revert {revert} gap {gap}: "
                              f"{sc:.5f}", flush=True)
    params = best[1]
    s, df = train_score(data, params, best_home, per_league_draw=True)
    print(f"chosen: {params}\n  train RPS {s:.5f}", flush=True)
    against_spi(data, df, "grid, home and draw per league")

    first_season(data, params, best_home)
    print(f"{time.perf_counter() - started:.0f} s", flush=True)


if __name__ == "__main__":
    main()
