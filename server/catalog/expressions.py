"""The stat codes' formulas as the reference sites print them, read and evaluated.

A formula is text: names, numbers, ``+ - * /`` and parentheses, every operator between spaces
(a name may hold ``+``, ``%`` or begin with a digit: ``wRC+``, ``K%``, ``2B``), e.g.
``(wOBA - lgwOBA) / wOBAscale * PA``. A name is a line code, another stat code or a season
constant (``server.models.run_environment``); the caller says what each is. Evaluation is over
numpy arrays, one value per row: a division by zero gives NaN, as a rate without a denominator
has no value.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
import numpy as np

OPERATORS = {"+": 1, "-": 1, "*": 2, "/": 2}  # binding strength
_TOKEN = re.compile(r"\(|\)|[^\s()]+")
Node = str | float | tuple[str, "Node", "Node"]  # a name, a number, (operator, left, right)


class FormulaError(ValueError):
    pass


@cache
def parse(text: str) -> Node:
    """The formula's tree; a ``FormulaError`` for text that is not one."""
    tokens = _TOKEN.findall(text)
    node, rest = _binary(tokens, 0, 1)
    if rest != len(tokens):
        raise FormulaError(f"unexpected {tokens[rest]!r} in {text!r}")
    return node


def _binary(tokens: list[str], at: int, strength: int) -> tuple[Node, int]:
    if strength > 2:
        return _atom(tokens, at)
    left, at = _binary(tokens, at, strength + 1)
    while at < len(tokens) and OPERATORS.get(tokens[at]) == strength:
        op = tokens[at]
        right, at = _binary(tokens, at + 1, strength + 1)
        left = (op, left, right)
    return left, at


def _atom(tokens: list[str], at: int) -> tuple[Node, int]:
    if at >= len(tokens):
        raise FormulaError("a formula ends too soon")
    token = tokens[at]
    if token == "(":
        node, at = _binary(tokens, at + 1, 1)
        if at >= len(tokens) or tokens[at] != ")":
            raise FormulaError("a parenthesis is not closed")
        return node, at + 1
    if token in OPERATORS or token == ")":
        raise FormulaError(f"unexpected {token!r}")
    try:
        return float(token), at + 1
    except ValueError:
        return token, at + 1


def names(text: str) -> frozenset[str]:
    """Every name the formula reads."""
    def walk(node: Node) -> frozenset[str]:
        if isinstance(node, str):
            return frozenset({node})
        if isinstance(node, float):
            return frozenset()
        return walk(node[1]) | walk(node[2])
    return walk(parse(text))


def evaluate(text: str, value: Callable[[str], np.ndarray]) -> np.ndarray:
    """The formula's value per row, ``value(name)`` giving each name's values."""
    def walk(node: Node) -> np.ndarray:
        if isinstance(node, str):
            return np.asarray(value(node), dtype=float)
        if isinstance(node, float):
            return np.asarray(node)
        op, left, right = node[0], walk(node[1]), walk(node[2])
        result: np.ndarray
        if op == "+":
            result = left + right
        elif op == "-":
            result = left - right
        elif op == "*":
            result = left * right
        else:
            return _divide(left, right)
        return result
    return walk(parse(text))


def _divide(left: np.ndarray, right: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        out: np.ndarray = np.where(right != 0, left / np.where(right != 0, right, 1.0), np.nan)
    return out
