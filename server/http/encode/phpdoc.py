"""PHP ``serialize()`` encoding (docs/api/index.md), so PHP's ``unserialize()`` yields the document.

Dicts and lists become arrays (lists 0-based integer keys), ``None`` is ``N;``, ints ``i:``, floats
``d:`` (non-finite floats are ``N;`` as in the JSON encoding), strings ``s:<UTF-8 byte length>:"";``.
"""
from __future__ import annotations

import math
import re
from typing import Any

from server.store import deadline

_ARRAY_HEAD = re.compile(rb"^a:(\d+):\{")


def _str(value: str) -> str:
    raw = value.encode("utf-8", "surrogatepass")
    return f's:{len(raw)}:"{value}";'


def _write(out: list[str], value: Any) -> None:
    if value is None:
        out.append("N;")
    elif isinstance(value, bool):
        out.append(f"b:{int(value)};")
    elif isinstance(value, int):
        out.append(f"i:{value};")
    elif isinstance(value, float):
        out.append(f"d:{value!r};" if math.isfinite(value) else "N;")
    elif isinstance(value, str):
        out.append(_str(value))
    elif isinstance(value, dict):
        out.append(f"a:{len(value)}:{{")
        for key, item in value.items():
            out.append(_str(str(key)))
            _write(out, item)
        out.append("}")
    elif isinstance(value, (list, tuple)):
        out.append(f"a:{len(value)}:{{")
        for index, item in enumerate(value):
            out.append(f"i:{index};")
            _write(out, item)
        out.append("}")
    else:
        out.append(_str(str(value)))


def _bytes(value: Any) -> bytes:
    out: list[str] = []
    _write(out, value)
    return "".join(out).encode("utf-8", "surrogatepass")


def encode_php(document: Any) -> bytes:
    """The document as PHP serialize() writes it, UTF-8 bytes.

    The members of the document's arrays (the page's records) are written one at a time, each
    joined into bytes before the next, as in the XML encoding (``xmldoc.encode_xml``): what a
    page costs in memory is its bytes, and a store thread stops between two records once its
    client has had its 503."""
    if not isinstance(document, dict):
        return _bytes(document)
    chunks = [f"a:{len(document)}:{{".encode()]
    for key, value in document.items():
        chunks.append(_bytes(str(key)))
        if isinstance(value, (dict, list, tuple)) and value:
            members = (((str(k), v) for k, v in value.items()) if isinstance(value, dict)
                       else enumerate(value))
            chunks.append(f"a:{len(value)}:{{".encode())
            for member, item in members:
                deadline.between_records()
                chunks.append(_bytes(member))
                chunks.append(_bytes(item))
            chunks.append(b"}")
        else:
            chunks.append(_bytes(value))
    chunks.append(b"}")
    return b"".join(chunks)


def append_php(body: bytes, name: str, value: Any) -> bytes:
    """``body`` (a serialized array) with one more member, last: its count moves on by one."""
    head = _ARRAY_HEAD.match(body)
    if head is None:
        raise ValueError("not a serialized array")
    out = [_str(name)]
    _write(out, value)
    member = "".join(out).encode("utf-8", "surrogatepass")
    return b"a:%d:{" % (int(head[1]) + 1) + body[head.end():-1] + member + b"}"
