"""Judge an IQ-Twist answer: check its solutions against the rules and against every solution the
oracle lists. `IQTwistJudge` is the puzzle's `Judge` (referee/judge.py; the runner is
referee/judging.py). The oracle's solutions are checked with the same rules first; a solution the
judged solver finds that passes every check and that the oracle did not list proves the oracle's
list incomplete.

Protocol: one solver process answers all the challenges in turn. The judge writes a challenge (one
placement string and a newline) and reads solutions, one a line, until an empty line (surrounding
spaces are ignored); the whole answer must arrive within the time limit. A solver that times out, crashes or prints more than
MAX_ANSWER_LINES lines is stopped and a fresh one is started for the next challenge. The time of a
challenge runs from writing its line to reading the empty line, so the first one includes the
solver's start-up.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass

from referee.answers import NONE, OracleError, last_stderr_line
from referee.iqtwist.pieces import PIECES, footprint
from referee.iqtwist.rules import (
    State,
    canonical,
    is_solved,
    parse_placement_string,
    validity_problem,
)
from referee.judge import Judge
from referee.platform.errors import InputFormatError, counted
from referee.platform.bot_errors import BotError, BotExited, BotTimeout
from referee.platform.process import BotProcess

MAX_ANSWER_LINES = 10_000  # the empty board, the most a challenge can have, has 5992 solutions


# The checks of one solution line, in the order they are made: a line failing one is not checked
# for the others (a line that is no placement string has no pieces to count).
LINE_CHECKS = ("valid", "complete", "consistent", "canonical")


@dataclass
class Checks:
    """What the judge found in one answer. Each check of a solution line holds when it held for
    every line; it fails when it failed for one; else it is None, not made for every line (a line
    failed an earlier check, or there is no line)."""

    valid: bool | None = None  # well-formed, pieces only, valid with the challenge's pegs
    complete: bool | None = None  # all eight pieces, all 32 cells covered
    consistent: bool | None = None  # the challenge's pieces on the same cells
    canonical: bool | None = None  # every piece at its lowest valid orientation for its cells
    all_found: bool = True  # every solution of the challenge, none twice
    solutions: int = 0  # the lines that pass every check (that are solutions), each counted once
    error: str | None = None  # the first thing wrong
    unlisted: str | None = None  # a line that passes every check but is not an expected solution

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
    valid: bool | None  # None: not checked on every line (see Checks)
    complete: bool | None
    consistent: bool | None
    canonical: bool | None
    all_found: bool | None  # None: no whole answer to check
    solutions: int | None  # the answer's lines that are solutions, each once (None: no whole answer)
    expected: int  # solutions the challenge has
    time_ms: float | None  # None when the solver failed to answer

    def describe(self) -> str:
        found = counted(self.expected, "solution")
        if self.solutions is not None:
            found = f"{self.solutions} of {found} found"
        timing = f" in {self.time_ms:.1f} ms" if self.time_ms is not None else ""
        if self.solved:
            return f"challenge {self.puzzle} {self.challenge}: solved, {found}{timing}"
        return f"challenge {self.puzzle} {self.challenge}: FAILED ({found}{timing}): {self.error}"


def check_solution(challenge: State, line: str) -> tuple[str, str] | None:
    """(flag, reason) for the first thing wrong with one solution line, or None."""
    if line == NONE:  # (the other puzzles' answer of no solution)
        return "valid", f"IQ-Twist answers no solution with the empty line alone, not {NONE}"
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
        return "complete", f"incomplete: {'piece' if len(missing) == 1 else 'pieces'} {missing} missing"
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
    """Check every line of an answer, then that together they are all the `expected` solutions
    (and note a solution that is not among them: it would prove them incomplete)."""
    checks = Checks()
    seen: dict[str, int] = {}
    listed = {_pieces(solution) for solution in expected}
    passed = dict.fromkeys(LINE_CHECKS, 0)  # the lines that passed each check
    for number, line in enumerate(lines, start=1):
        problem = check_solution(challenge, line)
        for flag in LINE_CHECKS if problem is None else LINE_CHECKS[: LINE_CHECKS.index(problem[0])]:
            passed[flag] += 1
        if problem:
            checks.fail(problem[0], f"solution {number} {line!r}: {problem[1]}")
        elif line in seen:
            checks.fail("all_found", f"solution {number} repeats solution {seen[line]}")
        else:
            checks.solutions += 1
            if checks.unlisted is None and _pieces(line) not in listed:
                checks.unlisted = line
        seen.setdefault(line, number)
    for flag in LINE_CHECKS:
        if lines and passed[flag] == len(lines):
            setattr(checks, flag, True)
    missing = [solution for solution in expected if solution not in seen]
    if missing:
        found = len(expected) - len(missing)
        checks.fail("all_found", f"found {found} of {counted(len(expected), 'solution')}; missing {missing[0]}")
    return checks


def _pieces(line: str) -> tuple[str, ...]:
    """A solution's placements in any order."""
    return tuple(sorted(line[i : i + 4] for i in range(0, len(line), 4)))


def _yes(flag: bool | None) -> str:
    return "-" if flag is None else "yes" if flag else "NO"


class IQTwistJudge(Judge):
    """Every canonical solution, each once, read up to the empty line that closes an answer."""

    def expectation(self, puzzle, challenge, answers: list[str]) -> list[str]:
        """Every solution of the challenge, the oracle's answer's lines, each checked with the rules.
        OracleError for a line that is not a solution, or one listed twice."""
        lines = [line.strip() for line in answers[0].splitlines() if line.strip()]
        seen: dict[str, int] = {}
        for number, line in enumerate(lines, start=1):
            problem = check_solution(challenge.state, line)
            if problem:
                raise OracleError(f"its solution {number} {line!r}: {problem[1]}")
            if line in seen:
                raise OracleError(f"its solution {number} repeats its solution {seen[line]}")
            seen[line] = number
        return sorted(lines)

    def read_answer(self, puzzle, bot: BotProcess, challenge, timeout: float, lines: list[str]) -> tuple[str, float]:
        """Send one challenge and append the lines up to the empty line to `lines`: (the answer's text,
        the seconds taken). The end of the solver's output ends its last answer too (a solver that
        printed its lines and exited, as a CodinGame puzzle's may)."""
        start = time.perf_counter()
        deadline = start + timeout
        line, _ = bot.ask([challenge.text], timeout)
        while line.strip():
            if len(lines) == MAX_ANSWER_LINES:
                raise BotError(f"more than {MAX_ANSWER_LINES} solution lines")
            lines.append(line.strip())
            try:
                line = bot.read_line(deadline - time.perf_counter())
            except BotExited:
                if bot.exit_code(wait=1.0) == 0:
                    break
                raise
            except BotTimeout:
                if lines[-1] == NONE:  # (the other puzzles' no-solution line, alone: its verdict says so)
                    break
                raise
        return "\n".join(lines), time.perf_counter() - start

    def verdict(self, puzzle, number: int, challenge, expected: list[str], answer: str, seconds: float) -> Verdict:
        """The verdict on an answer's text (solution lines) for one challenge, `expected` its every
        solution; OracleError when the answer has a solution that is not among them."""
        lines = [line.strip() for line in answer.splitlines() if line.strip()]
        checks = check_answer(challenge.state, lines, expected)
        if checks.unlisted is not None:
            raise OracleError(
                f"the solver's solution {checks.unlisted} passes every check and is not in the oracle's "
                f"{counted(len(expected), 'solution')}"
            )
        return Verdict(
            number,
            challenge.text,
            checks.solved,
            checks.error,
            checks.valid,
            checks.complete,
            checks.consistent,
            checks.canonical,
            checks.all_found,
            checks.solutions,
            len(expected),
            round(1000 * seconds, 3),
        )

    def failed(self, puzzle, number: int, challenge, expected: list[str], failure: str, read: list[str]) -> Verdict:
        """The verdict on a solver that gave no (whole) answer."""
        return Verdict(number, challenge.text, False, failure, *[None] * 6, len(expected), None)

    def failure(self, error, stderr: str, read: list[str]) -> str:
        """Why a solver gave no answer: its error after the lines it did print, its stderr's last line."""
        return f"{error.reason} after {counted(len(read), 'line')}: {error}" + last_stderr_line(stderr)

    def summary(self, verdicts: list[Verdict]) -> str:
        """The table after the verdicts: each check per challenge, then the time per challenge."""
        rows = [
            f"{'#':>4}  {'valid':5}  {'complete':8}  {'consistent':10}  {'canonical':9}  {'all found':9}  "
            f"{'found':>9}  {'ms':>9}"
        ]
        for v in verdicts:
            ms = f"{v.time_ms:9.1f}" if v.time_ms is not None else f"{'-':>9}"
            found = f"{'-' if v.solutions is None else v.solutions}/{v.expected}"
            rows.append(
                f"{v.puzzle:>4}  {_yes(v.valid):5}  {_yes(v.complete):8}  {_yes(v.consistent):10}  "
                f"{_yes(v.canonical):9}  {_yes(v.all_found):9}  {found:>9}  {ms}"
            )
        times = [v.time_ms for v in verdicts if v.time_ms is not None]
        solved = sum(v.solved for v in verdicts)
        line = f"solved {solved} of {len(verdicts)}"
        if times:
            line += (
                f"; time per challenge: median {statistics.median(times):.1f} ms, max {max(times):.1f} ms"
                " (the first includes the solver's start-up)"
            )
        return "\n".join(rows + [line])
