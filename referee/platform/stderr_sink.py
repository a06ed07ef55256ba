"""A bot's stderr, drained so that the bot never blocks on a full pipe, kept within bounds, and read
for why the bot ended."""

from __future__ import annotations

import os
import re
import selectors
import threading

STDERR_CUT = "more bytes of stderr not kept"  # the end of a turn's stderr cut at its bound
TAIL_BYTES = 1024  # the end of all a bot wrote on stderr, kept for its last line (`last_stderr_line`)


# Lines of a crash's report that say where, not why: a stack's frames (indented: Java's "\tat ...",
# C#'s and Node's "   at ...", Go's "\t/path/main.go:5"), and what some runtimes print after the
# message (Node's version, Rust's advice, Java's "... 3 more").
_NOT_WHY = re.compile(r"\s|Node\.js v\d|note: run with `RUST_BACKTRACE|\.\.\. \d+ more")


def why_it_ended(text: str) -> str:
    """What a program's stderr says of why it ended: its last line that is not blank nor part of a
    stack (where a stack follows the message, as in Java, C#, Node and Go, the message, not the
    last frame); its last line where every line is; "" for none."""
    lines = [line for line in text.splitlines() if line.strip()]
    goroutines = next((i for i, line in enumerate(lines) if line.startswith("goroutine ")), None)
    if goroutines:  # Go: the panic's message comes before the stacks of its goroutines
        lines = lines[:goroutines]
    said = [line for line in lines if not _NOT_WHY.match(line)]
    return (said or lines or [""])[-1].strip()


class StderrSink(threading.Thread):
    """Drains a bot's stderr so it never blocks on a full pipe; keeps a bounded part per turn.

    It reads the file descriptor itself, never blocking in a read: `stop()` ends it at once even
    while another process still holds the pipe open. `take()` first reads what the pipe holds
    already (under the lock the thread reads under): what a bot wrote on stderr before its answer
    is that turn's, even when the thread has not woken yet."""

    def __init__(self, fd: int, limit: int, keep_end: bool = False):
        super().__init__(daemon=True)
        self._fd = fd
        self._limit = limit
        self._keep_end = keep_end  # keep the last `limit` bytes (an exception's trace), not the first
        self._lock = threading.Lock()
        self._kept = bytearray()
        self._dropped = 0
        self._tail = bytearray()  # the last TAIL_BYTES of all it read, taken or not: its last words
        self._open = True  # until the end of the pipe, or stop(): the descriptor may be reused after
        self._wake_read, self._wake_write = os.pipe()
        os.set_blocking(fd, False)

    def run(self) -> None:
        try:
            with selectors.DefaultSelector() as sel:
                sel.register(self._fd, selectors.EVENT_READ)
                sel.register(self._wake_read, selectors.EVENT_READ)
                while True:
                    ready = {key.fd for key, _ in sel.select()}
                    if self._wake_read in ready:
                        return
                    with self._lock:
                        if not self._drain():
                            return
        except (OSError, ValueError):
            pass
        finally:
            with self._lock:
                self._open = False

    def _drain(self) -> bool:
        """Read (with the lock held) all the pipe holds now; False at its end."""
        while self._open:
            try:
                chunk = os.read(self._fd, 65536)
            except BlockingIOError:
                return True
            except OSError:
                chunk = b""
            if not chunk:
                self._open = False
                return False
            self._tail += chunk
            del self._tail[:-TAIL_BYTES]
            if self._keep_end:
                self._kept += chunk
                excess = max(len(self._kept) - self._limit, 0)
                del self._kept[:excess]
                self._dropped += excess
                continue
            room = max(self._limit - len(self._kept), 0)
            self._kept += chunk[:room]
            self._dropped += max(len(chunk) - room, 0)
        return False

    def stop(self, timeout: float) -> None:
        """Let it read what is already there (up to `timeout` seconds), then end it."""
        self.join(timeout)
        try:
            os.write(self._wake_write, b"x")
        except OSError:
            pass
        self.join(1.0)  # it wakes at once; bounded all the same
        with self._lock:
            self._open = False
        for fd in (self._wake_read, self._wake_write):
            try:
                os.close(fd)
            except OSError:
                pass

    def last_line(self) -> str:
        """What the end of all it wrote says of why it ended (`why_it_ended`: an exception's message,
        not its stack's last frame), past whatever `take` kept of its turn; "" if nothing."""
        with self._lock:
            self._drain()
            text = self._tail.decode("utf-8", "replace")
        return why_it_ended(text)

    def take(self) -> str:
        with self._lock:
            self._drain()
            text = self._kept.decode("utf-8", "replace")
            if self._dropped and self._keep_end:
                text = f"[{self._dropped} earlier bytes of stderr not kept]\n" + text
            elif self._dropped:
                text += f"\n[{self._dropped} {STDERR_CUT}]"
            self._kept.clear()
            self._dropped = 0
        return text
