"""The live page's data filter (`DataFilter`), as a user writes it: one condition, or a line saying
what is wrong with it."""

from __future__ import annotations

import pytest

from arena.stats.board import DataFilter, DataFilterError

GAME = {"data": {"tdata": {"pebbles": 10.0, "kind": "rock and roll"}, "pdata": [{"took": 25.0}, {"took": 3.0}]}}


@pytest.mark.parametrize(
    "text",
    [
        "tdata.pebbles = 10 and pdata.took > 20",
        "tdata.pebbles = 10 & pdata.took > 20",
        "pdata.took > 20 OR tdata.pebbles = 10",
        "tdata.pebbles = 10 || took > 20",
    ],
)
def test_two_conditions_are_refused_not_read_as_a_text_value(text):
    """The tail after the first condition was read as a text value: the filter matched no game."""
    with pytest.raises(DataFilterError, match=r"one condition only \(and/or are not supported\)$"):
        DataFilter(text)


@pytest.mark.parametrize("op", [">=", "=", "!="])
def test_a_condition_without_its_value_says_so(op):
    """`pdata.took >=` was read as `>` and the text `=`: it said text compares with = or != only."""
    with pytest.raises(DataFilterError, match=f"a value is missing after {op}$"):
        DataFilter(f"pdata.took {op} ")


def test_a_text_value_may_hold_and():
    assert DataFilter("tdata.kind = rock and roll").passes(GAME)
    assert DataFilter("pdata.took > 20").passes(GAME) and not DataFilter("tdata.pebbles > 10").passes(GAME)
