"""The stat codes' printed formulas: read with the usual precedence, a division by zero is no
value, a malformed formula is an error, and every declared formula names only what exists (a line
code, a stat code declared before it, or a constant the run environment serves)."""
from __future__ import annotations

import numpy as np
import pytest

from server.catalog import expressions
from server.catalog.linestats import LINE_STATS
from server.catalog.statcodes import STAT_CODES
from server.endpoints.runexpectancy import CONSTANTS, LEAGUE_CONSTANTS


def test_precedence_and_division_by_zero() -> None:
    values = {"a": np.array([3.0, 1.0]), "b": np.array([1.0, 1.0]), "c": np.array([0.0, 2.0])}
    got = expressions.evaluate("(a - b) / c * 2 + 1", values.__getitem__)
    assert np.isnan(got[0]) and got[1] == 1.0
    assert expressions.evaluate("1 + 2 * 3 - 4 / 2", values.__getitem__) == 5.0
    assert expressions.names("100 * (OBP / lgOBP + SLG / lgSLG - 1) / PF") == {
        "OBP", "lgOBP", "SLG", "lgSLG", "PF"}


@pytest.mark.parametrize("text", ["", "a +", "(a - b", "a b", "* a", "a )"])
def test_a_malformed_formula_is_an_error(text: str) -> None:
    with pytest.raises(expressions.FormulaError):
        expressions.parse(text)


def test_every_declared_formula_names_what_exists() -> None:
    constants = {*CONSTANTS, *LEAGUE_CONSTANTS, "PF", "BPF", "PPF"}
    for code in (s for s in STAT_CODES if s.formula.expr):
        before = {s.code for s in STAT_CODES[:STAT_CODES.index(code)]
                  if (s.sport, s.type) == (code.sport, code.type)}
        lines = {s.code for s in LINE_STATS[code.sport]}
        unknown = expressions.names(code.formula.expr) - before - lines - constants
        assert not unknown, (code.code, unknown)
        assert code.formula.expr in code.description, "the glossary prints the formula"
