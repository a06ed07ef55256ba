"""One bot process: send it lines, read one line back before a deadline, keep its stderr, and kill
its whole process group at the end.

Every wait has a timeout and every failure is a typed exception whose message a person can act on.
Reading follows CodinGame's runner: an answer must end its line within 10,000 bytes (else it is a
timeout), '\\r', '\\n' and '\\r\\n' all end a line, lines are not trimmed, and bytes after the line
stay for the next turn.
"""
from __future__ import annotations

import os
import selectors
import shlex
import signal
import subprocess
import threading
import time
from collections.abc import Iterable, Sequence

MAX_ANSWER_BYTES = 10_000  # CodinGame's Agent.AGENT_MAX_BUFFER_SIZE
STDERR_BYTES_PER_TURN = 4096  # what CodinGame shows of a turn's stderr


class BotError(Exception):
    """A bot failed. `reason` is a short word for records (timeout, crash, ...)."""

    reason = "error"


class BotTimeout(BotError):
    reason = "timeout"


class BotExited(BotError):
    """The bot closed its output: it exited or crashed."""

    reason = "crash"


class BotStartError(BotError):
    reason = "start"


def split_command(command: str | Sequence[str]) -> list[str]:
    """A command line as an argument list (a string is split as a POSIX shell splits words)."""
    args = shlex.split(command) if isinstance(command, str) else list(command)
    if not args:
        raise BotStartError("empty command")
    return args


class _StderrSink(threading.Thread):
    """Drains a bot's stderr so it never blocks on a full pipe; keeps a bounded part per turn."""

    def __init__(self, stream, limit: int):
        super().__init__(daemon=True)
        self._stream = stream
        self._limit = limit
        self._lock = threading.Lock()
        self._kept = bytearray()
        self._dropped = 0

    def run(self) -> None:
        try:
            while chunk := self._stream.read1(65536):
                with self._lock:
                    room = self._limit - len(self._kept)
                    self._kept += chunk[: max(room, 0)]
                    self._dropped += max(len(chunk) - max(room, 0), 0)
        except (OSError, ValueError):
            pass

    def take(self) -> str:
        with self._lock:
            text = self._kept.decode("utf-8", "replace")
            if self._dropped:
                text += f"\n[{self._dropped} more bytes of stderr not kept]"
            self._kept.clear()
            self._dropped = 0
        return text


class BotProcess:
    """A running bot. Use as a context manager so the process group is always killed."""

    def __init__(
        self,
        command: str | Sequence[str],
        *,
        cwd: str | None = None,
        env: dict[str, str] | None = None,
        stderr_bytes_per_turn: int = STDERR_BYTES_PER_TURN,
    ):
        self.args = split_command(command)
        try:
            self._proc = subprocess.Popen(
                self.args,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=cwd,
                env=env,
                start_new_session=True,  # its own process group, killed as one
            )
        except OSError as exc:
            raise BotStartError(f"cannot start {shlex.join(self.args)!r}: {exc.strerror or exc}") from exc
        self._stdin_fd = self._proc.stdin.fileno()
        self._stdout_fd = self._proc.stdout.fileno()
        os.set_blocking(self._stdin_fd, False)
        os.set_blocking(self._stdout_fd, False)
        self._pending = bytearray()  # bytes read past the last answer
        self._after_cr = False  # a '\n' right after a '\r' ends nothing
        self._stdout_closed = False
        self._stderr = _StderrSink(self._proc.stderr, stderr_bytes_per_turn)
        self._stderr.start()

    @property
    def pid(self) -> int:
        return self._proc.pid

    def ask(self, lines: Iterable[str], timeout: float) -> tuple[str, float]:
        """Send `lines`, then read one answer line; both within `timeout` seconds.

        Returns the line (without its end) and the seconds taken, measured from the start of sending.
        Raises BotTimeout or BotExited.
        """
        start = time.perf_counter()
        deadline = start + timeout
        self._send("".join(line + "\n" for line in lines).encode(), deadline)
        line = self._read_line(deadline)
        return line, time.perf_counter() - start

    def read_line(self, timeout: float) -> str:
        """Read one more line (for answers of several lines); raises BotTimeout or BotExited."""
        return self._read_line(time.perf_counter() + timeout)

    def close_input(self) -> None:
        """Close the bot's stdin (for solvers that read until end of input)."""
        try:
            self._proc.stdin.close()
        except OSError:
            pass

    def take_stderr(self) -> str:
        """What the bot wrote on stderr since the last call (bounded)."""
        return self._stderr.take()

    def _send(self, data: bytes, deadline: float) -> None:
        view = memoryview(data)
        with selectors.DefaultSelector() as sel:
            sel.register(self._stdin_fd, selectors.EVENT_WRITE)
            while view:
                left = deadline - time.perf_counter()
                if left <= 0:
                    raise BotTimeout("did not read its input in time")
                if not sel.select(left):
                    continue
                try:
                    view = view[os.write(self._stdin_fd, view) :]
                except BlockingIOError:
                    continue
                except (BrokenPipeError, ConnectionResetError):
                    raise BotExited(self._exit_message()) from None

    def _take_line_from_pending(self) -> str | None:
        buf = self._pending
        if self._after_cr and buf[:1] == b"\n":
            del buf[:1]
        self._after_cr = False
        for i, byte in enumerate(buf[:MAX_ANSWER_BYTES]):
            if byte in (10, 13):
                line = bytes(buf[:i])
                self._after_cr = byte == 13
                del buf[: i + 1]
                return line.decode("utf-8", "replace")
        if len(buf) >= MAX_ANSWER_BYTES:
            # CodinGame stops reading at 10,000 bytes and, the line being incomplete, times the
            # player out; the rest would wait in the pipe.
            del buf[:MAX_ANSWER_BYTES]
            raise BotTimeout(f"printed {MAX_ANSWER_BYTES:,} bytes without ending its line")
        return None

    def _read_line(self, deadline: float) -> str:
        with selectors.DefaultSelector() as sel:
            sel.register(self._stdout_fd, selectors.EVENT_READ)
            while True:
                line = self._take_line_from_pending()
                if line is not None:
                    return line
                if self._stdout_closed:
                    raise BotExited(self._exit_message())
                left = deadline - time.perf_counter()
                if left <= 0:
                    raise BotTimeout("no answer in time")
                if not sel.select(left):
                    continue
                try:
                    chunk = os.read(self._stdout_fd, 65536)
                except BlockingIOError:
                    continue
                if chunk:
                    self._pending += chunk
                else:
                    self._stdout_closed = True

    def _exit_message(self) -> str:
        try:
            code = self._proc.wait(timeout=0.2)
        except subprocess.TimeoutExpired:
            return "closed its output"
        if code < 0:
            return f"killed by signal {signal.Signals(-code).name}"
        return f"exited with code {code}"

    def close(self) -> None:
        """Kill the whole process group and reap the bot; safe to call twice."""
        try:
            os.killpg(self._proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            self._proc.wait(timeout=5)
        except subprocess.TimeoutExpired:  # pragma: no cover - a process in uninterruptible sleep
            pass
        for stream in (self._proc.stdin, self._proc.stdout):
            try:
                stream.close()
            except OSError:
                pass
        self._stderr.join(timeout=1)
        try:
            self._proc.stderr.close()
        except OSError:
            pass

    def __enter__(self) -> BotProcess:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
