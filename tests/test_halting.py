"""A halted thread's processes are killed whole (players/halting.py): the process group of the
process it started and the members of its cgroup, which may have left that group. Under
bubblewrap the sandbox's PID 1 runs in a session of its own; under load its
`--die-with-parent` was seen to leave it and the bot running after the group was killed
(issue 48, test_league_stop's handshake case). Here a bot that escapes its group by setsid
stands for it, run without bubblewrap so that only the cgroup can reach it."""

from __future__ import annotations

import os
import subprocess
import threading
from dataclasses import replace
from pathlib import Path

import pytest

from arena.players import halting, sandbox
from arena.players.launch import launch_spec, start_process
from arena.players.limits import Limits
from arena.players.manifest import load_manifest
from tests.waiting import until


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not sandbox.probe().cgroups, reason="needs writable cgroups")
def test_a_halt_kills_a_process_that_left_its_group_through_its_cgroup(tmp_path: Path) -> None:
    folder = tmp_path / "escaper"
    folder.mkdir()
    (folder / "bot.toml").write_text(
        'name = "escaper"\ncommand = ["sh", "-c", "setsid sleep 600 & echo $!; wait"]\n'
        'games = ["mandala"]\n'
    )
    limits = Limits()
    limits = replace(limits, sandbox=replace(limits.sandbox, isolation="none"))
    spec = launch_spec(load_manifest(folder), limits)
    started: list[subprocess.Popen[bytes]] = []
    halted = threading.Event()

    def check() -> None:  # a league's check thread, waiting on its bot
        process = start_process(spec, subprocess.DEVNULL)
        started.append(process)
        halted.wait(60)
        process.wait(60)

    thread = threading.Thread(target=check, daemon=True)
    thread.start()
    until(lambda: started, 30, what="the bot's start")
    process = started[0]
    assert process.stdout is not None
    escaped = int(process.stdout.readline())
    assert os.getpgid(escaped) != process.pid  # it left the group a killpg reaches
    assert escaped in spec.pids()
    try:
        halting.halt([thread])
        until(lambda: not _alive(escaped), 10, what=f"the end of the escaped process {escaped}")
        assert process.wait(10) == -9  # its group killed too
    finally:
        halted.set()
        thread.join(60)
        for step in spec.teardown:
            step()
