"""SIGINT or SIGTERM stops `arena serve` within seconds while a visitor holds the event
stream (the league's own page opens one) and a human table plays (issue 42, point 4: it
was still running 120 s later). A real server process on a free loopback port."""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from tests.league_support import bot_archive
from tests.test_league_kill9 import ARENA, ENV, _port, _wait

STOP_S = 5.0
"""The issue's bound on a stop."""


def _call(port: int, method: str, path: str, token: str = "", body: bytes | None = None) -> Any:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        connection.request(method, path, body, headers)
        return json.loads(connection.getresponse().read())
    finally:
        connection.close()


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_stop_signal_ends_the_server_while_a_stream_and_a_human_table_are_open(
    tmp_path: Path, stop: signal.Signals
) -> None:
    league = tmp_path / "league"
    made = subprocess.run(
        [*ARENA, "serve", "--league", str(league), "--add-author", "ada"],
        capture_output=True, text=True, timeout=60, check=True, env=ENV,
    )  # fmt: skip
    token = made.stdout.split()[-1]
    port = _port()
    server = subprocess.Popen(
        [*ARENA, "serve", "--league", str(league), "--workers", "0", "--port", str(port)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True, env=ENV,
    )  # fmt: skip
    stream = None
    try:
        _wait(lambda: _call(port, "GET", "/api/leaderboard") == [], 60)
        archive = bot_archive(tmp_path, "random", "alpha").read_bytes()
        assert _call(port, "POST", "/api/bots", token, archive)["bot"] == "alpha"
        _wait(lambda: _call(port, "GET", "/api/bots/alpha")["status"] == "active", 120)
        game = _call(port, "POST", "/api/play", token, b'{"bot": "alpha"}')
        seat = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        seat.request("GET", game["page"] + "/api/state", headers={"X-Seat-Key": game["key"]})
        assert json.loads(seat.getresponse().read())["over"] is False  # its page is open
        seat.close()
        stream = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        stream.request("GET", "/api/events")
        events = stream.getresponse()
        assert events.readline().startswith(b"data: ")  # the stream is open, and held
        server.send_signal(stop)
        sent = time.monotonic()
        server.wait(timeout=STOP_S)
        took = time.monotonic() - sent
    finally:
        if stream is not None:
            stream.close()
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(timeout=30)
    assert took < STOP_S
    print(f"stopped {took:.2f} s after {stop.name}")
    # the human table ended with the league, its game recorded with that reason
    lines = (league / "human" / "games.jsonl").read_text().splitlines()
    assert len(lines) == 1 and "the league stopped" in json.loads(lines[0])["reason"], lines
