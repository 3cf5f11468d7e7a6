"""Step five of a request: one logical document, three encodings (docs/api/index.md).

A document is plain data: dicts with string keys, lists, str, int, float and None. Each encoder
turns it into bytes, and adds one more top-level member to bytes it made (``append``: what
changes with every request, such as a key's quota, joins a cached body without encoding it
again); ``ENCODERS`` is the registry the ``format`` parameter is checked against.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from server.http.encode.jsondoc import append_json, encode_json
from server.http.encode.phpdoc import append_php, encode_php
from server.http.encode.xmldoc import append_xml, encode_xml

Document = dict[str, Any]


@dataclass(frozen=True)
class Encoder:
    """A format: its name, media type, the function writing a document in it, and the one
    adding a top-level member (name, value) to a document it wrote."""
    name: str
    media_type: str
    encode: Callable[[Document], bytes]
    append: Callable[[bytes, str, Any], bytes]


ENCODERS: dict[str, Encoder] = {
    e.name: e for e in (
        Encoder("json", "application/json", encode_json, append_json),
        Encoder("xml", "application/xml; charset=utf-8", encode_xml, append_xml),
        Encoder("php", "application/vnd.php.serialized", encode_php, append_php),
    )
}
DEFAULT_FORMAT = "json"
