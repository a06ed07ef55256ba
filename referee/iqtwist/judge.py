"""Judge an IQ-Twist solver: give it each challenge, check its solutions against the rules and
against every solution the referee's own search finds.

Protocol: one solver process answers all the challenges in turn. The judge writes a challenge (one
placement string and a newline) and reads solutions, one a line, until an empty line (surrounding
spaces are ignored); the whole answer must arrive within the time limit. A solver that times out, crashes or prints more than
MAX_ANSWER_LINES lines is stopped and a fresh one is started for the next challenge. The time of a
challenge runs from writing its line to reading the empty line, so the first one includes the
solver's start-up.
"""
from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass

from referee.errors import InputFormatError
from referee.iqtwist.pieces import PIECES, footprint
from referee.iqtwist.rules import (
    State,
    canonical,
    is_solved,
    parse_placement_string,
    parse_state,
    validity_problem,
)
from referee.iqtwist.search import solutions, warm_up
from referee.process import BotError, BotProcess

MAX_ANSWER_LINES = 10_000  # the empty board, the most a challenge can have, has 5992 solutions


@dataclass
class Checks:
    """What the judge found in one answer. Each flag holds for every solution line."""

    valid: bool = True  # well-formed, pieces only, valid with the challenge's pegs
    complete: bool = True  # all eight pieces, all 32 cells covered
    consistent: bool = True  # the challenge's pieces on the same cells
    canonical: bool = True  # every piece at its lowest valid orientation for its cells
    all_found: bool = True  # every solution of the challenge, none twice
    error: str | None = None  # the first thing wrong

    def fail(self, flag: str, message: str) -> None:
        setattr(self, flag, False)
        if self.error is None:
            self.error = message

    @property
    def solved(self) -> bool:
        return self.error is None


@dataclass
class Verdict:
    puzzle: int  # 1-based index in the file
    challenge: str
    solved: bool
    error: str | None
    valid: bool
    complete: bool
    consistent: bool
    canonical: bool
    all_found: bool
    solutions: int  # lines answered
    expected: int  # solutions the challenge has
    time_ms: float | None  # None when the solver failed to answer

    def to_dict(self) -> dict:
        return asdict(self)


def check_solution(challenge: State, line: str) -> tuple[str, str] | None:
    """(flag, reason) for the first thing wrong with one solution line, or None."""
    try:
        placements = parse_placement_string(line)
    except InputFormatError as exc:
        return "valid", f"not a placement string: {exc}"
    pegs = [p for p in placements if p.is_peg]
    if pegs:
        return "valid", f"has the peg {pegs[0]}; a solution lists the pieces only"
    problem = validity_problem(placements + challenge.pegs)
    if problem:
        return "valid", f"invalid with the challenge's pegs: {problem}"
    state = State(placements, challenge.pegs)
    if not is_solved(state):
        missing = "".join(letter for letter in PIECES if letter not in {p.letter for p in placements})
        return "complete", f"incomplete: piece(s) {missing} missing"
    placed = {p.letter: p for p in placements}
    for given in challenge.pieces:
        if footprint(*placed[given.letter]).cells != footprint(*given).cells:
            return "consistent", f"{placed[given.letter]} does not cover the cells of the challenge's {given}"
    for placement in placements:
        lowest = canonical(placement, challenge.pegs)
        if lowest != placement:
            return "canonical", f"{placement} is not canonical: {lowest} covers the same cells"
    return None


def check_answer(challenge: State, lines: list[str], expected: list[str]) -> Checks:
    """Check every line of an answer, then that together they are all the `expected` solutions."""
    checks = Checks()
    seen: dict[str, int] = {}
    for number, line in enumerate(lines, start=1):
        problem = check_solution(challenge, line)
        if problem:
            checks.fail(problem[0], f"solution {number} {line!r}: {problem[1]}")
        elif line in seen:
            checks.fail("all_found", f"solution {number} repeats solution {seen[line]}")
        seen.setdefault(line, number)
    missing = [solution for solution in expected if solution not in seen]
    if missing:
        found = len(expected) - len(missing)
        checks.fail("all_found", f"found {found} of {len(expected)} solutions; missing {missing[0]}")
    return checks


def _read_answer(bot: BotProcess, challenge: str, timeout: float, lines: list[str]) -> float:
    """Send one challenge and append the lines up to the empty line to `lines`; the seconds taken."""
    start = time.perf_counter()
    deadline = start + timeout
    line, _ = bot.ask([challenge], timeout)
    while line.strip():
        if len(lines) == MAX_ANSWER_LINES:
            raise BotError(f"more than {MAX_ANSWER_LINES} solution lines")
        lines.append(line.strip())
        line = bot.read_line(deadline - time.perf_counter())
    return time.perf_counter() - start


def judge(challenges: list[str], command: str, time_ms: float = 10_000) -> Iterator[Verdict]:
    """Yield a verdict per challenge (placement strings; InputFormatError for one that is malformed
    or invalid). BotStartError when the command cannot start."""
    warm_up()
    bot = None
    try:
        for number, challenge in enumerate(challenges, start=1):
            state = parse_state(challenge, f"challenge {number}")
            expected = solutions(state)
            if bot is None:
                bot = BotProcess(command)
            lines: list[str] = []
            try:
                seconds = _read_answer(bot, challenge, time_ms / 1000, lines)
            except BotError as exc:
                stderr = bot.take_stderr().strip().splitlines()
                bot.close()
                bot = None
                error = f"{exc.reason} after {len(lines)} line(s): {exc}"
                error += f" (last stderr line: {stderr[-1]})" if stderr else ""
                yield Verdict(number, challenge, False, error, *[False] * 5, len(lines), len(expected), None)
                continue
            checks = check_answer(state, lines, expected)
            yield Verdict(
                number,
                challenge,
                checks.solved,
                checks.error,
                checks.valid,
                checks.complete,
                checks.consistent,
                checks.canonical,
                checks.all_found,
                len(lines),
                len(expected),
                round(1000 * seconds, 3),
            )
    finally:
        if bot is not None:
            bot.close()

