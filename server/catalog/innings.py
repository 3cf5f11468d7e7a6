"""How a baseball game's length reads: nine innings unless a game is scheduled shorter (2021's
seven-inning doubleheader games), and a finished game that went past them says how far.

Every baseball source (Retrosheet, the simulator) writes a finished game's status with
``final_status``, so an extra-inning game reads "Final (10 innings)" wherever its status is shown,
never as a bare count of extra innings beside the word "Overtime". ``Overtime`` itself stays the
number of extra innings, as the spec has it.
"""
from __future__ import annotations

REGULATION_INNINGS = 9


def extra_innings(innings: int, scheduled: int = REGULATION_INNINGS) -> int:
    """Innings played past the scheduled ones (0 for a game that ended on time or early)."""
    return max(0, innings - scheduled)


def final_status(innings: int, scheduled: int = REGULATION_INNINGS) -> str:
    """"Final", or "Final (10 innings)" for a game that went to extra innings."""
    return f"Final ({innings} innings)" if extra_innings(innings, scheduled) else "Final"
