"""The registry of endpoint declarations (spec part 4, contract section 1).

``ENDPOINTS`` is the one list; routing, the glossary's ``Endpoints`` column and the OpenAPI
document are all derived from it. Names and aliases are matched case-insensitively.
"""
from __future__ import annotations

from server.catalog.levels import ALL_CODES
from server.endpoints.base import Endpoint
from server.endpoints.feeds import NEWS, SOCIAL, TRANSACTIONS
from server.endpoints.forecasts import FORECASTS, MONEYLINE
from server.endpoints.games import GAMES
from server.endpoints.glossary import GLOSSARY
from server.endpoints.perfs import PLAYERPERFS, TEAMPERFS
from server.endpoints.places import OFFICIALS, VENUES
from server.endpoints.players import PLAYERS
from server.endpoints.projections import PROJECTIONS
from server.endpoints.plays import PITCH, PLAYBYPLAY
from server.endpoints.ratings import ELO, RPI
from server.endpoints.seasons import SEASONS
from server.endpoints.stats import STATS
from server.endpoints.teams import TEAMS

# The 19 endpoints of spec part 4, in its order, then projections (beyond the spec).
ENDPOINTS: tuple[Endpoint, ...] = (
    SEASONS, TEAMS, PLAYERS, GAMES, STATS, PLAYERPERFS, TEAMPERFS, PLAYBYPLAY, PITCH, OFFICIALS,
    VENUES, ELO, RPI, NEWS, TRANSACTIONS, SOCIAL, GLOSSARY, FORECASTS, MONEYLINE, PROJECTIONS,
)

_BY_NAME: dict[str, Endpoint] = {}
for _ep in ENDPOINTS:
    for _name in (_ep.name, *_ep.aliases):
        _BY_NAME[_name.lower()] = _ep


def find_endpoint(name: str) -> Endpoint | None:
    return _BY_NAME.get(name.lower())


def serves(ep: Endpoint, code: str) -> bool:
    return (ep.levels is None or code in ep.levels) and code not in ep.excluded


def served_levels(ep: Endpoint, known: tuple[str, ...] = ALL_CODES) -> tuple[str, ...]:
    return tuple(c for c in known if serves(ep, c))


def endpoints_serving(code: str) -> tuple[str, ...]:
    return tuple(ep.name for ep in ENDPOINTS if serves(ep, code))
