"""Parameters given to any command-line bot through its environment: `env C=0.3 python bot.py` plays
with C=0.3 (what `arena tune` varies for a bot that declares no parameters of its own)."""

from __future__ import annotations

import re
import shlex

_ASSIGNMENT = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)=(.*)$")


# env's options that take a value, short and long: the next word where none is attached (`-C DIR`)
_SHORT_WITH_VALUE = "uCS"
_LONG_WITH_VALUE = ("--unset", "--chdir", "--split-string")


def env_split(spec: str) -> tuple[dict[str, str], list[str]]:
    """(`env NAME=VALUE ...` assignments, the rest of the command: env's options, if any, then the
    command itself) of a command line."""
    options, assignments, command = _env_parts(spec)
    return assignments, options + command


def _env_parts(spec: str) -> tuple[list[str], dict[str, str], list[str]]:
    """(env's options, its NAME=VALUE assignments, the command) of a command line: `env -C sub
    EPS=0.5 ./bot` is (['-C', 'sub'], {'EPS': '0.5'}, ['./bot']); a command without `env` has only
    the last."""
    args = shlex.split(spec)
    if args[:1] != ["env"]:
        return [], {}, args
    args, options = args[1:], []
    while args and args[0].startswith("-") and options[-1:] != ["--"]:
        options.append(args.pop(0))
        if _takes_next(options[-1]) and args:
            options.append(args.pop(0))
    assignments: dict[str, str] = {}
    while args and (match := _ASSIGNMENT.match(args[0])):
        assignments[match.group(1)] = match.group(2)
        args = args[1:]
    return options, assignments, args


def _takes_next(option: str) -> bool:
    """Whether env's option `option` takes the next word as its value (`-C`, `-iu`, `--chdir`; not
    `-C/dir` nor `--chdir=dir`)."""
    if option.startswith("--"):
        return option in _LONG_WITH_VALUE
    for i, letter in enumerate(option[1:], 1):
        if letter in _SHORT_WITH_VALUE:
            return i == len(option) - 1
    return False


def env_values(spec: str) -> dict[str, float]:
    """The numbers a command line's `env NAME=VALUE` prefix gives its bot."""
    values = {}
    for name, text in env_split(spec)[0].items():
        try:
            values[name] = float(text)
        except ValueError:
            pass
    return values


def with_env(spec: str, values: dict) -> str:
    """The command line `spec` with `values` in its `env` prefix, its other assignments kept."""
    options, assignments, args = _env_parts(spec)  # (the values after env's options: `env -C sub`)
    # (an integer as its digits: `{:g}` wrote 1000000 as 1e+06, which C's atoi reads as 1)
    assignments.update({key: str(value) if isinstance(value, int) else repr(value) for key, value in values.items()})
    return shlex.join(["env", *options, *(f"{k}={v}" for k, v in assignments.items()), *args])


def version_with_values(version: str, assignments: dict[str, str]) -> str:
    """A player's version with the values in its environment: its program's, then theirs (the same
    program with other values plays otherwise)."""
    program = version.partition(":")[0]
    values = ",".join(f"{key}={value}" for key, value in assignments.items())
    return program + (f":{values}" if values else "")


def starts_with_assignments(spec: str) -> bool:
    """Whether a command line begins with NAME=VALUE words before its command (`K=1 ./bot`): a shell's
    way to set variables, which `env` is without a shell."""
    try:
        args = shlex.split(spec)
    except ValueError:
        return False
    assignments = next((i for i, arg in enumerate(args) if not _ASSIGNMENT.match(arg)), len(args))
    return 0 < assignments < len(args)
