import gzip
import json
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="session")
def conformance_games():
    """The 800 games recorded from CodinGame's Volcanoes referee (see tests/data/volcanoes)."""
    with gzip.open(DATA / "volcanoes" / "conformance.jsonl.gz", "rt") as f:
        return [json.loads(line) for line in f]
