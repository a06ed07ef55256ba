"""The one command shape of every puzzle's solver, `python -m bots.NAME.solver`: what differs
between puzzles is the search (`solve`) and the puzzle's contract (`referee.puzzle.Puzzle`).

The solver reads instances from stdin as the puzzle frames them (one line, or a block of lines) and
answers each in turn, flushing every answer: the answer's text, or the puzzle's no-solution answer
(`NONE`) when `solve` returns None, which it does only once its search has proved there is none. An instance that
is not the puzzle's text gets an empty answer line and one line on stderr saying what is wrong and
where (a one-line instance quoted, shortened, never echoed whole); the solver goes on with the next
and exits 2 at the end of its input (0 when every instance was one). Input that is not UTF-8 ends it
with one line and exit status 2.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable

from referee.platform.errors import CommandParser, InputFormatError, reader_gone, shorten
from referee.platform.commands import INTERRUPTED, terminate_as_interrupt
from referee.puzzle import Puzzle

# report(text, instance, answer, seconds, cpu_seconds) after each answer; `instance` is None for
# text that is not an instance, `answer` None for NONE.
Report = Callable[[str, object, object, float, float], None]


def parser(puzzle: Puzzle, description: str, command: str = "solver") -> argparse.ArgumentParser:
    """The argument parser of a puzzle's command in bots/ (its solver, or `generate`...), named as it
    is run (`python -m bots.NAME.COMMAND`), refusing a mistake in one line; the command adds its own
    options."""
    return CommandParser(prog=f"python -m bots.{puzzle.name}.{command}", description=description)


def bad_input(puzzle: Puzzle, text: str, error: InputFormatError) -> str:
    """The one line a solver writes on stderr for text that is not an instance."""
    if "\n" in text.strip():  # a block of lines: the error names the line
        return f"{puzzle.name} solver: bad {puzzle.item}: {error}"
    return f"{puzzle.name} solver: {puzzle.item} {shorten(text.strip())}: {error}"


def run(puzzle: Puzzle, solve: Callable, report: Report | None = None, stdin=None, stdout=None) -> int:
    """Answer every instance on `stdin` (default sys.stdin) with `solve(instance)`; the exit status
    (130, saying so, when Ctrl+C or SIGTERM stops it)."""
    stdin, stdout = stdin or sys.stdin, stdout or sys.stdout
    try:
        with terminate_as_interrupt():
            return _answer_all(puzzle, solve, report, stdin, stdout)
    except UnicodeDecodeError:
        print(f"{puzzle.name} solver: the input is not UTF-8 text", file=sys.stderr)
        return 2
    except BrokenPipeError:  # `... | head`: the reader has what it wanted
        return reader_gone()
    except KeyboardInterrupt:  # Ctrl+C, SIGTERM
        print(f"\n{puzzle.name} solver: interrupted", file=sys.stderr)
        return INTERRUPTED


def _answer_all(puzzle: Puzzle, solve: Callable, report: Report | None, stdin, stdout) -> int:
    """`run`'s work: each instance read, answered and reported; 2 where one was malformed."""
    bad = False
    while (text := puzzle.read_instance(stdin)) is not None:
        start, start_cpu = time.perf_counter(), time.process_time()
        try:
            instance = puzzle.parse_instance(text)
        except InputFormatError as exc:
            print(bad_input(puzzle, text, exc), file=sys.stderr, flush=True)
            bad, instance, answer, line = True, None, None, ""
        else:
            answer = solve(instance)
            line = puzzle.no_solution_answer if answer is None else puzzle.format_answer(answer)
        stdout.write(line + "\n")
        stdout.flush()
        if report is not None:
            report(text, instance, answer, time.perf_counter() - start, time.process_time() - start_cpu)
    return 2 if bad else 0
