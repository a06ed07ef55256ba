"""`referee iqtwist bench`: how fast the search solves challenges and counts the empty board.

Every challenge is solved to the end (all its canonical solutions), which proves a unique solution
unique. The kernel is compiled (or loaded from numba's cache) before any timing; the search runs
on one core. Goals: the 108 recorded challenges in under 5 s in total, the empty board's 5992
solutions in under 10 s.
"""
from __future__ import annotations

import statistics
import time
from pathlib import Path
from typing import NamedTuple

from referee.errors import InputFormatError
from referee.iqtwist.rules import State, parse_state
from referee.iqtwist.search import count_solutions, solutions, warm_up

RECORDED_CHALLENGES = Path(__file__).resolve().parents[2] / "tests" / "data" / "iqtwist" / "challenges.tsv"
EMPTY_BOARD_SOLUTIONS = 5992


class Challenge(NamedTuple):
    name: str
    challenge: str
    expected: str | None  # its recorded unique solution, where the file gives one


class Timing(NamedTuple):
    challenge: Challenge
    found: list[str]
    seconds: float

    @property
    def problem(self) -> str | None:
        """Why the result is not a unique solution (equal to the recorded one), or None."""
        if len(self.found) != 1:
            return f"{len(self.found)} solutions, not exactly one"
        if self.challenge.expected is not None and self.found[0] != self.challenge.expected:
            return f"solution {self.found[0]}, recorded {self.challenge.expected}"
        return None


def read_bench_file(path: Path) -> list[Challenge]:
    """Challenges from `path`: either one placement string a line (as for the judge) or the
    recorded challenges' tab-separated rows (id, source, level, challenge, solution). Blank lines
    and `#` comments are skipped."""
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise InputFormatError(f"cannot read: {exc.strerror}", str(path)) from None
    found = []
    for number, line in enumerate(lines, start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        where = f"{path}, line {number}"
        fields = line.split("\t")
        if len(fields) == 1:
            found.append(Challenge(f"line {number}", line, None))
        elif len(fields) == 5:
            found.append(Challenge(fields[0], fields[3], fields[4]))
        else:
            raise InputFormatError(f"{len(fields)} tab-separated fields, expected 1 or 5", where)
        parse_state(found[-1].challenge, where)
    if not found:
        raise InputFormatError("no challenge in the file", str(path))
    return found


def time_challenges(challenges: list[Challenge]) -> list[Timing]:
    """Solve each challenge to the end, timing parse, candidate table and search together."""
    timings = []
    for challenge in challenges:
        start = time.perf_counter()
        found = solutions(parse_state(challenge.challenge))
        timings.append(Timing(challenge, found, time.perf_counter() - start))
    return timings


def time_empty_board() -> tuple[int, float]:
    """The number of canonical solutions of the empty board, and the seconds taken to count them."""
    start = time.perf_counter()
    count = count_solutions(State())
    return count, time.perf_counter() - start


def run(path: Path) -> tuple[list[str], bool]:
    """Warm up, time the challenges of `path` and the empty board: the report's lines, and whether
    every challenge had its unique solution and the empty board its 5992."""
    challenges = read_bench_file(path)
    start = time.perf_counter()
    warm_up()
    lines = [f"warm-up (numba compile or cache load): {time.perf_counter() - start:.2f} s; the search runs on one core"]

    timings = time_challenges(challenges)
    failures = [f"  {t.challenge.name} {t.challenge.challenge}: {t.problem}" for t in timings if t.problem]
    ms = [1000 * t.seconds for t in timings]
    slowest = max(timings, key=lambda t: t.seconds)
    lines += [
        f"challenges: {len(timings)} from {path}; {len(timings) - len(failures)} solved with a unique solution",
        *failures,
        f"per challenge median: {statistics.median(ms):.2f} ms",
        f"per challenge max: {max(ms):.2f} ms ({slowest.challenge.name})",
        f"challenges total: {sum(ms) / 1000:.3f} s (goal: under 5 s for the 108 recorded)",
    ]
    count, seconds = time_empty_board()
    lines.append(f"empty board: {count} solutions in {seconds:.3f} s (goal: {EMPTY_BOARD_SOLUTIONS} in under 10 s)")
    return lines, not failures and count == EMPTY_BOARD_SOLUTIONS
