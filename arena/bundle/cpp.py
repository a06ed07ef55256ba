"""One file to submit for C and C++ (`arena bundle main.cpp -o submission.cpp`): a bot's local
`#include "..."` files merged into its main file.

CodinGame takes one file. `merge` puts each local header (found as the compiler finds a quoted include:
beside the file that includes it, then in the include folders) where it is first included, as the
preprocessor would, so that the one file compiles to the same program:
- a header with an include guard or `#pragma once` goes in once; a later `#include` of it becomes a
  comment. Where its first inclusion is inside a conditional block (`#ifdef`), it goes in again at the
  next inclusion (its guard, or a guard written for its `#pragma once`, keeps the compiler from
  reading it twice), since the first copy may be compiled out;
- a header with neither goes in at every inclusion, as the preprocessor reads it (X-macros rely on it);
- system headers (`#include <...>`) and quoted includes found in no local folder stay as they are;
- `#pragma once` lines become blank lines (in the one file they would mean nothing);
- `#line` markers (`line_markers`) make the compiler's messages and a debugger name the original files.

The result's size is counted as CodinGame counts it, in UTF-16 code units, against its limit.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from referee.platform.limits import CODE_UNITS

from arena.bundle.python import BundleError, utf16_units
from arena.project import OUTPUT_MARK

_INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
_PRAGMA_ONCE = re.compile(r"^\s*#\s*pragma\s+once\b")
_OPENS = re.compile(r"^\s*#\s*(if|ifdef|ifndef)\b")
_CLOSES = re.compile(r"^\s*#\s*endif\b")
_GUARD_TEST = re.compile(r"^\s*#\s*(?:ifndef\s+(\w+)|if\s*!\s*defined\s*\(?\s*(\w+)\s*\)?)\s*$")
_GUARD_DEFINE = re.compile(r"^\s*#\s*define\s+(\w+)\s*$")


@dataclass
class Merged:
    text: str
    files: list[Path]  # the files merged in, the entry first
    unresolved: list[str] = field(default_factory=list)  # quoted includes left to the compiler

    @property
    def size(self) -> int:
        """As CodinGame counts a submission: UTF-16 code units."""
        return utf16_units(self.text)


def merge(
    entry: Path, include_dirs: tuple[Path, ...] = (), line_markers: bool = False, limit: int | None = CODE_UNITS
) -> Merged:
    """`entry` with its local includes merged in (see the module's docstring). Raises BundleError
    for an unreadable file, a header that includes itself without a guard, or a result over `limit`
    UTF-16 units (None: no limit)."""
    merger = _Merger(entry.resolve().parent, tuple(d.resolve() for d in include_dirs), line_markers)
    merger.emit(entry.resolve(), outside_depth=0)
    head = f"// One file made from {entry.name} and its local includes ({OUTPUT_MARK}).\n"
    text = head + "\n".join(merger.lines) + "\n"
    merged = Merged(text, merger.files, merger.unresolved)
    if limit is not None and merged.size > limit:
        raise BundleError(
            f"{entry} merged with its includes is {merged.size:,} UTF-16 units, over CodinGame's limit of {limit:,}"
        )
    return merged


def local_includes(entry: Path, include_dirs: tuple[Path, ...] = ()) -> list[Path]:
    """Every local file `entry` may include, however indirectly, the entry first (what a build of
    it reads). It reads includes line by line, even commented-out ones: it may name a file too many,
    never one too few."""
    found: list[Path] = []
    pending = [entry.resolve()]
    while pending:
        path = pending.pop()
        if path in found:
            continue
        found.append(path)
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        for line in text.splitlines():
            match = _INCLUDE.match(line)
            target = match and _resolve(match.group(1), path.parent, include_dirs)
            if target:
                pending.append(target)
    return found


def _resolve(name: str, beside: Path, include_dirs: tuple[Path, ...]) -> Path | None:
    for folder in (beside, *include_dirs):
        candidate = folder / name
        if candidate.is_file():
            return candidate.resolve()
    return None


class _Merger:
    def __init__(self, base: Path, include_dirs: tuple[Path, ...], line_markers: bool):
        self.base = base
        self.include_dirs = include_dirs
        self.line_markers = line_markers
        self.lines: list[str] = []
        self.files: list[Path] = []
        self.unresolved: list[str] = []
        self.settled: set[Path] = set()  # guarded headers in the text unconditionally: never again
        self.wrapped: set[Path] = set()  # `#pragma once` headers that needed a guard of ours
        self.open: list[Path] = []  # the files being merged, outermost first

    def shown(self, path: Path) -> str:
        try:
            return path.relative_to(self.base).as_posix()
        except ValueError:
            return path.as_posix()

    def emit(self, path: Path, outside_depth: int) -> None:
        if path in self.open:
            raise BundleError(
                f"{self.shown(path)} includes itself (through {self.shown(self.open[-1])}) without a guard"
            )
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            raise BundleError(f"cannot read {path}: {exc}") from None
        if path not in self.files:
            self.files.append(path)
        code = _without_comments(lines)
        guard = _guard_lines(code)
        once = any(_PRAGMA_ONCE.match(line) for line in code)
        is_entry = not self.open
        if (guard or once) and outside_depth == 0 and not is_entry:
            self.settled.add(path)
        wrap = once and not is_entry and (outside_depth > 0 or path in self.wrapped)
        macro = "CALDERA_ONCE_" + re.sub(r"\W", "_", self.shown(path)).upper()
        if wrap:
            self.wrapped.add(path)
            self.lines += [f"#ifndef {macro}", f"#define {macro}"]
        if self.line_markers:
            self.lines.append(f'#line 1 "{self.shown(path)}"')
        self.open.append(path)
        depth = 0  # this file's own open conditional blocks, its include guard aside
        for number, (line, text) in enumerate(zip(lines, code, strict=True)):
            if number not in guard:
                depth += bool(_OPENS.match(text)) - bool(_CLOSES.match(text))
            if _PRAGMA_ONCE.match(text):
                self.lines.append("")
                continue
            match = _INCLUDE.match(text)
            if not match:
                self.lines.append(line)
                continue
            target = _resolve(match.group(1), path.parent, self.include_dirs)
            if target is None:
                self.unresolved.append(match.group(1))
                self.lines.append(line)
            elif target in self.settled:
                self.lines.append(f"// {line.strip()}: merged above")
            else:
                self.emit(target, outside_depth + depth)
                if self.line_markers:
                    self.lines.append(f'#line {number + 2} "{self.shown(path)}"')
        self.open.pop()
        if wrap:
            self.lines.append(f"#endif  // {macro}")


def _guard_lines(code: list[str]) -> set[int]:
    """The line numbers of a classic include guard (`#ifndef X` / `#define X` first, its `#endif`
    last, nothing but comments outside), or an empty set."""
    significant = [i for i, line in enumerate(code) if line.strip()]
    if len(significant) < 3:
        return set()
    first, second, last = significant[0], significant[1], significant[-1]
    test, define = _GUARD_TEST.match(code[first]), _GUARD_DEFINE.match(code[second])
    if not test or not define or (test.group(1) or test.group(2)) != define.group(1) or not _CLOSES.match(code[last]):
        return set()
    depth = 0
    for i in significant:
        depth += bool(_OPENS.match(code[i])) - bool(_CLOSES.match(code[i]))
        if depth == 0 and i != last:
            return set()  # the guard's block closes before the end: not a guard
    return {first, last}


def _without_comments(lines: list[str]) -> list[str]:
    """Each line with its comments blanked out (strings and characters kept), so that a directive
    in a comment is no directive."""
    result = []
    in_block = False
    for line in lines:
        out = []
        i, n = 0, len(line)
        while i < n:
            if in_block:
                end = line.find("*/", i)
                if end < 0:
                    i = n
                else:
                    in_block, i = False, end + 2
                    out.append(" ")
                continue
            char = line[i]
            if line.startswith("//", i):
                break
            if line.startswith("/*", i):
                in_block, i = True, i + 2
                continue
            if char in "\"'":
                end = i + 1
                while end < n and line[end] != char:
                    end += 2 if line[end] == "\\" else 1
                out.append(line[i : end + 1])
                i = end + 1
                continue
            out.append(char)
            i += 1
        result.append("".join(out))
    return result
