"""Parameters given to any command-line bot through its environment: `env C=0.3 python bot.py` plays
with C=0.3 (what `arena tune` varies for a bot that declares no parameters of its own)."""

from __future__ import annotations

import re
import shlex

_ASSIGNMENT = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)=(.*)$")


def env_split(spec: str) -> tuple[dict[str, str], list[str]]:
    """(`env NAME=VALUE ...` assignments, the rest of the command) of a command line."""
    args = shlex.split(spec)
    assignments: dict[str, str] = {}
    if args[:1] == ["env"]:
        args = args[1:]
        while args and (match := _ASSIGNMENT.match(args[0])):
            assignments[match.group(1)] = match.group(2)
            args = args[1:]
    return assignments, args


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
    assignments, args = env_split(spec)
    # (an integer as its digits: `{:g}` wrote 1000000 as 1e+06, which C's atoi reads as 1)
    assignments.update({key: str(value) if isinstance(value, int) else repr(value) for key, value in values.items()})
    return shlex.join(["env", *(f"{k}={v}" for k, v in assignments.items()), *args])


def starts_with_assignments(spec: str) -> bool:
    """Whether a command line begins with NAME=VALUE words before its command (`K=1 ./bot`): a shell's
    way to set variables, which `env` is without a shell."""
    try:
        args = shlex.split(spec)
    except ValueError:
        return False
    assignments = next((i for i, arg in enumerate(args) if not _ASSIGNMENT.match(arg)), len(args))
    return 0 < assignments < len(args)
