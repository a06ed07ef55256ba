"""What kind of program a file is, read from its first bytes, for a message a person can act on when
this machine cannot start it: a build made on a machine of another processor or system (a cluster's
node is not always the machine that built it), or a script whose interpreter is not here.
"""

from __future__ import annotations

import platform
from pathlib import Path

# ELF's e_machine numbers of the processors a bot is built for.
_ELF_MACHINES = {
    3: "x86 (32-bit)",
    8: "MIPS",
    20: "PowerPC",
    21: "PowerPC 64-bit",
    22: "IBM Z",
    40: "ARM (32-bit)",
    62: "x86-64",
    183: "ARM 64-bit (AArch64)",
    243: "RISC-V",
    258: "LoongArch",
}
NOT_A_PROGRAM = "neither a program nor a script (no #! line)"
SCRIPT = "a script run by "
CARRIAGE_RETURN = "its #! line ended by a carriage return (Windows line endings)"
MARKED = "a script whose #! line follows a byte order mark (as Windows editors save UTF-8)"
_MACH_O = (b"\xfe\xed\xfa\xce", b"\xfe\xed\xfa\xcf", b"\xce\xfa\xed\xfe", b"\xcf\xfa\xed\xfe", b"\xca\xfe\xba\xbe")


def source_hint(path: str | Path) -> str | None:
    """What to do with `path` where it is a bot's source rather than a program (`bot.cpp`,
    `Player.java`: text with no #! line, a suffix other than a script's), else None."""
    path = Path(path)
    if path.suffix.lower() in ("", ".py", ".sh") or describe(path) != NOT_A_PROGRAM:
        return None
    try:
        with open(path, "rb") as f:
            if b"\0" in f.read(4096):  # (a binary file of no known kind)
                return None
    except OSError:
        return None
    return (
        f"{path.name} is source code, not a program: build it first, or give it to the arena, which builds a "
        f"bot's source as CodinGame does (arena match {path} OPPONENT)"
    )


def this_machine() -> str:
    """This machine's processor and system, as `uname` says them: `x86_64 Linux`."""
    return f"{platform.machine() or 'unknown processor'} {platform.system() or 'unknown system'}"


def describe(path: str | Path) -> str:
    """What the file at `path` is, as a program: `an ELF program for ARM 64-bit (AArch64)`, `a macOS
    (Mach-O) program`, `a Windows program`, `a script run by /usr/bin/pypy3` (SCRIPT and its
    interpreter, then CARRIAGE_RETURN where its #! line ends so), MARKED, or NOT_A_PROGRAM."""
    try:
        with open(path, "rb") as f:
            head = f.read(256)
    except OSError as exc:
        return f"a file that cannot be read ({exc.strerror or exc})"
    if head[:4] == b"\x7fELF" and len(head) >= 20:
        order = "big" if head[5] == 2 else "little"
        machine = int.from_bytes(head[18:20], order)
        return f"an ELF program for {_ELF_MACHINES.get(machine, f'processor number {machine}')}"
    if head[:4] in _MACH_O:
        return "a macOS (Mach-O) program"
    if head[:2] == b"MZ":
        return "a Windows program"
    if head[:5] == b"\xef\xbb\xbf#!":  # the system sees no #! line
        return MARKED
    if head[:2] == b"#!":
        first = head[2:].split(b"\n", 1)[0]
        line = first.decode("utf-8", "replace").strip()
        if not line:
            return "a script whose #! line names nothing"
        return f"{SCRIPT}{line}, {CARRIAGE_RETURN}" if first.endswith(b"\r") else SCRIPT + line
    return NOT_A_PROGRAM
