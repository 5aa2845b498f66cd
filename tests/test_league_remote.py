"""Shipping a league's bots to Dask workers of other machines (arena/league/remote.py, issue
24): the plugin's own steps, with a stand-in worker and executor. The real cluster is in
tests/test_league_play.py."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from arena.execution import local_folders
from arena.league import remote
from arena.players.manifest import load_manifest
from tests.league_support import BOTS


def _bot(tmp_path: Path, name: str) -> Any:
    folder = tmp_path / "league" / "bots" / name
    shutil.copytree(BOTS / "random", folder, ignore=shutil.ignore_patterns("__pycache__"))
    return load_manifest(folder)


def _setup(plugin: remote.ShippedBot, tmp_path: Path) -> tuple[Path, str | None]:
    worker = SimpleNamespace(local_directory=str(tmp_path / "worker"), address="tcp://w:1")
    plugin.setup(worker)
    return local_folders()[plugin.manifest.name]


def test_a_shipped_bot_is_unpacked_once_into_the_workers_directory(tmp_path: Path) -> None:
    bot = _bot(tmp_path, "random")
    plugin = remote.ShippedBot(bot, remote.bot_archive_bytes(bot.folder))
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
    remote.ship(executor, big)
    assert shipped[0].archive == b"" and "over 0 MiB compressed" in shipped[0].refused
    _, broken = _setup(shipped[0], tmp_path)
    assert broken is not None and "cannot be installed on worker tcp://w:1" in broken
    monkeypatch.undo()
    linked = _bot(tmp_path, "linked")
    (linked.folder / "secrets").symlink_to("/etc/passwd")
    remote.ship(executor, linked)
    _, broken = _setup(shipped[1], tmp_path)
    assert broken is not None and "secrets' is a link to an absolute path" in broken
    assert not list((tmp_path / "worker" / "arena-league-bots").glob("linked-*"))
