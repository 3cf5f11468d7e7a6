"""One function per baseball event: each takes the game state and changes it.

A plate appearance's event (``strikeout`` .. ``fly_ball``) moves the runners, credits the batter,
the pitcher and the fielders, and fills in the ``PlateAppearance`` (outs made, runners who
scored, the words); ``resolve`` then counts the outs and the runs and writes the play, so the
score, the lines and the play-by-play agree. Between plate appearances: ``attempt_steal`` and
``change_pitcher``.

The draws from ``game.u`` happen in a fixed order (a game replays the same from its seed), so
each function draws exactly what it always has, and only where it always has.
"""
from __future__ import annotations

from collections.abc import Callable

from server.ingest.simulator.games import new_play
from server.ingest.simulator.games.baseball.rates import RATES
from server.ingest.simulator.games.baseball.state import (
    A, AB, BB, BBA, CS, D2, D3, E, ER, GDP, H, HA, HBP, HR, HRA, LOB, OUTS, PIT, PO, RA, RBI, SB,
    SF, SO, GameState, K, PlateAppearance, R, Side, new_line,
)

_OUTFIELD = ("left field", "center field", "right field")
_INFIELD = ("shortstop", "second base", "third base", "first base", "pitcher")
_INFIELD_POS = ("SS", "2B", "3B", "1B", "P")
_FLY_POS = ("LF", "CF", "RF", "SS", "2B")  # outfielders, then the infielders who take pop-ups
_FLY_VERBS = ("flied out to", "lined out to", "popped out to")

Event = Callable[[GameState, PlateAppearance], None]


# ------------------------------------------------------------------ reaching base without a hit

def strikeout(game: GameState, pa: PlateAppearance) -> None:
    """The batter is out; the catcher gets the putout."""
    pa.outs = 1
    line = game.lines[pa.batter]
    line[SO] += 1
    line[AB] += 1
    game.lines[pa.pitcher][K] += 1
    game.lines[game.fielding.defense["C"]][PO] += 1
    how = "swinging" if pa.sequence[-1] == "S" else "looking"
    pa.explanation = f"{game.people[pa.batter].last} struck out {how}"
    pa.event, pa.tags = "strikeout", "strikeout"


def walk(game: GameState, pa: PlateAppearance) -> None:
    """The batter takes first; runners move up only when forced (bases loaded: a run)."""
    game.lines[pa.batter][BB] += 1
    game.lines[pa.pitcher][BBA] += 1
    pa.explanation = f"{game.people[pa.batter].last} walked"
    pa.event, pa.tags = "walk", "walk"
    _force_to_first(game, pa)


def hit_by_pitch(game: GameState, pa: PlateAppearance) -> None:
    """As a walk, but not charged to the pitcher's walks."""
    game.lines[pa.batter][HBP] += 1
    pa.explanation = f"{game.people[pa.batter].last} was hit by a pitch"
    pa.event, pa.tags = "hit_by_pitch", "hbp"
    _force_to_first(game, pa)


def reached_on_error(game: GameState, pa: PlateAppearance) -> None:
    """An infielder's error puts the batter on first and moves the runners as a cautious single
    would; the runs are neither earned nor batted in."""
    game.u.pick(3)  # a direction, drawn as for a hit and unused: keeps the game's draws in order
    _advance_on_single(game, pa, take_extra_base=False)
    game.lines[pa.batter][AB] += 1
    position = _INFIELD_POS[game.u.pick(4)]
    game.lines[game.fielding.defense[position]][E] += 1
    pa.rbi = pa.earned = False
    where = _INFIELD[_INFIELD_POS.index(position)]
    pa.explanation = f"{game.people[pa.batter].last} reached on an error by the {where}"
    pa.event, pa.tags = "error", "error"


def _force_to_first(game: GameState, pa: PlateAppearance) -> None:
    first, second, third = game.bases
    if first is None:
        game.bases = [pa.batter, second, third]
    elif second is None:
        game.bases = [pa.batter, first, third]
    else:
        if third is not None:
            pa.scored.append(third)
        game.bases = [pa.batter, first, second]


# ------------------------------------------------------------------ hits

def single(game: GameState, pa: PlateAppearance) -> None:
    """A runner on third scores; one on second scores or stops at third; one on first takes
    second, or third when it is free."""
    field = _hit(game, pa)
    _advance_on_single(game, pa, take_extra_base=True)
    pa.explanation = f"{game.people[pa.batter].last} singled to {field}"
    pa.event, pa.tags = "single", "hit"


def double(game: GameState, pa: PlateAppearance) -> None:
    """Runners on second and third score; one on first scores or stops at third."""
    field = _hit(game, pa)
    game.lines[pa.batter][D2] += 1
    first, second, third = game.bases
    to_third = None
    for runner in (third, second):
        if runner is not None:
            pa.scored.append(runner)
    if first is not None:
        if game.u() < RATES.double_scores_from_first:
            pa.scored.append(first)
        else:
            to_third = first
    game.bases = [None, pa.batter, to_third]
    pa.explanation = f"{game.people[pa.batter].last} doubled to {field}"
    pa.event, pa.tags = "double", "hit"


def triple(game: GameState, pa: PlateAppearance) -> None:
    """Every runner scores; the batter stands on third."""
    field = _hit(game, pa)
    game.lines[pa.batter][D3] += 1
    pa.scored.extend(runner for runner in reversed(game.bases) if runner is not None)
    game.bases = [None, None, pa.batter]
    pa.explanation = f"{game.people[pa.batter].last} tripled to {field}"
    pa.event, pa.tags = "triple", "hit"


def home_run(game: GameState, pa: PlateAppearance) -> None:
    """Every runner and the batter score."""
    field = _hit(game, pa)
    game.lines[pa.batter][HR] += 1
    game.lines[pa.pitcher][HRA] += 1
    pa.scored.extend(runner for runner in reversed(game.bases) if runner is not None)
    pa.scored.append(pa.batter)
    game.bases = [None, None, None]
    pa.explanation = f"{game.people[pa.batter].last} homered to {field}"
    pa.event, pa.tags = "homer", "hit|homer"


def _hit(game: GameState, pa: PlateAppearance) -> str:
    """Where the ball went; a hit and an at bat for the batter, a hit against the pitcher."""
    field = _OUTFIELD[game.u.pick(3)]
    line = game.lines[pa.batter]
    line[AB] += 1
    line[H] += 1
    game.lines[pa.pitcher][HA] += 1
    return field


def _advance_on_single(game: GameState, pa: PlateAppearance, take_extra_base: bool) -> None:
    first, second, third = game.bases
    to_second = to_third = None
    if third is not None:
        pa.scored.append(third)
    if second is not None:
        if take_extra_base and game.u() < RATES.single_scores_from_second:
            pa.scored.append(second)
        else:
            to_third = second
    if first is not None:
        if take_extra_base and to_third is None and game.u() < RATES.single_first_to_third:
            to_third = first
        else:
            to_second = first
    game.bases = [pa.batter, to_second, to_third]


# ------------------------------------------------------------------ outs in play

def ground_ball(game: GameState, pa: PlateAppearance) -> None:
    """A grounder to an infielder: a double play with a runner on first and fewer than two
    out, at ``RATES.double_play``; otherwise a ground out."""
    k = game.u.pick(5)
    game.lines[pa.batter][AB] += 1
    if game.bases[0] is not None and game.outs < 2 and game.u() < RATES.double_play:
        _double_play(game, pa, k)
    else:
        _ground_out(game, pa, k)


def _double_play(game: GameState, pa: PlateAppearance, k: int) -> None:
    """Batter and the runner from first out (fielder to the pivot man to first); with nobody
    out, a runner on third scores and one on second takes third."""
    position = _INFIELD_POS[k]
    defense = game.fielding.defense
    lines = game.lines
    pivot = defense["2B" if position != "2B" else "SS"]
    pa.outs = 2
    lines[pa.batter][GDP] += 1
    pa.rbi = False
    lines[defense[position]][A] += 1
    lines[pivot][PO] += 1
    lines[pivot][A] += 1
    lines[defense["1B"]][PO] += 1
    _, second, third = game.bases
    bases: list[int | None] = [None, None, None]
    if game.outs == 0:
        if third is not None:
            pa.scored.append(third)
        bases[2] = second
    game.bases = bases
    relay = "second" if position != "2B" else "short"
    pa.explanation = (f"{game.people[pa.batter].last} grounded into a double play, {_INFIELD[k]} to "
                      f"{relay} to first")
    pa.event, pa.tags = "double_play", "out|double-play"


def _ground_out(game: GameState, pa: PlateAppearance, k: int) -> None:
    """The batter out at first. With fewer than two out the runners move up a base (from
    third: home or holding, at ``RATES.grounder_scores_from_third``; bases loaded: a run)."""
    position = _INFIELD_POS[k]
    defense = game.fielding.defense
    lines = game.lines
    pa.outs = 1
    if position != "1B":
        lines[defense[position]][A] += 1
    lines[defense["1B"]][PO] += 1
    first, second, third = game.bases
    bases: list[int | None] = [None, None, None]
    if game.outs < 2:
        if first is not None and second is not None and third is not None:
            pa.scored.append(third)
            bases = [None, first, second]
        else:
            if third is not None:
                if game.u() < RATES.grounder_scores_from_third:
                    pa.scored.append(third)
                else:
                    bases[2] = third
            if second is not None:
                if bases[2] is None:
                    bases[2] = second
                else:
                    bases[1] = second
            if first is not None:
                bases[1] = first
    game.bases = bases
    pa.explanation = f"{game.people[pa.batter].last} grounded out to {_INFIELD[k]}"
    pa.event, pa.tags = "groundout", "out"


def fly_ball(game: GameState, pa: PlateAppearance) -> None:
    """A catch for the out; to the outfield with a runner on third and fewer than two out, a
    sacrifice fly at ``RATES.sacrifice_fly`` (the runner scores, no at bat)."""
    k = game.u.pick(5)
    game.lines[game.fielding.defense[_FLY_POS[k]]][PO] += 1
    pa.outs = 1
    first, second, third = game.bases
    name = game.people[pa.batter].last
    if third is not None and game.outs < 2 and k < 3 and game.u() < RATES.sacrifice_fly:
        pa.scored.append(third)
        game.bases = [first, second, None]
        game.lines[pa.batter][SF] += 1
        pa.explanation = f"{name} hit a sacrifice fly to {_OUTFIELD[k]}"
        pa.event, pa.tags = "sac_fly", "out|sacrifice"
    else:
        game.lines[pa.batter][AB] += 1
        verb = _FLY_VERBS[game.u.pick(3)]
        where = _OUTFIELD[k] if k < 3 else _INFIELD[k - 3]
        pa.explanation = f"{name} {verb} {where}"
        pa.event, pa.tags = "flyout", "out"


EVENTS: dict[str, Event] = {
    "K": strikeout, "BB": walk, "HBP": hit_by_pitch, "1B": single, "2B": double, "3B": triple,
    "HR": home_run, "E": reached_on_error, "GO": ground_ball, "FO": fly_ball,
}


def resolve(game: GameState, pa: PlateAppearance, outcome: str) -> None:
    """Play a plate appearance's outcome (an ``EVENTS`` key), then count its outs and runs and
    write the play. Runs on the play that makes the third out do not count; its runners are
    left on base."""
    on_base = game.bases
    before = (game.outs, base_bits(on_base))  # the outs and runners the play began with
    EVENTS[outcome](game, pa)
    _count_outs(game, pa, on_base)
    runs = _count_runs(game, pa)
    if game.outs >= 3:
        game.bases = [None, None, None]
    _write_play(game, pa, runs, before)


def _count_outs(game: GameState, pa: PlateAppearance, on_base: list[int | None]) -> None:
    """The play's outs, to the inning and the pitcher. On the third out its runs are wiped and
    the runners it began with are left on base (the batter's LOB; a runner doubled off is out,
    not left)."""
    game.outs += pa.outs
    game.lines[pa.pitcher][OUTS] += pa.outs
    if game.outs >= 3:
        pa.scored = []
        stranded = sum(1 for x in on_base if x is not None) - (1 if pa.outs == 2 else 0)
        game.lines[pa.batter][LOB] += max(0, stranded)


def _count_runs(game: GameState, pa: PlateAppearance) -> int:
    """The runs that scored on the play: to the runners, the score, the pitcher (earned or
    not), the batter's RBI and the play's words; a lead taken is noted for the decisions."""
    runs = len(pa.scored)
    if not runs:
        return 0
    lines, score, bat = game.lines, game.score, game.half
    pitcher_line = lines[pa.pitcher]
    for runner in pa.scored:
        lines[runner][R] += 1
    was_ahead = score[bat] > score[1 - bat]
    score[bat] += runs
    pitcher_line[RA] += runs
    if pa.earned:
        pitcher_line[ER] += runs
    if pa.rbi:
        lines[pa.batter][RBI] += runs
    runners = [game.people[x].last for x in pa.scored if x != pa.batter]
    if runners:
        pa.explanation += ", " + ", ".join(runners) + " scored"
    if not was_ahead and score[bat] > score[1 - bat]:
        game.go_ahead.append((bat, game.sides[bat].pitcher, pa.pitcher))
    pa.tags += "|scoring"
    return runs


def _write_play(game: GameState, pa: PlateAppearance, runs: int, before: tuple[int, int]) -> None:
    """The play as the plays table holds it, with the outs and runners it began and ended with."""
    bats = game.people[pa.batter].bats
    throws = game.people[pa.pitcher].throws
    if bats == "S":  # a switch hitter bats from the side away from the pitcher's arm
        bats = "L" if throws == "R" else "R"
    game.plays.append(new_play((game.inning, game.half_name, None, game.half, pa.batter, pa.pitcher,
                                pa.event, pa.explanation, runs > 0, runs, pa.tags, pa.the_count, throws,
                                bats, pa.sequence, game.outs, base_bits(game.bases), *before)))


# ------------------------------------------------------------------ between plate appearances

def base_bits(bases: list[int | None]) -> int:
    """Runners on first, second and third as the plays table's bits (1, 2, 4)."""
    return (bases[0] is not None) | (bases[1] is not None) << 1 | (bases[2] is not None) << 2


def attempt_steal(game: GameState) -> None:
    """With a runner on first only and fewer than two out, he tries for second at
    ``RATES.steal_attempt`` and makes it at ``RATES.steal_success``."""
    runner = game.bases[0]
    if runner is None or game.bases[1] is not None or game.outs >= 2 or game.u() >= RATES.steal_attempt:
        return
    if game.u() < RATES.steal_success:
        stolen_base(game, runner)
    else:
        caught_stealing(game, runner)


def stolen_base(game: GameState, runner: int) -> None:
    """The runner on first is safe at second."""
    before = (game.outs, base_bits(game.bases))
    game.bases[1], game.bases[0] = runner, None
    game.lines[runner][SB] += 1
    _running_play(game, runner, "stolen_base", "stole second base", "steal", before)


def caught_stealing(game: GameState, runner: int) -> None:
    """The runner on first is out at second, catcher to shortstop."""
    before = (game.outs, base_bits(game.bases))
    game.bases[0] = None
    game.outs += 1
    game.lines[runner][CS] += 1
    defense = game.fielding.defense
    game.lines[defense["P"]][OUTS] += 1
    game.lines[defense["SS"]][PO] += 1
    game.lines[defense["C"]][A] += 1
    _running_play(game, runner, "caught_stealing", "caught stealing second base", "caught-stealing",
                  before)


def _running_play(game: GameState, runner: int, event: str, words: str, tags: str,
                  before: tuple[int, int]) -> None:
    """The steal's play; ``before``: the outs and runners it began with."""
    pitcher = game.fielding.pitcher
    game.plays.append(new_play((game.inning, game.half_name, None, game.half, runner, pitcher, event,
                                f"{game.people[runner].last} {words}", False, 0, tags, None,
                                game.people[pitcher].throws, None, "", game.outs,
                                base_bits(game.bases), *before)))


def change_pitcher(game: GameState, side: Side) -> None:
    """The next reliever in the bullpen comes in, with a pitch limit of his own; when the bullpen
    is spent, the pitcher stays and his limit moves up."""
    if side.relievers_used >= len(side.bullpen):
        side.pitch_limit += RATES.spent_bullpen_pitches
        return
    new = side.bullpen[side.relievers_used]
    side.relievers_used += 1
    line = game.lines.setdefault(new, new_line())
    game.positions[new] = "P"
    side.defense["P"] = side.pitcher = new
    side.pitch_limit = line[PIT] + RATES.reliever_pitches + RATES.reliever_pitches_spread * game.u()
    side.outs_at_entry = line[OUTS]
