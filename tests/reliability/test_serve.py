"""`arena serve` under hostile HTTP: a port out of range, odd paths, game ids and queries (each had
given a traceback and no reply), a Host header of another site (a page elsewhere could read the local
API by DNS rebinding), HTTP/0.9 and requests never finished (each had held a thread), and a poll made
to wait behind another request's long work (27.8 s while a league wrote)."""

from __future__ import annotations

import http.client
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from urllib.parse import urlencode

import pytest

from arena.web import serve
from tests.games.test_league_page import a_run_whose_label_holds_a_comma
from tests.reliability.commands import ROOT, one_line, run


@contextmanager
def serving(runs: list[serve.RunView], host: str = "127.0.0.1"):
    """The page of `runs`, served in this process on `host`; its port."""
    httpd = serve.make_server(runs, host, 0)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield httpd.server_address[1]
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(10)


@pytest.fixture
def server(arena_run):
    """The page of a small run, served in this process; (host, port, the runs' views)."""
    runs = [serve.RunView(arena_run)]
    with serving(runs) as port:
        _wait_until_up(port)
        yield "127.0.0.1", port, runs


def _wait_until_up(port: int) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.05)


def get(port: int, path: str, host: str | None = None, timeout: float = 30) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    headers = {"Host": host} if host is not None else {}
    connection.request("GET", path, headers=headers)
    answer = connection.getresponse()
    body = answer.read()
    connection.close()
    return answer.status, body


@pytest.mark.parametrize("port", ["99999", "-5", "http"])
def test_a_port_out_of_range_is_one_line(arena_run, port):
    one_line(run("arena.cli", "serve", str(arena_run), "--port", port, timeout=60), "arena serve", "--port")


@pytest.mark.parametrize(
    "path",
    [
        "/game/0/%C2%B2",
        "/game/%C2%B2/1",
        "/game/0/12345678901234567890123",
        "/game/99999999999999999999999/1",
        "/api/state?run=%C2%B2",
        "/api/state?run=12345678901234567890123",
        "/api/state?run=-1",
        "/%FF%FE",
    ],
)
def test_an_odd_path_is_answered_not_a_traceback(server, path):
    _, port, _ = server
    status, body = get(port, path)
    assert status in (400, 404), (status, body[:200])
    assert "error" in json.loads(body)


@pytest.mark.parametrize("chosen", ["", "&bots="])
def test_a_page_with_every_player_unticked_shows_an_empty_board(server, chosen):
    """The page sends `bots=` when every box is unticked: the fit of no player answered 500."""
    _, port, _ = server
    status, body = get(port, f"/api/state?bots={chosen}")
    assert status == 200, (status, body[:200])
    assert json.loads(body)["leaderboard"] == []


@pytest.mark.parametrize(
    "target", [b"/game/\xb2/1", b"/game/0/\xb2", b"/game/0/\xc2\xb2", b"/api/state?run=\xb2", b"/\xff"]
)
def test_an_odd_path_in_raw_bytes_is_answered(server, target):
    _, port, _ = server
    with socket.create_connection(("127.0.0.1", port), timeout=30) as connection:
        connection.sendall(b"GET " + target + b" HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        answer = connection.recv(4096)
    assert answer.split(b" ")[1] in (b"400", b"404"), answer[:200]


def test_the_page_answers_for_its_own_names_only(server):
    _, port, _ = server
    for name in (f"127.0.0.1:{port}", f"localhost:{port}", "localhost"):
        assert get(port, "/api/runs", host=name)[0] == 200, name
    for name in ("evil.example", f"evil.example:{port}", "127.0.0.1.evil.example"):
        status, _ = get(port, "/api/runs", host=name)
        assert status == 400, (name, status)


@pytest.mark.parametrize("wildcard, loopback", [("0.0.0.0", "127.0.0.1"), ("::", "::1")])
def test_a_page_open_to_every_machine_answers_them_by_any_name(arena_run, wildcard, loopback):
    """Bound to every interface, the page answered only the names its machine's own name resolved to
    (loopback, where /etc/hosts says so): another machine, asking by its address, got 400."""
    if not socket.has_ipv6 and ":" in wildcard:
        pytest.skip("no IPv6 here")
    with serving([serve.RunView(arena_run)], wildcard) as port:
        for name in (f"192.0.2.7:{port}", f"[2001:db8::7]:{port}", f"league.example:{port}"):
            connection = http.client.HTTPConnection(loopback, port, timeout=30)
            connection.request("GET", "/api/runs", headers={"Host": name})
            assert connection.getresponse().status == 200, name
            connection.close()


def test_a_page_on_an_ipv6_address_says_its_url_in_brackets_and_answers_it(arena_run):
    """`--host ::1` printed http://::1:PORT/ (no URL), and a browser at http://[::1]:PORT/ (Host:
    [::1]:PORT) got 400: the names allowed held ::1 without its brackets."""
    if not socket.has_ipv6:
        pytest.skip("no IPv6 here")
    command = [sys.executable, "-m", "arena.cli", "serve", str(arena_run), "--host", "::1", "--port", "0"]
    page = subprocess.Popen(command, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, stderr=subprocess.PIPE)
    try:
        said = []
        reader = threading.Thread(target=lambda: said.append(page.stderr.readline().decode()), daemon=True)
        reader.start()
        reader.join(60)
        match = re.search(r"at http://\[::1\]:([0-9]+)/ \(this machine only", said[0] if said else "")
        assert match, said
        connection = http.client.HTTPConnection("::1", int(match.group(1)), timeout=30)  # Host: [::1]:PORT
        connection.request("GET", "/api/runs")
        assert connection.getresponse().status == 200
        connection.close()
    finally:
        page.terminate()
        page.wait(30)


def test_a_players_label_holding_a_comma_is_one_player(tmp_path):
    """The players shown came as one list joined by commas: `x,y` and `f` read as x, y and f, who
    played no game (0 of the 6 shown). Each comes as a `bots` of its own."""
    with serving([serve.RunView(a_run_whose_label_holds_a_comma(tmp_path))]) as port:
        status, body = get(port, "/api/state?" + urlencode([("bots", "x,y"), ("bots", "f")]))
    assert status == 200, body[:200]
    state = json.loads(body)
    assert (state["run"]["games"], state["shown"]["games"]) == (6, 2)
    assert sorted(row["label"] for row in state["leaderboard"]) == ["f", "x,y"]


def test_http_0_9_and_unfinished_requests_hold_no_thread(server):
    _, port, _ = server
    get(port, "/api/runs")
    before = threading.active_count()
    held = []
    for k in range(30):
        connection = socket.create_connection(("127.0.0.1", port), timeout=5)
        connection.sendall(b"GET /api/runs\r\n" if k % 2 else b"GET /api/ru")  # HTTP/0.9; a request never ended
        held.append(connection)
    time.sleep(1.0)
    try:
        assert threading.active_count() - before < 5, "each connection holds a thread"
        assert get(port, "/api/runs", timeout=10)[0] == 200
    finally:
        for connection in held:
            connection.close()


def test_a_poll_does_not_wait_for_another_requests_work(server, monkeypatch):
    _, port, runs = server
    status, body = get(port, "/api/state")  # the default view, computed and kept
    assert status == 200
    tag = json.loads(body)["etag"]
    view = runs[0]
    slow = view.refresh

    def refresh():  # another request's look at the file takes long (a league writing, a big file)
        time.sleep(6)
        slow()

    monkeypatch.setattr(view, "refresh", refresh)
    other = threading.Thread(target=get, args=(port, "/api/state?bots=random"), daemon=True)
    other.start()
    time.sleep(0.5)  # the other request now holds the view
    started = time.monotonic()
    status, body = get(port, f"/api/state?known={tag}")
    waited = time.monotonic() - started
    assert status == 200 and json.loads(body)["etag"] == tag
    assert waited < 3, f"a poll waited {waited:.1f} s for another request's work"
    other.join(30)


def test_a_file_that_now_holds_another_run_is_read_afresh(tmp_path):
    """A league started again on the path served (its file removed, then made anew): its games,
    numbered from 1 again, were never read, and the page kept the old run's numbers."""
    from arena.cli import main

    served, other = tmp_path / "served.sqlite", tmp_path / "other.sqlite"
    for db, pairs in ((served, "2"), (other, "1")):
        args = ["match", "random", "greedy", "--pairs", pairs, "--workers", "1", "--quiet", "--db", str(db)]
        assert main(args) == 0
    view = serve.RunView(served)
    assert json.loads(view.state(None, None, None))["run"]["games"] == 4
    other.replace(served)
    assert json.loads(view.state(None, None, None))["run"]["games"] == 2
