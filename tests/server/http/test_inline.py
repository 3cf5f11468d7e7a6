"""Where an uncached list reads (``server.http.limits``): on the event loop under ``INLINE_MS``
until it has overrun that budget twice within ``LIST_OVERRAN_FOR``; a first overrun (a cold page
cache, statements prepared) leaves it on the loop, where it is answered without the GIL handed
between store threads."""
from __future__ import annotations

from server.http.limits import Limits


def test_a_list_leaves_the_loop_on_its_second_overrun_only() -> None:
    limits = Limits(threads=1)
    try:
        listed, other = ("games", "MLB", "team=1"), ("games", "MLB", "team=2")
        limits.overran(listed)
        assert limits.inline_for(listed)  # the cold first request: still read on the loop
        limits.overran(other)
        assert limits.inline_for(other) and limits.inline_for(listed)
        limits.overran(listed)
        assert not limits.inline_for(listed)  # expensive for real: store threads from now
        assert limits.inline_for(other)
    finally:
        limits.threads.shutdown()
        limits.replays.shutdown()
