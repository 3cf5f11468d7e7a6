"""A person as a picker or a list names him: the name, then what tells namesakes apart, never an
internal ID (IDs travel in links only). Two Buck Freemans of MLB read "Buck Freeman (1898-1907,
BOS)" and "Buck Freeman (1891, WAS)": the seasons he played at the level, named as the level names
a season (``services.api.season_name``), and his last team; namesakes alike in both also read the
year of their birth."""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from services import api


def _span(level: str, first: object, last: object) -> str:
    """The seasons played, "1898-1907" (seasons within a year) or "2019-20 to 2022-23" (seasons
    that span two: a dash inside each already)."""
    years = [int(y) for y in pd.to_numeric(pd.Series([first, last], dtype=object), errors="coerce").dropna()]
    names = [api.season_name(level, y) for y in years]
    if not names:
        return ""
    if len(names) == 1 or names[0] == names[1]:
        return names[0]
    return f"{names[0]} to {names[1]}" if "-" in names[0] else f"{names[0]}-{names[1]}"


def _born(record: Mapping[str, Any]) -> str:
    day = str(record.get("DateOfBirth") or "")
    return f"born {day[:4]}" if day[:4].isdigit() else ""


def person_label(level: str, record: Mapping[str, Any]) -> str:
    """"Name (seasons, team)" from a players record (``CareerStart``, ``CareerEnd``,
    ``TeamAbbrev`` or ``Team``); the name alone where the API gives neither."""
    name = str(record.get("Name") or "Unnamed player")
    team = str(record.get("TeamAbbrev") or record.get("Team") or "")
    said = [part for part in (_span(level, record.get("CareerStart"), record.get("CareerEnd")), team) if part]
    return f"{name} ({', '.join(said)})" if said else name


def person_labels(level: str, records: Sequence[Mapping[str, Any]]) -> dict[int, str]:
    """ID -> ``person_label`` for each record; labels two records would share also read the
    year of birth."""
    labels = {int(r["ID"]): person_label(level, r) for r in records if r.get("ID") is not None}
    shared = {label for label, n in Counter(labels.values()).items() if n > 1}
    by_id = {int(r["ID"]): r for r in records if r.get("ID") is not None}
    for pid, label in labels.items():
        born = _born(by_id[pid])
        if label in shared and born:
            labels[pid] = f"{label.removesuffix(')')}, {born})" if label.endswith(")") else f"{label} ({born})"
    return labels
