"""What --ray-address is given, checked before Ray is asked anything: Ray itself tries a wrong
address for minutes, silent, or says what fits none of the user's doing. Each mistake is one line,
status 2, within seconds, before any file is made. No cluster needed: a server of another kind, or
none, stands for the head."""

from __future__ import annotations

import contextlib
import http.server
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from arena.play.cluster import REACH_S
from arena.project import PROJECT_ROOT


def arena_match(address: str, cwd: Path, env: dict | None = None, timeout: float = 30) -> subprocess.CompletedProcess:
    """`arena match` on the cluster at `address`, from `cwd`, with this checkout's code (`env`: what
    to change in the environment, None to remove)."""
    env = {k: v for k, v in os.environ.items() if k not in ("RAY_ADDRESS",)} | (env or {})
    env["PYTHONPATH"] = str(PROJECT_ROOT)
    env = {k: v for k, v in env.items() if v is not None}
    command = [sys.executable, "-m", "arena.cli", "match", "random", "greedy", "--pairs", "1",
               "--backend", "ray", "--ray-address", address]  # fmt: skip
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


@contextlib.contextmanager
def http_server():
    """A web server on a free port of 127.0.0.1: it answers, but HTTP/1."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.SimpleHTTPRequestHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


@contextlib.contextmanager
def silent_listener():
    """A port that accepts connections (the kernel's backlog) and never says a word."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        yield listener.getsockname()[1]


@pytest.mark.parametrize("server", [http_server, silent_listener], ids=["http", "silent"])
def test_an_address_where_ray_s_gcs_does_not_answer_is_refused_in_one_line(server, tmp_path):
    """Something answers there, but not Ray's GCS: the command hung, silent, for minutes."""
    with server() as port:
        started = time.monotonic()
        done = arena_match(f"127.0.0.1:{port}", tmp_path)
    assert time.monotonic() - started < 2 * REACH_S + 10
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines() == [
        f"arena match: nothing at 127.0.0.1:{port} speaks Ray's GCS protocol: give the head's GCS port "
        "(ray start --head --port)"
    ]
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("token_file", ["missing", "empty", "folder"])
def test_a_token_file_that_cannot_be_read_is_said_so(token_file, tmp_path):
    """RAY_AUTH_TOKEN_PATH naming no file that holds a token: the cluster's refusal of the token was
    said, as if it were the wrong one (Ray's own error, hidden, said that the file could not be read)."""
    path = {"missing": tmp_path / "nofile", "empty": tmp_path / "empty", "folder": tmp_path}[token_file]
    if token_file == "empty":
        path.write_text("\n")
    run_in = tmp_path / "run"
    run_in.mkdir()
    env = {"RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": None, "RAY_AUTH_TOKEN_PATH": str(path)}
    with silent_listener() as port:  # (where a check of the address would hang, were it asked first)
        done = arena_match(f"127.0.0.1:{port}", run_in, env=env)
    assert done.returncode == 2, done.stderr
    why = {"missing": "cannot be read (No such file or directory)", "empty": "is empty",
           "folder": "cannot be read (Is a directory)"}[token_file]  # fmt: skip
    assert done.stderr.strip().splitlines() == [
        f"arena match: RAY_AUTH_TOKEN_PATH names {path}, which {why}: name the file that holds the cluster's "
        "token (or give the token itself in RAY_AUTH_TOKEN)"
    ]
    assert not list(run_in.iterdir())


@pytest.mark.parametrize(
    "address, said",
    [
        ("127.0.0.2:99999", "the port 99999 is out of range (1 to 65535)"),
        ("127.0.0.2:0", "the port 0 is out of range (1 to 65535)"),
        ("http://127.0.0.2:45729", "an address is HOST:PORT, without http://"),
        ("https://head:6379", "an address is HOST:PORT, without https://"),
    ],
)
def test_an_address_of_the_wrong_form_is_said_so(address, said, tmp_path):
    """A port out of range was said as a connection refused; an URL, in Ray's words about
    RAY_ADDRESS, which the user never set."""
    done = arena_match(address, tmp_path)
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines() == [f"arena match: --ray-address {address}: {said}"]
    assert not list(tmp_path.iterdir())
