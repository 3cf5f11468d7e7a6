"""Replays one Retrosheet game's records: bases, outs, score, lineups, plays, pitches and lines.

Pure (no store): ``play_game(records, hands)`` takes the game's split CSV records and returns a
:class:`GameResult` keyed by Retrosheet ids. The loader maps those ids to store ids.

Choices worth knowing:

* A pitch sequence that continues a plate appearance (after a stolen base, a pickoff throw, a
  substitution) repeats the earlier pitches; only the new ones become pitch rows, so every pitch
  is stored once. Pickoff throws, the catcher's throws and no-pitches are rows too, in their
  place (``server.catalog.pitches`` tells them from pitches), and every row of a plate
  appearance names the play that ended it, so its outcome is one join away.
* Substitutions become plays (event ``sub``) with an explanation; comments are ignored.
* Runs are charged to the pitcher who put the runner on base (``RA``); earned runs come from the
  ``data,er`` records, wins, losses and saves from ``info,wp/lp/save``.
* ``batter_hand`` is the side the batter hit from: a switch hitter (the biofile's B) bats left
  against a right-handed pitcher and right against a left-hander (``splits.batting_side``).
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from server.catalog.pitches import decode
from server.catalog.splits import batting_side
from server.ingest.retrosheet import explain
from server.ingest.holds import holds
from server.ingest.retrosheet.events import Advance, Event, parse_event

POSITIONS = {1: "P", 2: "C", 3: "1B", 4: "2B", 5: "3B", 6: "SS", 7: "LF", 8: "CF", 9: "RF",
             10: "DH", 11: "PH", 12: "PR"}

Stats = dict[str, int]


@dataclass
class PlayRow:
    seq: int
    inning: int
    half: str
    batting: int  # 0 visitor, 1 home
    batter: str | None
    pitcher: str | None
    event: str
    explanation: str
    runs: int
    tags: str
    count: str | None
    pitcher_hand: str | None
    batter_hand: str | None
    sequence: str | None
    score: tuple[int, int]
    outs: int  # outs in the half inning after the play (3 once it is over)
    bases: int  # runners on base after the play: bits 1 first, 2 second, 4 third
    outs_before: int  # outs when the play began
    bases_before: int  # runners on base when the play began (an extra inning's placed runner too)
    # what the play added to each player's line (pid -> stats): the splits by hand read it
    credits: dict[str, Stats] = field(default_factory=dict)


@dataclass
class PitchRow:
    play_seq: int | None
    inning: int
    half: str
    pitcher: str | None
    batter: str
    number: int
    balls: int
    strikes: int
    code: str
    result: str


@dataclass
class GameResult:
    game_id: str
    info: dict[str, str]
    score: list[int]
    innings: int
    line_score: dict[str, list[int]]
    plays: list[PlayRow] = field(default_factory=list)
    pitches: list[PitchRow] = field(default_factory=list)
    players: dict[str, dict[str, Any]] = field(default_factory=dict)  # pid -> team, pos, starter
    lines: dict[str, Stats] = field(default_factory=dict)  # pid -> stats
    team_lines: list[Stats] = field(default_factory=lambda: [{}, {}])
    order: list[str] = field(default_factory=list)  # players in order of appearance


class _State:
    def __init__(self, result: GameResult, hands: dict[str, tuple[str, str]],
                 names: dict[str, str]) -> None:
        self.r = result
        self.hands = hands  # pid -> (bats, throws)
        self.names = names  # pid -> display name for explanations
        self.lineup: list[dict[int, str]] = [{}, {}]
        self.fielders: list[dict[int, str]] = [{}, {}]
        self.bases: list[tuple[str, str | None] | None] = [None, None, None, None]
        self.outs = 0
        self.half_key: tuple[int, int] | None = None
        self.score = [0, 0]
        self.innings: list[list[int]] = [[], []]
        self.placed = [0, 0]  # extra-inning runners placed on second (radj)
        self.pa_batter: str | None = None
        self.pa_codes: list[str] = []  # entries (pitches and throws) so far in this appearance
        self.pa_rows: list[PitchRow] = []  # their rows, pointed at the appearance's last play
        self.pa_open = False
        self.pending_subs: list[tuple[str, str, int, int, int]] = []
        self.seq = 0
        self.bat_adj: dict[str, str] = {}
        self.pitch_adj: dict[str, str] = {}
        self.radj_pending: list[tuple[str, int]] = []
        self.credits: dict[str, Stats] | None = None  # the current play's, while it is credited

    # -- stats
    def add(self, pid: str | None, code: str, n: int = 1) -> None:
        if pid is None or not n:
            return
        line = self.r.lines.setdefault(pid, {})
        line[code] = line.get(code, 0) + n
        if self.credits is not None:
            mine = self.credits.setdefault(pid, {})
            mine[code] = mine.get(code, 0) + n

    def appear(self, pid: str, team: int, pos: int, starter: bool, slot: int) -> None:
        """A player's first record makes his entry; ``slot`` is his place in the batting order
        (1-9; 0, a pitcher the designated hitter bats for), the first one he takes kept."""
        if pid not in self.r.players:
            self.r.players[pid] = {"team": team, "position": POSITIONS.get(pos), "starter": starter,
                                   "slot": slot or None}
            self.r.order.append(pid)
            self.r.lines.setdefault(pid, {})
        elif slot and not self.r.players[pid]["slot"]:
            self.r.players[pid]["slot"] = slot

    def name(self, pid: str | None) -> str:
        return self.names.get(pid or "", pid or "?")

    # -- records
    def start(self, pid: str, team: int, slot: int, pos: int) -> None:
        self.appear(pid, team, pos, True, slot)
        if slot:
            self.lineup[team][slot] = pid
        self.fielders[team][pos] = pid
        if pos == 1:
            self.add(pid, "GS")

    def sub(self, pid: str, team: int, slot: int, pos: int) -> None:
        self.appear(pid, team, pos, False, slot)
        old_bat = self.lineup[team].get(slot) if slot else None
        old_field = self.fielders[team].get(pos) if pos <= 10 else None
        if slot:
            self.lineup[team][slot] = pid
        if pos == 12 and old_bat:  # pinch runner takes the base and its responsible pitcher
            for b in (1, 2, 3):
                cur = self.bases[b]
                if cur and cur[0] == old_bat:
                    self.bases[b] = (pid, cur[1])
        if pos <= 10:
            for p, who in list(self.fielders[team].items()):
                if who == pid and p != pos:
                    del self.fielders[team][p]
            self.fielders[team][pos] = pid
        self.pending_subs.append((pid, explain.substitution(
            self.name(pid), self.name(old_field if pos <= 10 else old_bat), pos), team, slot, pos))

    def flush_subs(self, inning: int, half: str) -> None:
        for pid, text, team, _slot, _pos in self.pending_subs:
            self.seq += 1
            outs, bases = min(self.outs, 3), self.base_mask()
            self.r.plays.append(PlayRow(
                self.seq, inning, half, team, pid, None, "sub", text, 0, "substitution",
                None, None, None, None, (self.score[0], self.score[1]), outs, bases, outs, bases))
        self.pending_subs = []

    def base_mask(self) -> int:
        """The runners on base as bits (1 first, 2 second, 4 third), the plays' ``bases``; none
        once the half has its third out."""
        if self.outs >= 3:
            return 0
        return sum(1 << (b - 1) for b in (1, 2, 3) if self.bases[b] is not None)

    def new_half(self, inning: int, batting: int) -> None:
        self.half_key = (inning, batting)
        self.pa_open = False  # an appearance cut short by the third out starts over next inning
        self.bases = [None, None, None, None]
        self.outs = 0
        while len(self.innings[batting]) < inning:
            self.innings[batting].append(0)

    def play(self, inning: int, batting: int, batter: str, count: str, seq: str,
             text: str) -> None:
        if self.half_key != (inning, batting):
            self.new_half(inning, batting)
        half = "top" if batting == 0 else "bottom"
        fielding = 1 - batting
        pitcher = self.fielders[fielding].get(1)
        for pid, base in self.radj_pending:  # on base before the half's substitutions are announced
            self.bases[base] = (pid, pitcher)
            self.placed[batting] += 1
        self.radj_pending = []
        self.flush_subs(inning, half)
        if not self.pa_open:  # a pinch hitter inherits the count: the appearance goes on
            self.pa_codes, self.pa_rows, self.pa_open = [], [], True
        ev = parse_event(text)
        entries = decode(seq)
        codes = [e.code for e in entries]
        new_from = len(self.pa_codes) if codes[:len(self.pa_codes)] == self.pa_codes else 0
        for i, e in enumerate(entries[new_from:], start=new_from):
            row = PitchRow(None, inning, half, pitcher, batter, i + 1, e.balls, e.strikes,
                           e.code, e.result)
            self.r.pitches.append(row)
            self.pa_rows.append(row)
            if e.thrown:
                self.add(pitcher, "PIT")
        self.pa_codes = codes
        if ev.kind == "no_play":  # (just before a pinch hitter or a pitching change)
            return
        self.seq += 1
        for row in self.pa_rows:  # the play that ends the appearance, or its latest so far
            row.play_seq = self.seq

        before = list(self.bases)
        outs_before, bases_before = self.outs, self.base_mask()
        runs, moves = self.apply(ev, batter, pitcher)
        credits: dict[str, Stats] = {}
        self.credits = credits
        self.credit(ev, batter, pitcher, fielding, runs, moves, before)
        self.credits = None
        self.score[batting] += len(runs)
        self.innings[batting][inning - 1] += len(runs)
        if ev.batter_event:
            self.pa_open = False

        p_hand = self.pitch_adj.get(pitcher or "") or self.hands.get(pitcher or "", ("", ""))[1] or None
        b_hand = self.bat_adj.get(batter) or self.hands.get(batter, ("", ""))[0] or None
        b_hand = batting_side(b_hand, p_hand)
        self.r.plays.append(PlayRow(
            self.seq, inning, half, batting, batter, pitcher, ev.kind,
            explain.describe(ev, self.name(batter), moves, self.name, entries),
            len(runs), "|".join(explain.tags(ev, runs, moves)),
            f"{count[0]}-{count[1]}" if len(count) == 2 and count.isdigit() else None,
            p_hand, b_hand, seq or None, (self.score[0], self.score[1]), min(self.outs, 3),
            self.base_mask(), outs_before, bases_before, credits))

    def apply(self, ev: Event, batter: str, pitcher: str | None
              ) -> tuple[list[tuple[str, Advance, str | None]], list[tuple[str, Advance]]]:
        """Move the runners; returns (runs: runner, advance, responsible pitcher) and moves."""
        advs = dict(ev.advances)
        if ev.kind in ("walk", "ibb", "hbp", "interference") and advs.get(0) and not advs[0].out:
            need = advs[0].end
            for b in (1, 2, 3):  # forced runners move up when not listed
                if self.bases[b] and b not in advs and need >= b:
                    advs[b] = Advance(b, b + 1, explicit=False)
                    need = b + 1
                elif not self.bases[b]:
                    break
        new: list[tuple[str, str | None] | None] = [None, None, None, None]
        runs: list[tuple[str, Advance, str | None]] = []
        moves: list[tuple[str, Advance]] = []
        for b in (3, 2, 1):
            cur = self.bases[b]
            if cur is None:
                continue
            a = advs.get(b)
            if a is None:
                if new[b] is None:
                    new[b] = cur
                continue
            moves.append((cur[0], a))
            if a.out:
                self.outs += 1
            elif a.end == 4:
                runs.append((cur[0], a, cur[1]))
            else:
                new[a.end] = cur
        a = advs.get(0)
        if a is not None and (ev.batter_event or 0 in ev.advances):
            moves.append((batter, a))
            if a.out:
                self.outs += 1
            elif a.end == 4:
                runs.append((batter, a, pitcher))
            else:
                new[a.end] = (batter, pitcher)
        # advances from an empty base (a scoring quirk) are ignored
        self.bases = new
        return runs, moves

    def credit(self, ev: Event, batter: str, pitcher: str | None, fielding: int,
               runs: list[tuple[str, Advance, str | None]], moves: list[tuple[str, Advance]],
               before: list[tuple[str, str | None] | None]) -> None:
        add = self.add
        if ev.batter_event:
            add(batter, "PA")
            add(pitcher, "BF")
            k = ev.kind
            if k == "walk":
                add(batter, "BB"); add(pitcher, "BBA")
            elif k == "ibb":
                add(batter, "BB"); add(batter, "IBB"); add(pitcher, "BBA")
            elif k == "hbp":
                add(batter, "HBP")
            elif k == "interference":
                pass
            elif "SH" in ev.modifiers:
                add(batter, "SH")
            elif "SF" in ev.modifiers:
                add(batter, "SF")
            else:
                add(batter, "AB")
            if k in ("single", "double", "triple", "homer"):
                add(batter, "H"); add(pitcher, "HA")
                if k == "double":
                    add(batter, "2B")
                elif k == "triple":
                    add(batter, "3B")
                elif k == "homer":
                    add(batter, "HR"); add(pitcher, "HRA")
            if k == "strikeout":
                add(batter, "SO"); add(pitcher, "K")
            if "GDP" in ev.modifiers:
                add(batter, "GDP")
            rbi = 0
            default = k != "strikeout" and "GDP" not in ev.modifiers
            for _runner, a, _resp in runs:
                if a.rbi is True or (a.rbi is None and default and not a.error):
                    rbi += 1
            add(batter, "RBI", rbi)
        for runner, _a, resp in runs:
            add(runner, "R")
            add(resp, "RA")
        for b in ev.sb:
            if held := before[b]:
                add(held[0], "SB")
        for b in ev.cs:
            if held := before[b]:
                add(held[0], "CS")
        if ev.wp:
            add(pitcher, "WP")
        add(pitcher, "OUTS", ev.outs)
        for pos in ev.errors:
            add(self.fielders[fielding].get(pos), "E")
        for pos in ev.putouts:
            add(self.fielders[fielding].get(pos), "PO")
        for pos in ev.assists:
            add(self.fielders[fielding].get(pos), "A")


def play_game(game_id: str, records: list[list[str]], hands: dict[str, tuple[str, str]],
              names: dict[str, str]) -> GameResult:
    """Replay a game's records (each a split CSV line, without the ``id`` record)."""
    info: dict[str, str] = {}
    result = GameResult(game_id, info, [0, 0], 0, {})
    st = _State(result, hands, names)
    er: dict[str, int] = defaultdict(int)
    for rec in records:
        kind = rec[0]
        if kind == "play":
            st.play(int(rec[1]), int(rec[2]), rec[3], rec[4], rec[5], rec[6])
        elif kind == "start":
            st.start(rec[1], int(rec[3]), int(rec[4]), int(rec[5]))
        elif kind == "sub":
            st.sub(rec[1], int(rec[3]), int(rec[4]), int(rec[5]))
        elif kind == "info":
            info[rec[1]] = rec[2] if len(rec) > 2 else ""
        elif kind == "data" and rec[1] == "er":
            er[rec[2]] += int(rec[3])
        elif kind == "radj":  # extra-inning runner, placed when the next half opens
            st.radj_pending.append((rec[1], int(rec[2])))
        elif kind == "badj":
            st.bat_adj[rec[1]] = rec[2]
        elif kind == "padj":
            st.pitch_adj[rec[1]] = rec[2]
        elif kind == "presadj":
            base = int(rec[2])
            cur = st.bases[base]
            if cur:
                st.bases[base] = (cur[0], rec[1])
    if st.half_key:
        st.flush_subs(*st.half_key[:1], "top" if st.half_key[1] == 0 else "bottom")
    for pid, n in er.items():
        st.add(pid, "ER", n)
    for code, key in (("W", "wp"), ("L", "lp"), ("SV", "save")):
        credited = info.get(key)
        if credited:
            st.add(credited, code)
    for pitcher in holds(result.plays, {v for k in ("wp", "save") if (v := info.get(k))}):
        st.add(pitcher, "HLD")
    result.score = st.score
    result.innings = max(len(st.innings[0]), len(st.innings[1]))
    result.line_score = {"visitor": st.innings[0], "home": st.innings[1]}
    _team_lines(result, st)
    return result


def _team_lines(result: GameResult, st: _State) -> None:
    for pid, line in result.lines.items():
        team = result.players[pid]["team"] if pid in result.players else None
        if team is None:
            continue
        for code, n in line.items():
            if code == "GS":
                continue
            tl = result.team_lines[team]
            tl[code] = tl.get(code, 0) + n
    for t in (0, 1):
        # the box-score proof (PA = R + LOB + opponents' putouts), as the game logs count it
        tl, opp = result.team_lines[t], result.team_lines[1 - t]
        result.team_lines[t]["LOB"] = tl.get("PA", 0) + st.placed[t] - tl.get("R", 0) \
            - opp.get("PO", 0)
