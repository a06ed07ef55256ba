"""How every command of the project runs (`run_command`): a user's mistake is its one line, a reader
that left is no error, and Ctrl+C (SIGINT) and SIGTERM (`timeout`, `kill`, a scheduler) alike raise
KeyboardInterrupt in the main thread, so that whatever the command was doing (a game,
a build, a compile) cleans up on its way out: its processes ended, its partial files removed, its
finished games kept. Without this, SIGTERM ended the process where it stood, leaving a build's
compiler running and a half-made folder behind."""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from .errors import UserError, reader_gone, report

INTERRUPTED = 130  # the exit status of a command stopped by a signal, as a shell reports Ctrl+C


@contextmanager
def terminate_as_interrupt() -> Iterator[None]:
    """Within: SIGTERM raises KeyboardInterrupt, as Ctrl+C does (in the main thread only, the one
    signals reach; elsewhere nothing changes)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum, frame) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def run_command(args: argparse.Namespace) -> int:
    """Run the chosen command (`args.run`); a UserError is its one line and exit status 2, a reader
    that left is no error (`reader_gone`), and Ctrl+C or SIGTERM one line, `PROG: interrupted`, and
    status 130, once the command has cleaned up (a command that stores games says more itself)."""
    try:
        with terminate_as_interrupt():
            code = args.run(args)
            sys.stdout.flush()  # (where stdout is buffered, a reader that left shows here, not at exit)
        return code
    except UserError as exc:
        return report(args, exc)
    except BrokenPipeError:
        return reader_gone()
    except KeyboardInterrupt:
        return interrupted(args.prog)


def interrupted(prog: str) -> int:
    """What a command stopped by Ctrl+C or SIGTERM says (one line, `PROG: interrupted`), once it
    cleaned up; its exit status."""
    print(f"\n{prog}: interrupted", file=sys.stderr)
    return INTERRUPTED
