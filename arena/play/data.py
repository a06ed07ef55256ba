"""Data the bots emit: psyleague's convention, a line on a bot's stderr

    [PDATA] name = value      (of this player in this game: nodes searched, a depth reached...)
    [TDATA] name = value      (of the game: the map's size, a seed-derived feature...)

is kept with the game (`pdata`, one mapping per seat; `tdata`, one for the game) and shown by
reports as a column per name (its mean per player). A value is a number where it reads as one,
else text; a name said twice in a game keeps its last value.
"""

from __future__ import annotations

import math
import re

_LINE = re.compile(r"^\s*\[(PDATA|TDATA)\]\s*([^=\s][^=]*?)\s*=\s*(.*?)\s*$")
MAX_NAMES = 50  # per game and kind: a bot cannot fill the store with names
MAX_TEXT = 200


def _value(text: str):
    try:
        number = float(text)
    except ValueError:
        return text[:MAX_TEXT]
    return number if math.isfinite(number) else text[:MAX_TEXT]


def emitted_data(stderr: list[list[str]]) -> dict:
    """{"pdata": [per seat {name: value}], "tdata": {name: value}} from each seat's stderr per turn;
    {} when no bot emitted any."""
    pdata: list[dict] = [{} for _ in stderr]
    tdata: dict = {}
    for seat, turns in enumerate(stderr):
        for text in turns:
            for line in text.splitlines():
                match = _LINE.match(line)
                if not match:
                    continue
                kind, name, value = match.groups()
                target = pdata[seat] if kind == "PDATA" else tdata
                if name in target or len(target) < MAX_NAMES:
                    target[name[:MAX_TEXT]] = _value(value)
    found = {}
    if any(pdata):
        found["pdata"] = pdata
    if tdata:
        found["tdata"] = tdata
    return found
