"""Shared data for the Stormy Seas tests: the four known cards and their recorded figures."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bots.stormyseas import search
from referee.stormyseas.rules import parse_card

DATA = Path(__file__).resolve().parents[1] / "data" / "stormyseas"


@pytest.fixture(scope="session")
def recorded() -> dict:
    """cards.json: rows, optimal figures, example solutions and the card-3 state trace."""
    return json.loads((DATA / "cards.json").read_text())


@pytest.fixture(scope="session")
def cards(recorded) -> dict:
    """The known cards by name ("card_3", ...), parsed."""
    return {name: parse_card("\n".join(entry["rows"])) for name, entry in recorded["cards"].items()}


@pytest.fixture(scope="session", autouse=True)
def compiled_kernel(cards):
    """Compile (or load) the numba search once, before any test starts a solver process with a
    time limit: the processes then load it from numba's cache."""
    search.solve(cards["card_10"])
