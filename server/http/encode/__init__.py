"""Step five of a request: one logical document, three encodings (contract section 3).

A document is plain data: dicts with string keys, lists, str, int, float and None. Each encoder
turns it into bytes; ``ENCODERS`` is the registry the ``format`` parameter is checked against.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from server.http.encode.jsondoc import encode_json
from server.http.encode.phpdoc import encode_php
from server.http.encode.xmldoc import encode_xml

Document = dict[str, Any]


@dataclass(frozen=True)
class Encoder:
    """A format: its name, media type and the function writing a document in it."""
    name: str
    media_type: str
    encode: Callable[[Document], bytes]


ENCODERS: dict[str, Encoder] = {
    e.name: e for e in (
        Encoder("json", "application/json", encode_json),
        Encoder("xml", "application/xml; charset=utf-8", encode_xml),
        Encoder("php", "application/vnd.php.serialized", encode_php),
    )
}
DEFAULT_FORMAT = "json"
