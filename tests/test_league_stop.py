"""SIGINT or SIGTERM stops `arena serve` within seconds while a visitor holds the event
stream (the league's own page opens one) and a human table plays (issue 42, point 4: it
was still running 120 s later). A real server process on a free loopback port."""

from __future__ import annotations

import contextlib
import http.client
import json
import logging
import os
import signal
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from arena.league.checking import CheckQueue
from arena.league.league import League
from arena.league.store import CUT_SHORT, Store
from arena.league.uploads import archive_folder
from arena.players import halting
from arena.players.limits import Limits
from tests.league_support import bot_archive, serve_process
from tests.test_league_kill9 import ARENA, ENV, _wait
from tests.waiting import until

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
    server, port = serve_process(
        [*ARENA, "serve", "--league", str(league), "--workers", "0"], tmp_path / "serve.out", ENV
    )
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


def _running(token: str) -> list[int]:
    """The pids of processes whose command line holds `token` (sandboxed ones too)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                line = (Path("/proc") / entry / "cmdline").read_bytes()
            except OSError:
                continue
            if token.encode() in line:
                found.append(int(entry))
    return found


def _shown(pids: list[int]) -> str:
    """The processes' command lines and parents, for a failure's message."""
    shown = []
    for pid in pids:
        with contextlib.suppress(OSError):
            line = (Path("/proc") / str(pid) / "cmdline").read_bytes().replace(b"\0", b" ")
            status = (Path("/proc") / str(pid) / "status").read_text()
            parent = next(x for x in status.splitlines() if x.startswith("PPid:"))
            shown.append(f"{pid} ({parent}): {line[-80:].decode(errors='replace')}")
    return "; ".join(shown) or "none"


@pytest.mark.parametrize("stage", ["build", "handshake"])
def test_a_check_running_at_the_stop_is_cut_short_at_once(
    tmp_path: Path, stage: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A version whose build or handshake hangs held the league's stop up to 30 s (the check
    thread was joined with that timeout); its processes are killed at once now, and the
    version fails with the sentence a restart gives ("submit it again")."""
    caplog.set_level(logging.INFO, logger="arena.league")
    token = f"0.{os.getpid():07d}{len(stage)}"  # sleep adds it to 600: a unique argument
    folder = tmp_path / "src" / "slow"
    folder.mkdir(parents=True)
    hang = ["sh", "-c", f"exec sleep 600 {token}"]
    build, command = (hang, ["true"]) if stage == "build" else (["true"], hang)
    (folder / "bot.toml").write_text(
        f'name = "slow"\ncommand = {json.dumps(command)}\nbuild = {json.dumps(build)}\n'
        'games = ["mandala"]\n'
    )
    league = League(tmp_path / "league", workers=0, limits=Limits(startup_ms=300_000))
    closed = False
    try:
        ada = league.store.author_of(league.store.add_author("ada"))
        assert ada is not None
        bot = league.submit(ada, archive_folder(folder, tmp_path))
        until(lambda: _running(token), 120, what="the hanging process")
        sent = time.monotonic()
        league.close()
        closed, took = True, time.monotonic() - sent
    finally:
        if not closed:
            league.close()
    print(f"closed {took:.2f} s after the stop")
    assert took < STOP_S
    until(lambda: not _running(token), 10, what=f"the end of {_shown(_running(token))}")
    again = Store(tmp_path / "league" / "league.sqlite")
    try:
        stored = again.bot(bot.label)
    finally:
        again.close()
    assert stored is not None and (stored.status, stored.message) == ("failed", CUT_SHORT)
    told = [r.getMessage() for r in caplog.records if r.name.startswith("arena.league")]
    assert "checks cut short by the stop: slow" in told
    assert not [line for line in told if line.startswith("check of slow:")], told  # no "-9"


def test_a_check_that_raises_fails_its_version_with_a_sentence(tmp_path: Path) -> None:
    """A check that raised what it did not expect (a bot.toml with a NUL in [env] raised
    ValueError from exec) left its version `checking` until the league restarted."""
    store = Store(tmp_path / "league.sqlite")
    try:
        author = store.author_of(store.add_author("ada"))
        assert author is not None
        bot = store.add_bot("odd", author)

        def check(_: Any) -> Any:
            raise ValueError("embedded null byte")

        queue = CheckQueue(1, check, store, threading.Lock())
        with pytest.raises(ValueError):
            queue.put(bot).result(timeout=60)
        queue.close()
        stored = store.bot("odd")
    finally:
        store.close()
    assert stored is not None and stored.status == "failed"
    assert stored.message.startswith("the arena's check stopped on an error of its own (Value")


def test_a_check_whose_process_dies_at_the_stop_writes_nothing_after_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The stop killed a check's processes before it marked the check cut short: a build
    killed that way could write and log its own failure ("exited with code -9") in between
    (seen under load). The check here writes its result as soon as its process dies, and the
    stop's kill waits for that write: the version is still failed as cut short, silently."""
    caplog.set_level(logging.INFO, logger="arena.league")
    store = Store(tmp_path / "league.sqlite")
    wrote = threading.Event()
    try:
        author = store.author_of(store.add_author("ada"))
        assert author is not None
        bot = store.add_bot("slow", author)
        started = threading.Event()

        def check(item: Any) -> Any:
            process = subprocess.Popen(["sleep", "600"], start_new_session=True)
            halting.started(process)
            started.set()
            process.wait()
            try:
                return queue.write(item, "failed", f"exited with code {process.returncode}")
            finally:
                wrote.set()

        real_halt = halting.halt

        def halt_then_let_it_write(threads: list[threading.Thread]) -> None:
            real_halt(threads)
            assert wrote.wait(30)

        monkeypatch.setattr(halting, "halt", halt_then_let_it_write)
        queue = CheckQueue(1, check, store, threading.Lock())
        queue.put(bot)
        assert started.wait(60)
        queue.close()
        stored = store.bot("slow")
    finally:
        store.close()
    assert wrote.is_set()
    assert stored is not None and (stored.status, stored.message) == ("failed", CUT_SHORT)
    told = [r.getMessage() for r in caplog.records if r.name.startswith("arena.league")]
    assert not [line for line in told if line.startswith("check of slow:")], told
