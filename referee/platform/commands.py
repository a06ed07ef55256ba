"""How every command of the project runs (`run_command`) and reads its arguments (`CommandParser`): a
user's mistake is its one line, `PROG: message` (PROG the command as its usage names it: `referee
coroutine judge`, `arena match`) with exit status 2, any other exception a bug of ours with its
traceback; a reader that left is no error; and Ctrl+C (SIGINT) and SIGTERM (`timeout`, `kill`, a
scheduler) alike raise KeyboardInterrupt in the main thread, so that whatever the command was doing
(a game, a build, a compile) cleans up on its way out: its processes ended, its partial files
removed, its finished games kept. Without this, SIGTERM ended the process where it stood, leaving a
build's compiler running and a half-made folder behind."""

from __future__ import annotations

import argparse
import fcntl
import os
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from .errors import UserError

INTERRUPTED = 130  # the exit status of a command stopped by a signal, as a shell reports Ctrl+C


class CommandParser(argparse.ArgumentParser):
    """An argument parser (and, through `add_subparsers`, each of its subcommands' parsers) whose
    mistakes are one line, `PROG: message`, with exit status 2, and whose parsed arguments hold
    `prog`, the prefix of the chosen command's own messages (`report`). Descriptions are shown as
    written (they are the commands' docstrings, wrapped by hand). Arguments no command takes are
    said by the command they were given to (`referee iqtwist check: unrecognized arguments: ...`),
    not by the top one, whose help does not list the command's."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", argparse.RawDescriptionHelpFormatter)
        super().__init__(*args, **kwargs)
        self.set_defaults(prog=self.prog, command_parser=self)  # a subcommand's defaults override its parent's

    def parse_args(self, args=None, namespace=None):
        parsed, unknown = self.parse_known_args(args, namespace)
        if unknown:
            parsed.command_parser.error(f"unrecognized arguments: {' '.join(unknown)}")
        return parsed

    def error(self, message: str):
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def report(args: argparse.Namespace, error: UserError) -> int:
    """Print a user's mistake as its command's one line; the exit status, 2."""
    print(f"{args.prog}: {error}", file=sys.stderr)
    return 2


def reader_gone() -> int:
    """What a command does when the reader of its output left (`... | head` raised BrokenPipeError):
    stop quietly, its stdout pointed at /dev/null so that Python's own flush at exit cannot fail on
    the closed pipe again. The exit status, 0: the reader has what it wanted."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


@contextmanager
def reader_may_leave() -> Iterator[None]:
    """Within: a reader that leaves (`... | head`) ends the output alone (`reader_gone`), and the
    command goes on. For output after which a command still chooses its exit status (an SPRT's
    verdict, printed after its report): stopped there, the command exited 0 whatever it decided."""
    try:
        yield
    except BrokenPipeError:
        reader_gone()


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


@contextmanager
def interrupts_held() -> Iterator[None]:
    """Within: Ctrl+C and SIGTERM wait for the block's end, then interrupt as usual (in the main
    thread; elsewhere nothing changes). For a cleanup bounded in time that must run whole: a pool's
    shutdown cut short by a second Ctrl+C left its workers waiting for an end that never came, and
    a third, during Python's exit, hung the command for good."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held = signal.pthread_sigmask(signal.SIG_BLOCK, (signal.SIGINT, signal.SIGTERM))
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def open_standard_streams() -> None:
    """Standard input, output and error open, on /dev/null where the command was started with one
    closed (`cmd >&-`), and their Python streams with them: a closed output made Python's sys.stdout
    None (a traceback at the first print), and a pipe made for a bot could take its number, the bot
    then writing its answers where no one read them (a game that never ended). Output that cannot
    be encoded in the locale's encoding (PYTHONIOENCODING=ascii, LC_ALL=C) is escaped, as Python
    escapes it on stderr, rather than failing at the first name with an accent. (An output open for
    reading only counts as closed: a shell script that runs Python, as pyenv's shims do, leaves its
    own file there when the output was closed.)"""
    for fd, mode in ((0, os.O_RDONLY), (1, os.O_WRONLY), (2, os.O_WRONLY)):
        try:
            usable = fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE in (mode, os.O_RDWR)
        except OSError:  # closed
            usable = False
        if not usable:  # (an output open for reading only: what a shell script that ran us left there)
            opened = os.open(os.devnull, mode)
            if opened != fd:
                os.dup2(opened, fd)
                os.close(opened)
    for name, fd, mode in (("stdin", 0, "r"), ("stdout", 1, "w"), ("stderr", 2, "w")):
        if getattr(sys, name) is None:
            setattr(sys, name, open(fd, mode, closefd=False, errors="backslashreplace"))
    if sys.stdout.errors == "strict" and hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(errors="backslashreplace")


def run_command(args: argparse.Namespace) -> int:
    """Run the chosen command (`args.run`), its standard streams open (`open_standard_streams`); a
    UserError is its one line and exit status 2, a reader that left is no error (`reader_gone`: the
    status the command returned, or 0 where it left before the command had one), and Ctrl+C or
    SIGTERM one line, `PROG: interrupted`, and status 130, once the command has cleaned up (a
    command that stores games says more itself)."""
    open_standard_streams()
    try:
        with terminate_as_interrupt():
            code = args.run(args)
            with reader_may_leave():
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
