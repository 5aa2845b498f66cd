"""kill -9 of `arena run` at random moments never leaves results that cannot be read.

After each kill: `arena leaderboard` reads the run, `arena run --resume` continues it, and
no worker or bot process of the killed run is left behind. At the end the games log holds
every game exactly once.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NEWLINE = b"\n"
ARENA = [sys.executable, "-c", "from arena.cli.main import main; main()"]


def _marked(marker: str) -> list[int]:
    needle = marker.encode()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            if needle in Path(f"/proc/{entry}/environ").read_bytes():
                found.append(int(entry))
        except OSError:
            continue
    return found


def _no_leftovers(marker: str) -> None:
    deadline = time.monotonic() + 10  # orphaned workers notice their parent is gone by polling
    while (left := _marked(marker)) and time.monotonic() < deadline:
        time.sleep(0.1)
    for pid in left:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    assert not left, f"processes of the killed run are still there: {left}"


def _run(
    args: list[str], env: dict[str, str], timeout: float = 240
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*ARENA, *args], env=env, cwd=ROOT, capture_output=True, text=True, timeout=timeout
    )


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs /proc")
def test_kill_9_at_random_moments_leaves_readable_results(tmp_path: Path) -> None:
    out = tmp_path / "run"
    bots = [str(ROOT / "bots" / "random"), str(ROOT / "bots" / "greedy")]
    rng = random.Random(2024)
    for attempt in range(4):
        marker = f"kill9-{uuid.uuid4().hex}"
        env = {**os.environ, "ARENA_BOT_KILL9_MARKER": marker}
        args = ["run", *bots, "--rounds", "60", "--seed", "5", "--workers", "2", "--no-charts"]
        args += ["--out", str(out)] + (["--resume"] if attempt else [])
        process = subprocess.Popen(
            [*ARENA, *args], env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        time.sleep(rng.uniform(0.5, 2.5))
        process.kill()
        process.wait()
        _no_leftovers(marker)
        if not (out / "config.json").exists():
            continue  # killed before the run existed: nothing to read yet
        logged = (out / "games.jsonl").read_bytes() if (out / "games.jsonl").exists() else b""
        print(f"kill {attempt}: {logged.count(NEWLINE)} games logged")
        board = _run(["leaderboard", str(out)], env)
        assert board.returncode == 0, board.stdout + board.stderr
        assert "Traceback" not in board.stderr
    finished = _run(
        ["run", "--resume", "--out", str(out), "--workers", "2", "--no-charts"],
        {**os.environ, "ARENA_BOT_KILL9_MARKER": "final"},
    )
    assert finished.returncode == 0, finished.stdout + finished.stderr
    lines = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines() if line]
    ids = [line["game_id"] for line in lines]
    config = json.loads((out / "config.json").read_text())
    assert len(ids) == len(set(ids)) == config["total_games"]
    board = _run(["leaderboard", str(out)], dict(os.environ))
    assert board.returncode == 0, board.stderr
