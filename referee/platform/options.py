"""Argparse types for numbers on the project's command lines: finite, in range, never absurd. An
option that takes a time or a count uses them (one rule everywhere), so no NaN, infinity or number
out of range reaches arithmetic that overflows, hangs or poisons a stored result: argparse refuses
it with one line (`PROG: argument --turn-ms: must be a finite number, not inf`). And `given`, for an
option that names a file or a command: an empty value is refused, not taken for the option left out."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

MAX_MS = 86_400_000  # a day: the longest time in milliseconds an option takes (none is meant to be absurd)
MAX_SECONDS = 86_400


def number(
    kind: type = float, *, above: float | None = None, least: float | None = None, most: float | None = None
) -> Callable[[str], float]:
    """An argparse type: a finite number of `kind` (int or float), above `above`, at least `least`
    and at most `most` (each where given). NaN, infinities and numbers out of range are refused with
    a message naming the bound, so no option reaches arithmetic that overflows or poisons a result."""

    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"not {'a whole number' if kind is int else 'a number'}: {text!r}"
            ) from None
        if not math.isfinite(value):
            raise argparse.ArgumentTypeError(f"must be a finite number, not {text}")
        if above is not None and not value > above:
            raise argparse.ArgumentTypeError(f"must be above {_shown(above)}, not {text}")
        if least is not None and value < least:
            raise argparse.ArgumentTypeError(f"must be at least {_shown(least)}, not {text}")
        if most is not None and value > most:
            raise argparse.ArgumentTypeError(f"must be at most {_shown(most)}, not {text}")
        return value

    parse.__name__ = kind.__name__  # argparse names the type in its messages
    return parse


def _shown(bound: float) -> str:
    return f"{bound:,.0f}" if float(bound).is_integer() else f"{bound:g}"


positive_ms = number(float, above=0, most=MAX_MS)  # a time limit in milliseconds
positive_seconds = number(float, above=0, most=MAX_SECONDS)


def count(least: int = 1) -> Callable[[str], int]:
    """An argparse type: a whole number, at least `least` (how many games, rounds, ...)."""
    return number(int, least=least)


def given(text: str) -> str:
    """An argparse type: a file's or a command's name, not empty. `--compare "$BASELINE"` with the
    variable unset in a CI script was taken for no --compare at all, and passed with nothing compared."""
    if not text.strip():
        raise argparse.ArgumentTypeError("is empty: give a value")
    return text


given.__name__ = "value"
