"""Shipping a league's bots to Dask workers of other machines (arena/league/remote.py, issue
24): the plugin's own steps, with a stand-in worker and executor; a worker builds under the
league's build limits and disk quota (issue 42, point 6), not the defaults of `arena run`.
The real cluster is in tests/test_league_play.py."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from arena.execution import local_folders
from arena.league import remote
from arena.league.checking import CheckPolicy
from arena.players.manifest import load_manifest
from tests.league_support import BOTS

POLICY = CheckPolicy()
"""The league's defaults (`arena serve`'s): 120 s of CPU, 300 s, 256 MiB."""


def _bot(tmp_path: Path, name: str, build: str | None = None) -> Any:
    """The bundled random bot as `name`, with the build `sh -c BUILD` if given."""
    folder = tmp_path / "league" / "bots" / name
    shutil.copytree(BOTS / "random", folder, ignore=shutil.ignore_patterns("__pycache__"))
    if build is not None:
        (folder / "build.sh").write_text(build)
        (folder / "bot.toml").write_text(
            f'name = "{name}"\ncommand = ["python3", "bot.py"]\ngames = ["mandala"]\n'
            'build = ["sh", "build.sh"]\n'
        )
    return load_manifest(folder)


def _setup(plugin: remote.ShippedBot, tmp_path: Path) -> tuple[Path, str | None]:
    worker = SimpleNamespace(local_directory=str(tmp_path / "worker"), address="tcp://w:1")
    plugin.setup(worker)
    return local_folders()[plugin.manifest.name]


def test_a_shipped_bot_is_unpacked_once_into_the_workers_directory(tmp_path: Path) -> None:
    bot = _bot(tmp_path, "random")
    plugin = remote.ShippedBot(bot, remote.bot_archive_bytes(bot.folder), POLICY)
    folder, broken = _setup(plugin, tmp_path)
    assert broken is None and (folder / "bot.toml").is_file() and (folder / "bot.py").is_file()
    assert tmp_path / "worker" in folder.parents
    (folder / "marker").write_text("kept")
    assert _setup(plugin, tmp_path) == (folder, None)  # again (a restart): not unpacked anew
    assert (folder / "marker").exists()


def test_a_bot_too_large_or_linking_out_is_broken_on_the_worker_saying_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shipped: list[remote.ShippedBot] = []
    executor = SimpleNamespace(register_plugin=shipped.append)
    big = _bot(tmp_path, "big")
    (big.folder / "data.bin").write_bytes(os.urandom(256 << 10))  # does not compress
    monkeypatch.setattr(remote, "MAX_SHIPPED_BYTES", 64 << 10)
    remote.ship(executor, big, POLICY)
    assert shipped[0].archive == b"" and "over 0 MiB compressed" in shipped[0].refused
    _, broken = _setup(shipped[0], tmp_path)
    assert broken is not None and "cannot be installed on worker tcp://w:1" in broken
    monkeypatch.undo()
    linked = _bot(tmp_path, "linked")
    (linked.folder / "secrets").symlink_to("/etc/passwd")
    remote.ship(executor, linked, POLICY)
    _, broken = _setup(shipped[1], tmp_path)
    assert broken is not None and "secrets' is a link to an absolute path" in broken
    assert not list((tmp_path / "worker" / "arena-league-bots").glob("linked-*"))


def _shipped(tmp_path: Path, name: str, build: str, policy: CheckPolicy) -> tuple[float, str]:
    """Bot `name` with `build` shipped under `policy` and set up on a stand-in worker: how
    long its setup took, and why it is broken there (it must be)."""
    bot = _bot(tmp_path, name, build)
    plugin = remote.ShippedBot(bot, remote.bot_archive_bytes(bot.folder), policy)
    started = time.monotonic()
    folder, broken = _setup(plugin, tmp_path)
    assert broken is not None and "cannot be installed on worker tcp://w:1" in broken
    assert not folder.exists(), "a version that cannot play leaves nothing on the worker"
    return time.monotonic() - started, broken


def test_a_workers_build_keeps_to_the_leagues_disk_quota(tmp_path: Path) -> None:
    """Three files of 600 kB, each under the largest file a build may write, 1.8 MB in all:
    over a league's quota of 1 MiB, so the version is broken on the worker, its files gone
    (the defaults of `arena run` have no quota at all)."""
    build = "for n in 1 2 3; do head -c 600000 /dev/zero > data$n.bin; done\n"
    _, broken = _shipped(tmp_path, "heavy", build, CheckPolicy(bot_disk_mb=1))
    assert "a bot version may hold at most 1 MiB" in broken
    bot = _bot(tmp_path, "light", build)  # the same build within the default quota: it plays
    plugin = remote.ShippedBot(bot, remote.bot_archive_bytes(bot.folder), POLICY)
    folder, ok = _setup(plugin, tmp_path)
    assert ok is None and (folder / "data3.bin").stat().st_size == 600000


def test_a_workers_build_keeps_to_the_leagues_wall_time(tmp_path: Path) -> None:
    took, broken = _shipped(tmp_path, "slow", "sleep 60\n", CheckPolicy(build_timeout_s=1))
    assert "did not finish building within 1 s" in broken
    assert took < 30, f"the build ran {took:.0f} s, not the league's 1 s (the default: 600 s)"


def test_a_workers_build_keeps_to_the_leagues_cpu_time(tmp_path: Path) -> None:
    spin = "while :; do :; done\n"
    took, broken = _shipped(tmp_path, "spin", spin, CheckPolicy(build_cpu_s=1, build_timeout_s=60))
    assert "stopped at 1 s of CPU time, the most a build may use here" in broken
    assert took < 30, f"the build ran {took:.0f} s, not the league's 1 s of CPU"
