"""The one judge runner of every solo puzzle (each puzzle is a `referee.puzzle.Puzzle`):

    referee NAME judge FILE SOLVER_CMD [--time-ms N] [--json] [--oracle CMD] [--oracle-time-ms N]

The judge runs SOLVER_CMD as a process on each instance of FILE, replays its answer and prints a
line per instance (or, with --json, one JSON object per instance per line), then a summary. One
solver process answers every instance in turn (a fresh one after a timeout or a crash), or a fresh
one answers each where the puzzle says so (`one_solver_each`: its solvers read a single instance).

What a right answer must match (the optimum, every solution, or that there is none) comes from the
oracle: a reference solver run as a process the same way (by default the project's own, see
`referee.puzzle.default_oracle`), its answers checked with the rules like any other. The judged
solver answers an instance first, then the oracle, so neither's time counts against the other.

How answers are read and judged is the puzzle's judge's (`Puzzle.judge`, a `referee.judge.Judge`),
configured by its own options on the command line; the runner only runs the processes and reports.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from collections.abc import Callable, Iterable, Iterator

from .answers import OracleError, is_not_optimal, last_stderr_line
from .judge import Judge
from .platform.errors import InputFormatError, counted
from .platform.files import not_utf8
from .platform.options import positive_ms
from .platform.bot_errors import BotError, BotExited, BotStartError
from .platform.process import BotProcess
from .puzzle import Puzzle, default_oracle

ORACLE_MS = 120_000  # the oracle's time for one answer: generous, a timeout stops the judge


def add_judge_command(commands, puzzle: Puzzle) -> argparse.ArgumentParser:
    """Add `judge FILE SOLVER_CMD [--time-ms N] [--json]` (and the puzzle's judge's own options) to
    a puzzle's subcommands."""
    item, default_ms = puzzle.item, puzzle.default_ms
    parser = commands.add_parser("judge", help=f"run a solver on every {item} of FILE and check its answers")
    parser.add_argument("file", metavar="FILE", help=puzzle.file_help)
    parser.add_argument("solver", metavar="SOLVER_CMD", help="the solver's command line, one argument (quote it)")
    parser.add_argument(
        "--time-ms",
        type=positive_ms,
        default=default_ms,
        help=f"time for each answer{puzzle.time_help} (default {default_ms:g})",
    )
    parser.add_argument("--json", action="store_true", help=f"one JSON object per {item} per line")
    parser.add_argument(
        "--oracle",
        metavar="CMD",
        default=None,
        help=f"the reference solver's command line, run as the solver is (default: the project's, "
        f"{default_oracle(puzzle.name)})",
    )
    parser.add_argument(
        "--oracle-time-ms",
        type=positive_ms,
        default=ORACLE_MS,
        help=f"the oracle's time for each answer (default {ORACLE_MS:g})",
    )
    puzzle.judge.add_options(parser)
    parser.set_defaults(run=lambda args: run_judge(puzzle, args))
    return parser


def run_judge(puzzle: Puzzle, args: argparse.Namespace) -> int:
    """`referee NAME judge ...`: judge every instance of the file, report, return the exit status."""
    judge = puzzle.judge.with_options(args)

    def judging():
        with open(args.file, encoding="utf-8-sig") as file:  # (a BOM, as Windows editors write, is no cell)
            instances = puzzle.parse_instances(file.read(), args.file)
        return verdicts(puzzle, instances, args.solver, args.time_ms, args.oracle, args.oracle_time_ms, judge)

    return report_verdicts(args.prog, args.file, judging, args.json, judge.as_dict, judge.describe, judge.summary)


def judge_one(
    puzzle: Puzzle,
    instance,
    command: str,
    time_ms: float | None = None,
    oracle: str | None = None,
    judge: Judge | None = None,
):
    """The verdict on `command`'s answer to one instance (time_ms: the puzzle's default; judge: the
    puzzle's judge, or one with other options)."""
    return next(verdicts(puzzle, [instance], command, time_ms or puzzle.default_ms, oracle, judge=judge))


class Oracle:
    """The reference solver: one process a run (`Judge.oracle_runs`), started when first needed,
    asked each instance as the judged solver is. Any failure of it is an OracleError."""

    def __init__(self, puzzle: Puzzle, judge: Judge, command: str, time_ms: float):
        self.puzzle, self.judge, self.time_ms = puzzle, judge, time_ms
        self.commands = [" ".join([command, *map(shlex.quote, args)]) for args in judge.oracle_runs()]
        self.processes: list[BotProcess | None] = [None] * len(self.commands)

    def expect(self, number: int, instance, answer: str | None):
        """The expectation for the judged solver's `answer` to instance `number` (None when it
        needs none)."""
        if not self.judge.needs_oracle(answer):
            return None
        answers = [self._ask(run, number, instance) for run in range(len(self.commands))]
        try:
            return self.judge.expectation(self.puzzle, instance, answers)
        except OracleError as exc:
            raise OracleError(f"oracle wrong on {self.puzzle.item} {number}: {exc}") from None

    def _ask(self, run: int, number: int, instance) -> str:
        process = self.processes[run]
        if process is None:
            try:
                process = self.processes[run] = BotProcess(self.commands[run], line_ends_at_exit=True)
            except BotStartError as exc:
                raise OracleError(f"oracle cannot start: {exc}") from None
        try:
            answer, _ = self.judge.read_answer(self.puzzle, process, instance, self.time_ms / 1000, [])
        except BotError as exc:
            stderr = process.take_stderr()
            self._close(run)
            raise OracleError(
                f"oracle {exc.reason} on {self.puzzle.item} {number}: {exc}" + last_stderr_line(stderr)
            ) from None
        if self.puzzle.one_solver_each:
            self._close(run)
        return answer

    def _close(self, run: int) -> None:
        if self.processes[run] is not None:
            self.processes[run].close()
            self.processes[run] = None

    def close(self) -> None:
        for run in range(len(self.processes)):
            self._close(run)


def verdicts(
    puzzle: Puzzle,
    instances: list,
    command: str,
    time_ms: float,
    oracle: str | None = None,
    oracle_ms: float = ORACLE_MS,
    judge: Judge | None = None,
) -> Iterator:
    """Yield a verdict per instance, the solver's answer checked against the oracle's (`oracle`:
    a command line, by default the project's solver) by `judge` (by default the puzzle's).
    BotStartError when the command cannot start, OracleError when the oracle fails or is proved
    wrong."""
    judge = puzzle.judge if judge is None else judge
    bot = None
    reference = Oracle(puzzle, judge, oracle or default_oracle(puzzle.name), oracle_ms)
    try:
        for number, instance in enumerate(instances, start=1):
            if bot is None:
                bot, answered = BotProcess(command, line_ends_at_exit=True), 0
            read: list[str] = []
            try:
                answer, seconds = judge.read_answer(puzzle, bot, instance, time_ms / 1000, read)
            except BotError as exc:
                failure = judge.failure(_stopped(exc, bot, puzzle, number, answered), bot.take_stderr(), read)
                bot.close()
                bot = None
                expected = reference.expect(number, instance, None)
                yield judge.failed(puzzle, number, instance, expected, failure, read)
                continue
            answered += 1
            if puzzle.one_solver_each:
                bot.close()
                bot = None
            expected = reference.expect(number, instance, answer)
            try:
                verdict = judge.verdict(puzzle, number, instance, expected, answer, seconds)
            except OracleError as exc:
                raise OracleError(f"oracle wrong on {puzzle.item} {number}: {exc}") from None
            yield verdict
    finally:
        reference.close()
        if bot is not None:
            bot.close()


class SolverStopped(BotExited):
    """A solver that exited with status 0 before answering: no crash, but a misread protocol."""

    reason = "stopped"


def _stopped(error: BotError, bot: BotProcess, puzzle: Puzzle, number: int, answered: int) -> BotError:
    """`error`, or, where the solver exited with status 0 before answering instance `number`, a
    SolverStopped saying so (after answering `answered` instances: the judge did not start a fresh
    process, as a solver that answers once and exits, as on CodinGame, expects)."""
    if not isinstance(error, BotExited) or bot.exit_code(wait=0.2) != 0:
        return error
    if not answered:
        return SolverStopped("it exited (status 0) without answering")
    item = puzzle.item
    return SolverStopped(
        f"it exited (status 0) after answering {item} {number - 1}; the judge sends every {item} to one "
        f"solver process in turn, so a solver answers each {item} it reads until its input ends"
    )


def _refusal(error: Exception, source: str) -> str:
    """What a judge says when it cannot judge: the file `source` is not the puzzle's text, the solver
    cannot start, the oracle failed."""
    if isinstance(error, InputFormatError):
        return f"{error}" if str(error).startswith(source) else f"{source}: {error}"  # (a reader may name it)
    if isinstance(error, UnicodeDecodeError):
        return not_utf8(source, error)
    if isinstance(error, OSError):
        return f"cannot read {source}: {error.strerror or error}"
    if isinstance(error, BotStartError):
        return f"solver cannot start: {error}"
    return str(error)  # an OracleError says what failed


def report_verdicts(
    prog: str,
    source: str,
    judging: Callable[[], Iterable],
    as_json: bool,
    to_dict: Callable,
    describe: Callable,
    summary: Callable,
) -> int:
    """Print each verdict as `judging()` yields it (a line, or a JSON object with `as_json`), then
    the summary of them all. Exit status: 0 when every answer is right, 1 when any is wrong (not
    optimal, or missing: a timeout, a crash), 2 for a file that is not the puzzle's text (malformed, not UTF-8)
    or a solver that cannot start, and for an oracle that fails or is proved wrong, with one line
    `PROG: message`. A verdict is right when its `error` is None."""
    verdicts = []
    try:
        for verdict in judging():
            verdicts.append(verdict)
            print(json.dumps(to_dict(verdict)) if as_json else describe(verdict), flush=True)
    except BrokenPipeError:  # the reader left (`| head`): no fault of the file's (run_command stops quietly)
        raise
    except (InputFormatError, UnicodeDecodeError, OSError, BotStartError, OracleError) as exc:
        print(f"{prog}: {_refusal(exc, source)}", file=sys.stderr)
        return 2
    if not as_json:
        print(summary(verdicts))
    wrong = sum(verdict.error is not None for verdict in verdicts)
    if wrong:
        slow = sum(is_not_optimal(verdict.error) for verdict in verdicts)
        why = f" ({slow} not optimal)" if slow else ""
        print(f"{prog}: {wrong} of {counted(len(verdicts), 'answer')} wrong{why}", file=sys.stderr)
    return 1 if wrong else 0
