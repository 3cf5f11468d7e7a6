"""The registry of endpoint declarations (docs/api/reference.md, docs/api/index.md).

``ENDPOINTS`` is the one list; routing, the glossary's ``Endpoints`` column and the OpenAPI
document are all derived from it. Names and aliases are matched case-insensitively.
"""
from __future__ import annotations

from server.catalog.levels import ALL_CODES, has_feature
from server.endpoints.base import Endpoint
from server.endpoints.boxscores import BOXSCORES
from server.endpoints.calibration import CALIBRATION
from server.endpoints.outcomes import OUTCOMES
from server.endpoints.runexpectancy import RUNEXPECTANCY
from server.endpoints.feeds import NEWS, SOCIAL, TRANSACTIONS
from server.endpoints.forecasts import FORECASTS, MONEYLINE
from server.endpoints.games import GAMES
from server.endpoints.glossary import glossary
from server.endpoints.perfs import PLAYERPERFS, TEAMPERFS
from server.endpoints.places import OFFICIALS, VENUES
from server.endpoints.players import PLAYERS
from server.endpoints.projections import PROJECTIONS
from server.endpoints.plays import PITCH, PLAYBYPLAY
from server.endpoints.ratings import ELO, RPI
from server.endpoints.seasons import SEASONS
from server.endpoints.standings import STANDINGS
from server.endpoints.stats import STATS
from server.endpoints.teams import TEAMS
from server.endpoints.winprob import WINPROB


def serves(ep: Endpoint, code: str) -> bool:
    """Whether ``ep`` serves level ``code``: the level carries the data the endpoint needs."""
    return ep.needs is None or has_feature(code, ep.needs)


def endpoints_serving(code: str) -> tuple[str, ...]:
    """The names of the endpoints that serve level ``code`` (the glossary's Endpoints)."""
    return tuple(ep.name for ep in ENDPOINTS if serves(ep, code))


GLOSSARY = glossary(endpoints_serving)

# The 19 endpoints of docs/api/reference.md, in its order, then the ones added beyond it.
ENDPOINTS: tuple[Endpoint, ...] = (
    SEASONS, TEAMS, PLAYERS, GAMES, STATS, PLAYERPERFS, TEAMPERFS, PLAYBYPLAY, PITCH, OFFICIALS,
    VENUES, ELO, RPI, NEWS, TRANSACTIONS, SOCIAL, GLOSSARY, FORECASTS, MONEYLINE,
    BOXSCORES, PROJECTIONS, STANDINGS, WINPROB, CALIBRATION, RUNEXPECTANCY,  # beyond the spec
    OUTCOMES,
)

_BY_NAME: dict[str, Endpoint] = {}
for _ep in ENDPOINTS:
    for _name in (_ep.name, *_ep.aliases):
        _BY_NAME[_name.lower()] = _ep


def find_endpoint(name: str) -> Endpoint | None:
    """The endpoint a name or alias (any case) declares, or None."""
    return _BY_NAME.get(name.lower())


def served_levels(ep: Endpoint, known: tuple[str, ...] = ALL_CODES) -> tuple[str, ...]:
    """The levels of ``known`` that ``ep`` serves, in their order."""
    return tuple(c for c in known if serves(ep, c))
