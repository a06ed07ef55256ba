"""Volcanoes, refereed by our own exact referee in the arena's processes (`game.py`), with the
project's bots as its own players (`players.py`) and `arena analyse` (`analyse.py`)."""
