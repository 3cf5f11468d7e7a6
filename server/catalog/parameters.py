"""What the API fixes of a parameter's text (docs/api/index.md), read by both ends: the request parser refuses
or ignores by it (``server.http.parse``) and the dashboard's search boxes take no more than it
will answer (docs/api/index.md)."""
from __future__ import annotations

from typing import Final

MAX_TEXT: Final = 200  # characters any one parameter value may hold: more is a 400
SEARCH_MIN: Final = 5  # a ``search`` of 4 characters or fewer is ignored, with a warning
