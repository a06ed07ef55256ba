"""The one command shape of every puzzle's solver, `python -m bots.NAME.solver`: what differs
between puzzles is the search (`solve`) and the puzzle's contract (`referee.puzzle.Puzzle`).

The solver reads instances from stdin as the puzzle frames them (one line, or a block of lines) and
answers each in turn, flushing every answer: the answer's text, or the puzzle's no-solution answer
(`NONE`) when `solve` returns None, which it does only once its search has proved there is none. An instance that
is not the puzzle's text gets an empty answer line and one line on stderr saying what is wrong and
where (a one-line instance quoted, shortened, never echoed whole); the solver goes on with the next
and exits 2 at the end of its input (0 when every instance was one). Input that is not UTF-8 ends it
with one line saying at which byte, as a judge says it of a file, and exit status 2.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections.abc import Callable

from referee.platform.errors import InputFormatError, shorten
from referee.platform.commands import CommandParser, interrupted, reader_gone, terminate_as_interrupt
from referee.platform.files import not_utf8  # (said as every judge and command says it)
from referee.puzzle import Puzzle

# report(text, instance, answer, seconds, cpu_seconds) after each answer; `instance` is None for
# text that is not an instance, `answer` None for NONE.
Report = Callable[[str, object, object, float, float], None]


def parser(puzzle: Puzzle, description: str, command: str = "solver") -> argparse.ArgumentParser:
    """The argument parser of a puzzle's command in bots/ (its solver, or `generate`...), named as it
    is run (`python -m bots.NAME.COMMAND`), refusing a mistake in one line; the command adds its own
    options."""
    return CommandParser(prog=f"python -m bots.{puzzle.name}.{command}", description=description)


def bad_input(puzzle: Puzzle, text: str, error: InputFormatError, number: int = 1, lines: list[int] = ()) -> str:
    """The one line a solver writes on stderr for text that is not an instance: the `number`-th of
    its input, whose non-blank lines are the input's `lines` (numbered from 1), so that an error's
    "line k" of the instance is said as the input's line."""
    if "\n" in text.strip():  # a block of lines: the error names the line, in the input
        found = _INSTANCE_LINE.match(error.where or "")
        if found and 0 < int(found[1]) <= len(lines):
            error = InputFormatError(error.what, f"line {lines[int(found[1]) - 1]}{error.where[found.end() :]}")
        return f"{puzzle.name} solver: bad {puzzle.item} ({puzzle.item} {number} of the input): {error}"
    return f"{puzzle.name} solver: {puzzle.item} {shorten(text.strip())}: {error}"


_INSTANCE_LINE = re.compile(r"line (\d+)")


class _CountingLines:
    """A text stream's `readline`, counting its lines: which ones were not blank since `mark`. A
    stream with bytes beneath (sys.stdin) is decoded here, line by line, so that a byte that is not
    UTF-8 is a UnicodeDecodeError whose `start` is its place in the whole input (Python's own stdin
    passes it on as a surrogate escape under a C locale, or places it in its buffer's chunk)."""

    def __init__(self, stream):
        self._stream = stream
        self._bytes = getattr(stream, "buffer", None)
        self._offset = 0  # the bytes read before the next line
        self.read = 0
        self.not_blank: list[int] = []

    def mark(self) -> None:
        self.not_blank = []

    def readline(self) -> str:
        if self._bytes is None:
            line = self._stream.readline()
        else:
            raw = self._bytes.readline()
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                start, end = self._offset + exc.start, self._offset + exc.end
                raise UnicodeDecodeError(exc.encoding, raw, start, end, exc.reason) from None
            self._offset += len(raw)
        if line:
            self.read += 1
            if line.strip().lstrip("\ufeff"):
                self.not_blank.append(self.read)
        return line


def run(puzzle: Puzzle, solve: Callable, report: Report | None = None, stdin=None, stdout=None) -> int:
    """Answer every instance on `stdin` (default sys.stdin) with `solve(instance)`; the exit status
    (130, saying so, when Ctrl+C or SIGTERM stops it)."""
    stdin, stdout = stdin or sys.stdin, stdout or sys.stdout
    try:
        with terminate_as_interrupt():
            return _answer_all(puzzle, solve, report, stdin, stdout)
    except UnicodeDecodeError as exc:
        print(f"{puzzle.name} solver: {not_utf8('the input', exc)}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # `... | head`: the reader has what it wanted
        return reader_gone()
    except KeyboardInterrupt:  # Ctrl+C, SIGTERM
        return interrupted(f"{puzzle.name} solver")


def _answer_all(puzzle: Puzzle, solve: Callable, report: Report | None, stdin, stdout) -> int:
    """`run`'s work: each instance read, answered and reported; 2 where one was malformed."""
    bad = False
    counted = _CountingLines(stdin)
    number = 0
    while (text := puzzle.read_instance(counted)) is not None:
        number += 1
        start, start_cpu = time.perf_counter(), time.process_time()
        try:
            instance = puzzle.parse_instance(text)
        except InputFormatError as exc:
            print(bad_input(puzzle, text, exc, number, counted.not_blank), file=sys.stderr, flush=True)
            bad, instance, answer, line = True, None, None, ""
        else:
            answer = solve(instance)
            line = puzzle.no_solution_answer if answer is None else puzzle.format_answer(answer)
        stdout.write(line + "\n")
        stdout.flush()
        if report is not None:
            report(text, instance, answer, time.perf_counter() - start, time.process_time() - start_cpu)
        counted.mark()
    return 2 if bad else 0
