"""How a command stops when asked to: Ctrl+C (SIGINT) and SIGTERM (`timeout`, `kill`, a scheduler)
alike raise KeyboardInterrupt in the main thread, so that whatever the command was doing (a game,
a build, a compile) cleans up on its way out: its processes ended, its partial files removed, its
finished games kept. Without this, SIGTERM ended the process where it stood, leaving a build's
compiler running and a half-made folder behind."""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager

INTERRUPTED = 130  # the exit status of a command stopped by a signal, as a shell reports Ctrl+C


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
