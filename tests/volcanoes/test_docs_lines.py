"""docs/volcanoes.md shows a bot author the lines a bot reads: orange's first turn after blue raised
N01. The block must be what the referee sends, read by a bot in a real game: each line of it, with
`...` standing for any text, is a line the bot read, in the same order."""

import re
import sys
from pathlib import Path

from referee.platform.process import BotProcess
from referee.volcanoes.match import Settings, play_game

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "volcanoes.md"
HEADING = "## The rules and the lines, for a bot in any language"
# Answers one move and exits (its next turn ends the game), or records what it reads up to its first answer and answers S01.
BOT = """
import sys
record = sys.argv[1] if len(sys.argv) > 1 else None
seen = []
while True:
    line = sys.stdin.readline()
    seen.append(line.rstrip("\\n"))
    words = line.split()
    if words and words[0][0] in "NS" and len(words) != 4:  # the valid tiles' line
        break
if record:
    open(record, "w").write("\\n".join(seen) + "\\n")
print("S01" if record else "N01", flush=True)
"""


def documented_lines() -> list[str]:
    text = GUIDE.read_text()
    section = text[text.index(HEADING) :]
    block = section[section.index("```output\n") + len("```output\n") :]
    return block[: block.index("```")].splitlines()


def test_the_guide_shows_the_lines_orange_reads_on_its_first_turn(tmp_path):
    bot = tmp_path / "bot.py"
    bot.write_text(BOT)
    record = tmp_path / "seen.txt"
    settings = Settings(first_turn_ms=5000, turn_ms=5000)
    with (
        BotProcess([sys.executable, "-S", str(bot)]) as blue,
        BotProcess([sys.executable, "-S", str(bot), str(record)]) as orange,
    ):
        play_game(blue, orange, seed=1, settings=settings)
    seen = record.read_text().splitlines()
    assert len(seen) == 1 + 80 + 2
    at = 0
    for shown in documented_lines():
        pattern = re.compile(".*".join(re.escape(part) for part in re.split(r"\.\.\.(?: \([^)]*\))?", shown)))
        while at < len(seen) and not pattern.fullmatch(seen[at]):
            at += 1
        assert at < len(seen), f"the guide shows {shown!r}, which the bot did not read (in this order)"
        at += 1
