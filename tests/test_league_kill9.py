"""`kill -9` of `arena serve` at any moment loses no finished game and stores none twice;
restarted, the league goes on (issue 24), its persisted state (standings, ratings, their
histories, meetings, SPRT sums: issue 45) that of the games stored. A real server process
on the loopback."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from arena.game_sources import GAME_MODULES
from arena.league.candidates import DEFAULT_TEST
from arena.league.league_state import LeagueState
from arena.league.store import Store
from tests.league_support import bot_archive, serve_process

ARENA = [str(Path(sys.executable).parent / "arena")]
ENV = {k: v for k, v in os.environ.items() if k != GAME_MODULES}  # a user's environment


def _serve(league: Path, db: str, output: Path) -> tuple[subprocess.Popen[bytes], int]:
    """`arena serve` on the league, on any free port: the process and its port."""
    command = [*ARENA, "serve", "--league", str(league), "--db", db, "--workers", "1"]
    return serve_process(command, output, ENV)


def _get(port: int, path: str) -> object:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=30) as answer:
        return json.loads(answer.read())


def _wait(predicate: object, seconds: float = 180) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if predicate():  # type: ignore[operator]
                return
        except OSError:
            pass
        time.sleep(0.3)
    raise AssertionError("the league did not get there in time")


def _stored(db: str) -> list[str]:
    store = Store(db)
    try:
        return [game.game_id for game in store.games()]
    finally:
        store.close()


def _state_is_the_games(db: str) -> None:
    """The state persisted in the store is the one its stored games make."""
    store = Store(db)
    try:
        kept = LeagueState.load(store.db, DEFAULT_TEST, 2)
        assert kept is not None
        replayed = LeagueState.replayed(store.db, DEFAULT_TEST, 2)
        assert kept.snapshot() == replayed.snapshot()
        assert kept.standings.count == store.game_count()
    finally:
        store.close()


def test_kill_9_loses_no_game_and_repeats_none(tmp_path: Path, league_db: str) -> None:
    league = tmp_path / "league"
    tokens = []
    for name in ("ada", "bob"):
        made = subprocess.run(
            [*ARENA, "serve", "--league", str(league), "--db", league_db, "--add-author", name],
            capture_output=True, text=True, timeout=60, check=True, env=ENV,
        )  # fmt: skip
        tokens.append(made.stdout.split()[-1])
    server, port = _serve(league, league_db, tmp_path / "first.out")
    try:
        _wait(lambda: _get(port, "/api/leaderboard") == [])
        for token, (source, name) in zip(
            tokens, [("random", "alpha"), ("greedy", "beta")], strict=True
        ):
            request = urllib.request.Request(
                f"http://127.0.0.1:{port}/api/bots",
                bot_archive(tmp_path, source, name).read_bytes(),
                {"Authorization": f"Bearer {token}"},
                method="POST",
            )
            urllib.request.urlopen(request, timeout=60).close()
        _wait(lambda: len(_stored(league_db)) >= 8)
    finally:
        os.killpg(server.pid, signal.SIGKILL)  # the server and its workers, mid-game
        server.wait(timeout=30)
    before = _stored(league_db)
    assert len(before) >= 8
    _state_is_the_games(league_db)
    server, port = _serve(league, league_db, tmp_path / "again.out")
    try:
        _wait(lambda: len(_stored(league_db)) >= len(before) + 6)
    finally:
        server.send_signal(signal.SIGINT)  # a normal stop
        try:
            server.wait(timeout=60)
        finally:
            os.killpg(server.pid, signal.SIGKILL) if server.poll() is None else None
    after = _stored(league_db)
    assert after[: len(before)] == before  # nothing lost
    assert len(set(after)) == len(after)  # nothing twice
    records = {p.name.removesuffix(".json.gz") for p in (league / "records").iterdir()}
    assert set(after) <= records  # every stored game has its record
    _state_is_the_games(league_db)
