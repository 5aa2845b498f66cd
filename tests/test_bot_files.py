"""Issue 20.3: a bot's folder is hashed in bounded pieces, never read through a link.

A 64 GiB sparse file once ended `arena run` with a MemoryError before its first game.
"""

from __future__ import annotations

import hashlib
import os
import threading
import tracemalloc
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli.main import main
from arena.errors import BotManifestError
from arena.players.bot_files import bot_hash

RANDOM = str(Path(__file__).resolve().parents[1] / "bots" / "random")


def _bot(folder: Path) -> Path:
    folder.mkdir(parents=True)
    (folder / "bot.toml").write_text('name = "big"\ncommand = ["python3", "bot.py"]\n')
    (folder / "bot.py").write_text("print('hi')\n")
    return folder


def test_the_hash_of_plain_files_is_their_names_and_contents(tmp_path: Path) -> None:
    folder = _bot(tmp_path / "b")
    (folder / "sub").mkdir()
    (folder / "sub" / "x.txt").write_bytes(b"x" * 3_000_000)  # more than one chunk
    (folder / "__pycache__").mkdir()
    (folder / "__pycache__" / "bot.pyc").write_bytes(b"left out")
    (folder / "bot").write_bytes(b"\x7fELF compiled, left out")
    expected = hashlib.sha256()
    for name in ("bot.py", "bot.toml", "sub/x.txt"):
        expected.update(name.encode() + b"\0")
        expected.update(hashlib.sha256((folder / name).read_bytes()).digest())
    assert bot_hash(folder) == expected.hexdigest()


def test_a_huge_sparse_file_is_refused_at_once_in_bounded_memory(tmp_path: Path) -> None:
    folder = _bot(tmp_path / "big")
    with open(folder / "data.bin", "wb") as sparse:
        sparse.truncate(64 << 30)
    tracemalloc.start()
    try:
        with pytest.raises(BotManifestError, match=r"65,536 MiB of files, more than the 256 MiB"):
            bot_hash(folder)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 4 << 20


def test_the_cap_is_a_setting(tmp_path: Path) -> None:
    folder = _bot(tmp_path / "big")
    (folder / "data.bin").write_bytes(b"\0" * (2 << 20))
    with pytest.raises(BotManifestError, match="data.bin"):
        bot_hash(folder, cap_mb=1)
    assert len(bot_hash(folder, cap_mb=3)) == 64


def test_a_link_out_of_the_folder_is_hashed_as_a_link_never_read(tmp_path: Path) -> None:
    folder = _bot(tmp_path / "b")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("one")
    (folder / "secret.txt").symlink_to(outside / "secret.txt")
    (folder / "everything").symlink_to(outside)
    (folder / "loop").symlink_to(folder)
    before = bot_hash(folder)
    (outside / "secret.txt").write_text("two")
    (outside / "huge.bin").write_bytes(b"\0" * (2 << 20))
    assert bot_hash(folder, cap_mb=1) == before


def test_a_fifo_is_never_opened(tmp_path: Path) -> None:
    folder = _bot(tmp_path / "b")
    os.mkfifo(folder / "pipe")
    done: list[str] = []
    worker = threading.Thread(target=lambda: done.append(bot_hash(folder)), daemon=True)
    worker.start()
    worker.join(20)
    if not done:  # unblock the reader so the test process can end
        with open(folder / "pipe", "wb"):
            pass
    assert done, "hashing waited on a FIFO"


def test_arena_run_refuses_a_bot_over_the_cap_in_one_sentence(tmp_path: Path) -> None:
    folder = _bot(tmp_path / "bots" / "big")
    with open(folder / "data.bin", "wb") as sparse:
        sparse.truncate(3 << 30)
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["run", str(folder), RANDOM, "--out", str(out)])
    assert result.exit_code == 1
    assert "more than the 256 MiB a bot may hold" in result.output
    assert "--max-bot-mb" in result.output and "Traceback" not in result.output
    result = CliRunner().invoke(
        main, ["run", str(folder), RANDOM, "--out", str(out), "--max-bot-mb", "1"]
    )
    assert result.exit_code == 1 and "more than the 1 MiB" in result.output
