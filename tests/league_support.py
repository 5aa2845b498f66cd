"""Helpers for the league tests: a bundled bot under another name, archived for submitting."""

from __future__ import annotations

import shutil
from pathlib import Path

from arena.league.league import archive_folder

BOTS = Path(__file__).resolve().parents[1] / "bots"


def bot_archive(tmp_path: Path, source: str, name: str) -> Path:
    """A copy of bundled bot `source` named `name` in tmp_path/src/, archived as `arena
    submit` does; the archive's path."""
    folder = tmp_path / "src" / name
    shutil.copytree(BOTS / source, folder, ignore=shutil.ignore_patterns("__pycache__"))
    lines = (folder / "bot.toml").read_text().splitlines()
    (folder / "bot.toml").write_text(
        "\n".join(f'name = "{name}"' if line.startswith("name") else line for line in lines)
    )
    return archive_folder(folder, tmp_path)
