"""Issue 9: a bot's build runs in the sandbox, not as the referee with its whole machine.

The build below tries what a hostile build would: write outside its folder, reach the
network, leave a daemon running. Only the write into its own folder may succeed.
"""

from __future__ import annotations

import os
import socket
import time
import uuid
from pathlib import Path

import pytest

from arena.errors import BotBuildError
from arena.players import sandbox
from arena.players.manifest import build_bot, load_manifest

BUILD = """#!/bin/sh
echo built > built.txt
echo escaped > {outside} 2>/dev/null && echo "WROTE OUTSIDE"
python3 -c "import socket; socket.create_connection(('127.0.0.1', {port}), 1)" 2>/dev/null \\
    && echo "REACHED THE NETWORK"
setsid sh -c 'exec -a {marker} sleep 300' >/dev/null 2>&1 < /dev/null &
echo done
"""


def _processes_named(marker: str) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if marker.encode() in Path(f"/proc/{entry}/cmdline").read_bytes():
                    found.append(int(entry))
            except OSError:
                continue
    return found


def test_a_build_writes_only_its_folder_has_no_network_and_leaves_nothing_running(
    tmp_path: Path,
) -> None:
    if sandbox.isolation_mode("auto") != "bwrap":
        pytest.skip("bubblewrap is not available here: builds run without isolation")
    marker = f"arena-build-daemon-{uuid.uuid4().hex[:12]}"
    outside = tmp_path / "escaped.txt"
    folder = tmp_path / "bots" / "builder"
    folder.mkdir(parents=True)
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        server.settimeout(0.2)
        script = BUILD.format(outside=outside, port=server.getsockname()[1], marker=marker)
        (folder / "build.sh").write_text(script)
        (folder / "build.sh").chmod(0o755)
        (folder / "bot.toml").write_text(
            'name = "builder"\ncommand = ["./bot"]\nbuild = ["./build.sh"]\n'
        )
        build_bot(load_manifest(folder))
        with pytest.raises(TimeoutError):
            server.accept()
    assert (folder / "built.txt").read_text() == "built\n"
    assert not outside.exists()
    time.sleep(0.2)
    left = _processes_named(marker)
    for pid in left:
        os.kill(pid, 9)
    assert left == [], "the build left a daemon running"


def test_a_build_over_its_time_is_stopped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from arena.players import manifest

    monkeypatch.setattr(manifest, "BUILD_TIMEOUT_S", 0.5)
    folder = tmp_path / "slow"
    folder.mkdir()
    (folder / "bot.toml").write_text(
        'name = "slow"\ncommand = ["./bot"]\nbuild = ["sleep", "30"]\n'
    )
    started = time.monotonic()
    with pytest.raises(BotBuildError, match="did not finish building within 0.5 s"):
        build_bot(load_manifest(folder))
    assert time.monotonic() - started < 10
