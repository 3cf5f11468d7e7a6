"""Retrosheet reference files: team lists, rosters, people (biofile), ballparks and umpires."""
from __future__ import annotations

import csv
import datetime as dt
import re
from dataclasses import dataclass
from pathlib import Path

from server.catalog.nations import NATIONS
from server.ingest.retrosheet.files import ENCODING

ALL_STAR_TEAMS = {"ALS", "NLS"}
LEAGUES = {"A": ("AL", "American League"), "N": ("NL", "National League")}

# biofile's BIRTH.COUNTRY spellings that are not a nation's English name
_COUNTRY_ALIASES = {
    "USA": "US", "D.R.": "DO", "P.R.": "PR", "Curacao": "CW", "CuraÃ§ao": "CW",
    "South Korea": "KR", "Korea": "KR", "Taiwan": "TW", "Bahamas": "BS", "V.I.": "VI",
    "Virgin Islands": "VI", "Germany": "DE", "United Kingdom": "GB", "England": "GB",
    "Netherlands": "NL", "Aruba": "AW", "Brazil": "BR", "Czech Republic": "CZ",
}
_NATION_BY_NAME = {name: code for code, name in NATIONS}
_NATION_NAME = dict(NATIONS) | {"VI": "U.S. Virgin Islands"}


def nation(country: str) -> tuple[str | None, str | None]:
    """(country name, ISO alpha-2 flag) for a biofile/Lahman birth country."""
    country = country.strip()
    if not country:
        return None, None
    code = _COUNTRY_ALIASES.get(country) or _NATION_BY_NAME.get(country)
    return (_NATION_NAME.get(code, country) if code else country), code


@dataclass
class Team:
    code: str
    league: str  # A | N
    city: str
    nickname: str

    @property
    def name(self) -> str:
        return f"{self.city} {self.nickname}"


@dataclass
class RosterEntry:
    pid: str
    last: str
    first: str
    bats: str
    throws: str
    team: str
    position: str


def read_teams(path: Path) -> list[Team]:
    """A ``TEAMyyyy`` file, without the All-Star squads (ALS, NLS)."""
    with path.open(encoding=ENCODING, newline="") as fh:
        rows = [r for r in csv.reader(fh) if len(r) >= 4]
    return [Team(*[f.strip() for f in r[:4]]) for r in rows
            if r[1].strip() in LEAGUES and r[0].strip() not in ALL_STAR_TEAMS]


@dataclass
class TeamSpan:
    """A line of Retrosheet's team list (``teams.csv``): a code's city and nickname over the
    seasons ``first`` to ``last``."""
    code: str
    city: str
    nickname: str
    first: int
    last: int


def read_team_list(path: Path) -> dict[str, list[TeamSpan]]:
    """``teams.csv`` (TEAM,LEAGUE,CITY,NICKNAME,FIRST,LAST), by code."""
    out: dict[str, list[TeamSpan]] = {}
    with path.open(encoding=ENCODING, newline="") as fh:
        for r in csv.DictReader(fh):
            first, last = r.get("FIRST", "").strip(), r.get("LAST", "").strip()
            if first.isdigit() and last.isdigit():
                code = r["TEAM"].strip()
                out.setdefault(code, []).append(TeamSpan(
                    code, r["CITY"].strip(), r["NICKNAME"].strip(), int(first), int(last)))
    return out


def read_roster(path: Path) -> list[RosterEntry]:
    with path.open(encoding=ENCODING, newline="") as fh:
        return [RosterEntry(*[f.strip() for f in r[:7]]) for r in csv.reader(fh) if len(r) >= 7]


def read_ballparks(path: Path) -> dict[str, dict[str, str]]:
    with path.open(encoding=ENCODING, newline="") as fh:
        return {r["PARKID"]: r for r in csv.DictReader(fh)}


def read_biofile(path: Path) -> dict[str, dict[str, str]]:
    with path.open(encoding=ENCODING, newline="") as fh:
        return {r["PLAYERID"]: r for r in csv.DictReader(fh)}


def read_umpires(path: Path) -> dict[str, tuple[str, str]]:
    """``UMPIRESyyyy.txt``: id -> (last, first)."""
    with path.open(encoding=ENCODING, newline="") as fh:
        rows = list(csv.reader(fh))
    return {r[0].strip(): (r[1].strip(), r[2].strip()) for r in rows[1:] if len(r) >= 3}


def parse_date(text: str) -> dt.date | None:
    """``MM/DD/YYYY`` (biofile) or ``YYYY/MM/DD`` (event info); None when blank or partial."""
    text = text.strip()
    m = re.fullmatch(r"(\d{1,2})/(\d{1,2})/(\d{4})", text)
    if m:
        month, day, year = map(int, m.groups())
    else:
        m = re.fullmatch(r"(\d{4})[/-](\d{1,2})[/-](\d{1,2})", text)
        if not m:
            return None
        year, month, day = map(int, m.groups())
    try:
        return dt.date(year, month, day)
    except ValueError:
        return None


def height(text: str) -> str | None:
    """``6-05`` -> ``6-05``; ``77`` (inches) -> ``6-05``."""
    text = text.strip()
    m = re.fullmatch(r"(\d)-(\d{1,2})", text)
    if m:
        return f"{m.group(1)}-{int(m.group(2)):02d}"
    if text.isdigit() and int(text) > 12:
        inches = int(text)
        return f"{inches // 12}-{inches % 12:02d}"
    return None


def weight(text: str) -> int | None:
    text = text.strip()
    return int(text) if text.isdigit() else None
