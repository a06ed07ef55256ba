"""A recording proxy for a bot: `python arena/bench/record.py LOG -- CMD [ARG...]` runs the bot CMD
and stands in its place, passing what it is given to the bot and what the bot prints back, byte for
byte, and writing to LOG every line the bot was given and every line it answered, in the order they
passed. `arena bench` (arena/bench/transcripts.py) splits such a log into turns and replays them.

A seat's command is wrapped in it, so one mechanism records a bot whoever starts it: an external
referee that runs the bots itself (protocols A and B) or the arena (C, D and Volcanoes). Its cost is
a thread's hop per line, and a Python start before the bot's: it is used only to record, never while
a bot is timed.

- LOG holds one JSON array a line: `["<", LINE]` for a line the bot was given, `[">", LINE]` for one
  it printed. Each is written (unbuffered) before its bytes are passed on, so a line the bot was
  given is logged before the answer it caused, and nothing is lost when the proxy is killed at the
  end of a game. '\\n', '\\r' and '\\r\\n' all end a line, as the referees read them; bytes that are
  not UTF-8 are logged as U+FFFD and passed on unchanged; a last line without its end is logged too.
- The bot's stderr is the proxy's; its exit status is the proxy's (a bot killed by a signal kills
  the proxy by the same signal). A signal that would end the proxy is passed on to the bot first.

Standard library only, and run by its path (`python -S`), so that it works from any folder.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading

GIVEN, ANSWERED = "<", ">"
CHUNK = 65536
USAGE = "usage: record.py LOG -- CMD [ARG...]"


class Lines:
    """Splits a byte stream into lines as the referees read them ('\\n', '\\r' and '\\r\\n' each end
    one), across the chunks it comes in."""

    def __init__(self) -> None:
        self._pending = bytearray()
        self._after_cr = False  # a '\n' right after a '\r' ends nothing

    def feed(self, chunk: bytes) -> list[str]:
        buf = self._pending
        buf += chunk
        lines = []
        while True:
            if self._after_cr and buf:
                if buf[0] == 10:
                    del buf[:1]
                self._after_cr = False
            ends = [i for i in (buf.find(b"\n"), buf.find(b"\r")) if i >= 0]
            if not ends:
                return lines
            end = min(ends)
            lines.append(bytes(buf[:end]).decode("utf-8", "replace"))
            self._after_cr = buf[end] == 13
            del buf[: end + 1]

    def rest(self) -> str | None:
        """The last line if it has no end (None if there is none)."""
        return bytes(self._pending).decode("utf-8", "replace") if self._pending else None


class Log:
    """The log file: one event a line, each written at once, whole, from either thread."""

    def __init__(self, path: str):
        self._fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_APPEND, 0o644)
        self._lock = threading.Lock()

    def write(self, direction: str, line: str) -> None:
        data = (json.dumps([direction, line]) + "\n").encode()
        with self._lock:
            _write_all(self._fd, data)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _pump(source: int, sink: int, direction: str, log: Log) -> None:
    """Pass `source` to `sink` until `source` ends, logging each line first. Once `sink` is closed
    (the bot exited, or its reader went), what comes is still logged, no longer passed on."""
    lines = Lines()
    open_sink = True
    while True:
        try:
            chunk = os.read(source, CHUNK)
        except OSError:
            chunk = b""
        if not chunk:
            break
        for line in lines.feed(chunk):
            log.write(direction, line)
        if open_sink:
            try:
                _write_all(sink, chunk)
            except OSError:
                open_sink = False
    last = lines.rest()
    if last is not None:
        log.write(direction, last)


def main(argv: list[str]) -> int:
    if len(argv) < 3 or argv[1] != "--":
        print(USAGE, file=sys.stderr)
        return 2
    log = Log(argv[0])
    try:
        bot = subprocess.Popen(argv[2:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
    except OSError as exc:
        print(f"record.py: cannot start {argv[2]!r}: {exc.strerror or exc}", file=sys.stderr)
        return 127

    def pass_on(number, _frame):
        try:
            bot.send_signal(number)
        except OSError:
            pass

    for number in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(number, pass_on)

    def given() -> None:
        _pump(sys.stdin.fileno(), bot.stdin.fileno(), GIVEN, log)
        try:
            bot.stdin.close()  # the bot sees the end of its input as the proxy did
        except OSError:
            pass

    threading.Thread(target=given, daemon=True).start()
    _pump(bot.stdout.fileno(), sys.stdout.fileno(), ANSWERED, log)
    code = bot.wait()
    if code < 0:  # killed by a signal: so is the proxy, for whoever reads its status
        if -code not in (signal.SIGKILL, signal.SIGSTOP):  # (these two cannot be caught anyway)
            signal.signal(-code, signal.SIG_DFL)
        os.kill(os.getpid(), -code)
        return 128 - code  # a signal whose default is not to end a process
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
