"""Data sources and the notice each one requires wherever its data is shown.

The API puts a level's notices in every document's ``meta.Notices`` and in ``/health``; the
dashboard shows them in its footer. Retrosheet's wording is prescribed by its terms and must not
change (see docs/data.md).
"""
from __future__ import annotations

SIMULATED = "simulated"  # the source name of everything the demo simulator invents

RETROSHEET_NOTICE = (
    "     The information used here was obtained free of\n"
    "     charge from and is copyrighted by Retrosheet.  Interested\n"
    '     parties may contact Retrosheet at "www.retrosheet.org".'
)

NOTICES: dict[str, str] = {
    "retrosheet": RETROSHEET_NOTICE,
    "fivethirtyeight": "Source: FiveThirtyEight (ABC News), CC BY 4.0; WNBA results "
                       "continued by Neil Paine (MIT).",
    "lahman": "MLB history: Baseball Databank (Chadwick Baseball Bureau, Sean Lahman), "
              "CC BY-SA 3.0.",
    "openfootball": "Football results: openfootball (football.json, champions-league), CC0 1.0.",
    "internationals": "International results: Mart Jürisoo (international_results) and "
                      "openfootball (worldcup.json), CC0 1.0.",
    "simulated": "Simulated data: invented by the demo simulator; not real games or people.",
}


def notices(sources: str | None) -> list[str]:
    """The notices owed for a comma-separated list of sources, in a stable order."""
    names = sorted(filter(None, (sources or "").split(",")))
    return [NOTICES[n] for n in names if n in NOTICES]
