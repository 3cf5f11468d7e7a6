"""How a stat's value is printed, wherever it is printed: the API's sentences (a player's
insights) and the dashboard's cells and chart labels read this one rule.

Counts whole (54); rates with the decimals analysts read them with (.389, 1.111, 3.45, WHIP
1.084, wOBA .458, wRC+ 207, K% 25.1%), a proportion of three decimals below 1 without its 0, as baseball prints it (.389, but
WHIP 0.950); another stat's fraction with three decimals below 1 and two above.
"""
from __future__ import annotations

import math
from typing import Final

RATE_DECIMALS: Final[dict[str, int]] = {
    "AVG": 3, "OBP": 3, "SLG": 3, "OPS": 3, "BABIP": 3, "ISO": 3, "WPCT": 3, "PCT": 3, "FG%": 3, "FT%": 3,
    "3P%": 3, "SV%": 3, "ERA": 2, "WHIP": 3, "FIP": 2, "GAA": 2, "K/9": 2, "BB/9": 2, "WPA": 2,
    "WOBA": 3, "WRC+": 0, "OPS+": 0, "ERA+": 0, "WRAA": 1, "WRC": 0, "RE24": 1,
}
# rates printed as a percentage with one decimal (K% 25.1%), as FanGraphs prints them
PERCENT: Final = frozenset({"K%", "BB%", "PK%", "PBB%"})
# the three-decimal rates printed with their 0 below 1 (WHIP 0.950, as Baseball-Reference does)
WITH_ZERO: Final = frozenset({"WHIP"})


def text(code: str, value: object) -> str:
    """One stat value as printed: "54", ".389", "1.111", "3.45"; "" for none."""
    try:
        number = float(str(value))
    except ValueError:
        return "" if value is None else str(value)
    if math.isnan(number):
        return ""
    if code.upper() in PERCENT:
        return f"{100 * number:.1f}%"
    decimals = RATE_DECIMALS.get(code.upper())
    if decimals is None:
        if number.is_integer():
            return str(int(number))
        decimals = 3 if abs(number) < 1 else 2
    printed = f"{number:.{decimals}f}"
    bare = code.upper() in RATE_DECIMALS and code.upper() not in WITH_ZERO  # .389, as baseball prints it
    return printed.replace("0.", ".", 1) if bare and decimals == 3 and -1 < number < 1 else printed
