"""A failed build's first error, in one line, from its compiler's log: `file:line[:column]: message`
where the compiler names a place, whatever its way of writing it."""

from __future__ import annotations

import re

COMMAND_PREFIX = "$ "  # a build's log shows each command it ran on a line of its own, after this

# file:line[:column]: [fatal] error: message (gcc, g++, javac, kotlinc, ruby, our Python check)
_COLON = re.compile(r"^(?P<place>[^\s:][^:]*:\d+(?::\d+)?):\s*(?P<message>(?:fatal |syntax )?error\b.*)$")
# file: line N: message (bash)
_BASH = re.compile(r"^(?P<file>\S+): line (?P<line>\d+): (?P<message>.*)$")
# message at file line N, more (perl); message in file on line N (php)
_PERL = re.compile(r"^(?P<message>.*?) at (?P<file>\S+) line (?P<line>\d+)(?P<more>.*)$")
_PHP = re.compile(r"^(?:PHP )?(?P<message>.*?) in (?P<file>\S+) on line (?P<line>\d+)\s*$")
# file(line,column): error CODE: message (mcs, tsc)
_PARENS = re.compile(r"^(?P<file>[^\s(]+)\((?P<line>\d+),(?P<column>\d+)\):\s*error\s*(?P<message>.*)$")
# file.go:line:column: message (go names no error)
_GO = re.compile(r"^(?P<place>\S+\.go:\d+:\d+):\s*(?P<message>.*)$")
# error[E0425]: message, then `  --> file:line:column` (rustc, cargo)
_RUST_ERROR = re.compile(r"^error(?:\[\w+\])?:\s*(?P<message>.*)$")
_RUST_PLACE = re.compile(r"^\s*-->\s*(?P<place>\S+:\d+:\d+)\s*$")
# file:line alone, then SomethingError: message (node --check)
_NODE_PLACE = re.compile(r"^(?P<place>\S+\.[cm]?[jt]s:\d+)$")
_NODE_ERROR = re.compile(r"^(?P<message>\w*Error: .*)$")


def first_error(log: str) -> str | None:
    """The first error `log` reports, in one line; None if no line of it looks like an error."""
    lines = [line.rstrip() for line in log.splitlines() if not line.startswith(COMMAND_PREFIX)]
    for i, line in enumerate(lines):
        for pattern in (_COLON, _GO):
            match = pattern.match(line)
            if match and (pattern is _COLON or "warning" not in line):
                message = match["message"] if pattern is _COLON else f"error: {match['message']}"
                return f"{match['place']}: {message}"
        match = _PARENS.match(line)
        if match:
            return f"{match['file']}:{match['line']}:{match['column']}: error {match['message']}"
        for pattern in (_BASH, _PERL, _PHP):
            match = pattern.match(line)
            if match and "error" in match["message"].lower():
                more = match.groupdict().get("more") or ""
                return f"{match['file']}:{match['line']}: {match['message']}{more}"
        match = _RUST_ERROR.match(line)
        if match:
            place = _following(lines, i, _RUST_PLACE)
            return f"{place}: error: {match['message']}" if place else line
        match = _NODE_PLACE.match(line)
        if match:
            error = _following(lines, i, _NODE_ERROR, key="message")
            if error:
                return f"{match['place']}: {error}"
    for needle in ("undefined reference", "multiple definition", "error"):  # (the linker's, before collect2's)
        found = next((line.strip() for line in lines if needle in line.lower()), None)
        if found:
            return found
    return None


def last_words(log: str) -> str:
    """The last line of `log` that says anything, other than a command it ran ("" if none)."""
    said = [line.strip() for line in log.splitlines() if line.strip() and not line.startswith(COMMAND_PREFIX)]
    return said[-1] if said else ""


def _following(lines: list[str], start: int, pattern: re.Pattern, key: str = "place", within: int = 8) -> str | None:
    for line in lines[start + 1 : start + 1 + within]:
        match = pattern.match(line)
        if match:
            return match[key]
    return None
