"""Runs one entry point of the project many times, fast: imported once, then one forked child a run.

usage: entry_driver.py TARGET, then requests on stdin, one JSON line each, each answered with one
JSON line on stdout, until stdin ends

TARGET is `MODULE` (run as `python -m MODULE` runs it) or `MODULE:FUNCTION` (a console script,
`sys.exit(FUNCTION())`). A request is {"shape": true}, answered with the shape of the argparse parser
the entry point builds (its options, positionals and subcommands, recursively) or null where it
builds none (a player reading stdin); or {"cases": [{"argv": [...], "stdin": TEXT}], "timeout": S},
answered with each run's {"status", "stderr", "stdout", "timed_out"}. A child runs the entry point exactly as
the interpreter would (an uncaught exception prints its traceback, exit status 1), with TEXT on its
stdin, in a process group of its own that is killed when it runs past S seconds. One driver answers
both requests: the entry point is imported once for its shape and its cases.
"""

import argparse
import importlib
import json
import os
import runpy
import signal
import sys
import tempfile
import time
import traceback
import warnings
from contextlib import contextmanager

from referee.platform.options import given


class _Shape(Exception):
    def __init__(self, parser):
        self.parser = parser


def _describe(parser: argparse.ArgumentParser) -> dict:
    shape = {"prog": parser.prog, "options": [], "positionals": [], "commands": {}}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            seen = set()
            for name, sub in action.choices.items():
                if id(sub) not in seen:
                    seen.add(id(sub))
                    shape["commands"][name] = _describe(sub)
        elif action.option_strings:
            shape["options"].append(
                {
                    "flag": max(action.option_strings, key=len),
                    "takes_value": action.nargs != 0,
                    "typed": action.type not in (None, str, given),  # (a number's: `given` is text)
                    "choices": None if action.choices is None else [str(c) for c in action.choices],
                }
            )
        else:
            shape["positionals"].append({"dest": action.dest, "nargs": action.nargs})
    return shape


def _run(target: str) -> None:
    module, _, function = target.partition(":")
    if function:
        entry = getattr(__import__(module, fromlist=[function]), function)
        sys.exit(entry())
    runpy.run_module(module, run_name="__main__", alter_sys=True)


def _child(target: str, argv: list[str], stdin: str) -> None:
    """In the forked child: run the entry point with `argv` and `stdin`; never returns."""
    os.setpgid(0, 0)
    sys.argv = [target.partition(":")[0], *argv]
    with tempfile.TemporaryFile() as feed:
        feed.write(stdin.encode("utf-8", "surrogateescape"))
        feed.seek(0)
        os.dup2(feed.fileno(), 0)
    code = 0
    try:
        _run(target)
    except SystemExit as exc:
        if exc.code is None:
            code = 0
        elif isinstance(exc.code, int):
            code = exc.code
        else:
            print(exc.code, file=sys.stderr)
            code = 1
    except BaseException:  # what the interpreter does with an uncaught exception
        traceback.print_exc()
        code = 1
    try:
        sys.stdout.flush()
    except OSError:
        pass
    sys.stderr.flush()
    os._exit(code & 0xFF)


def run_case(target: str, argv: list[str], stdin: str, timeout: float) -> dict:
    sys.stdout.flush()
    sys.stderr.flush()
    with tempfile.TemporaryFile() as err, tempfile.TemporaryFile() as out:
        pid = os.fork()
        if pid == 0:
            os.dup2(out.fileno(), 1)
            os.dup2(err.fileno(), 2)
            _child(target, argv, stdin)
        status, timed_out = _wait(pid, timeout)
        err.seek(0)
        out.seek(0)
        return {
            "status": os.waitstatus_to_exitcode(status),
            "stderr": err.read().decode("utf-8", "replace")[-4000:],
            "stdout": out.read().decode("utf-8", "replace")[-4000:],
            "timed_out": timed_out,
        }


@contextmanager
def _stopped_at_parsing():
    """Within it, an entry point stops where it would parse its command line: `_Shape` is raised
    with its parser."""

    def capture(self, *args, **kwargs):
        raise _Shape(self)

    saved = argparse.ArgumentParser.parse_args, argparse.ArgumentParser.parse_known_args
    argparse.ArgumentParser.parse_args = argparse.ArgumentParser.parse_known_args = capture
    try:
        yield
    finally:
        argparse.ArgumentParser.parse_args, argparse.ArgumentParser.parse_known_args = saved


def shape(target: str) -> dict | None:
    """The parser the entry point builds, found by running it (in a child, stdin empty) until it
    parses its command line: None when it reads no command line that way."""
    with _stopped_at_parsing(), tempfile.TemporaryFile() as found:
        pid = os.fork()
        if pid == 0:
            os.setpgid(0, 0)
            devnull = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(devnull, fd)
            sys.argv = [target.partition(":")[0]]
            described = None
            try:
                _run(target)
            except _Shape as exc:
                described = _describe(exc.parser)
            except BaseException:  # noqa: B036 - a player that fails without input: no parser
                pass
            os.write(found.fileno(), json.dumps(described).encode())
            os._exit(0)
        _wait(pid, 60)
        found.seek(0)
        return json.loads(found.read() or b"null")


def build_parser_here(target: str) -> None:
    """A console script's parser built once in this process, up to its parsing (then stopped), so
    that what building it imports (`referee`'s every game and puzzle) is imported once, not in
    every child."""
    sys.argv = [target.partition(":")[0]]
    with _stopped_at_parsing():
        try:
            _run(target)
        except (_Shape, SystemExit):
            pass


def _wait(pid: int, timeout: float) -> tuple[int, bool]:
    """(wait status, timed out) of child `pid`, its process group killed past `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return status, False
        if time.monotonic() > deadline:
            try:
                os.killpg(pid, signal.SIGKILL)
            except OSError:
                pass
            return os.waitpid(pid, 0)[1], True
        time.sleep(0.01)


def main() -> None:
    target = sys.argv[1]
    warnings.filterwarnings("ignore", category=RuntimeWarning, module="runpy")  # (imported before)
    importlib.import_module(target.partition(":")[0])  # once: each child runs it without importing
    built = False
    for line in sys.stdin:
        request = json.loads(line)
        if request.get("shape"):
            answer = shape(target)
        else:
            if ":" in target and not built:  # a console script parses its command line first, reading nothing else
                build_parser_here(target)
                built = True
            answer = [run_case(target, c["argv"], c.get("stdin", ""), request["timeout"]) for c in request["cases"]]
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    main()
