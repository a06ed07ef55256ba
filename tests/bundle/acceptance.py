"""The bundle's acceptance games: a submission file plays N games through the referee as a process,
in a Python where numba (and the project itself) cannot be imported, against an in-process
baseline bot (warmed up, so its start costs nothing). Seats alternate; figures are printed.

    python tests/bundle/acceptance.py SUBMISSION.py --opponent random --games 100
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bots.volcanoes.base import InProcessSeat  # noqa: E402
from bots.volcanoes.boss import BossBot  # noqa: E402
from bots.volcanoes.random import RandomBot  # noqa: E402
from referee.process import BotProcess  # noqa: E402
from referee.volcanoes.match import Settings, play_game  # noqa: E402

OPPONENTS = {"random": RandomBot, "boss": BossBot}
BLOCKED = ("numba", "bots", "referee", "arena")


def blocking_path(directory: Path) -> Path:
    """A directory to put first on PYTHONPATH: importing numba or the project from it fails."""
    for name in BLOCKED:
        (directory / name).mkdir(exist_ok=True)
        (directory / name / "__init__.py").write_text(
            f"raise ImportError('{name} is not importable here: the bundle must stand alone')\n"
        )
    return directory


def submission_command(submission: Path, blocked: Path) -> list[str]:
    return ["env", f"PYTHONPATH={blocked}", sys.executable, str(submission)]


def play(submission: Path, opponent: str, games: int, first_seed: int = 0) -> dict:
    opponent_class = OPPONENTS[opponent]
    opponent_class().warm_up()
    settings = Settings()
    figures = {
        "games": 0,
        "wins": 0,
        "losses": 0,
        "draws": 0,
        "our_timeouts": 0,
        "our_crashes": 0,
        "reasons": {},
        "max_ms": 0.0,
        "max_first_turn_ms": 0.0,
        "mean_ms": 0.0,
    }
    turn_ms: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        command = submission_command(submission, blocking_path(Path(tmp)))
        for game in range(games):
            seed, ours = first_seed + game // 2, ("blue", "orange")[game % 2]
            other = InProcessSeat(opponent_class(seed=seed))
            with BotProcess(command) as bundle:
                blue, orange = (bundle, other) if ours == "blue" else (other, bundle)
                result = play_game(blue, orange, seed, settings)
            times = [t.time_ms for t in result.turn_log if t.actor == ours and t.time_ms is not None]
            if times:
                figures["max_first_turn_ms"] = max(figures["max_first_turn_ms"], times[0])
                turn_ms += times[1:]
            figures["games"] += 1
            if result.winner == ours:
                figures["wins"] += 1
            elif result.winner == "draw":
                figures["draws"] += 1
            else:
                figures["losses"] += 1
                if result.reason == "timeout":
                    figures["our_timeouts"] += 1
                elif result.reason in ("crash", "invalid"):
                    figures["our_crashes"] += 1
            key = f"{'won' if result.winner == ours else 'not won'}: {result.reason}"
            figures["reasons"][key] = figures["reasons"].get(key, 0) + 1
            if result.winner != ours:
                print(
                    f"game {game} (seed {seed}, we are {ours}): {result.winner} by {result.reason}"
                    f" ({result.detail}) on turn {result.turns}, our turn {len(times) + 1}",
                    file=sys.stderr,
                    flush=True,
                )
    if turn_ms:
        figures["max_ms"] = max(turn_ms)
        figures["mean_ms"] = round(sum(turn_ms) / len(turn_ms), 2)
        figures["turns_over_90_ms"] = sum(ms > 90 for ms in turn_ms)
        figures["turns"] = len(turn_ms)
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("submission", type=Path)
    parser.add_argument("--opponent", choices=sorted(OPPONENTS), default="random")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0, help="seed of the first pair of games")
    args = parser.parse_args()
    started = time.time()
    figures = play(args.submission.resolve(), args.opponent, args.games, args.seed)
    figures["opponent"] = args.opponent
    figures["minutes"] = round((time.time() - started) / 60, 1)
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
