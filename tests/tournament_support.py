"""Helpers for the tournament tests: a field of scripted fake bots in a temporary folder.

Each bot folder gets its own copy of tests/fakebots/tournament/fake.py, because a sandboxed
bot sees only its own folder.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

FAKE = Path(__file__).parent / "fakebots" / "tournament" / "fake.py"


def make_bots(root: Path, specs: dict[str, list[str]], hidden: tuple[str, ...] = ()) -> Path:
    """Bot folders under `root`, one per name, playing fake.py with the given options.

    Bots named in `hidden` get `default = false`.
    """
    root.mkdir(parents=True, exist_ok=True)
    for name, options in specs.items():
        folder = root / name
        folder.mkdir()
        shutil.copy(FAKE, folder / "bot.py")
        argv = ["python3", "bot.py", "--name", name, *options]
        default = "false" if name in hidden else "true"
        (folder / "bot.toml").write_text(
            f'name = "{name}"\ncommand = {json.dumps(argv)}\nlanguage = "python"\n'
            f"default = {default}\n"
        )
    return root


def processes_with(marker: str) -> list[int]:
    """The pids of live processes whose command line contains `marker`."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes()
            status = (entry / "status").read_text()
        except OSError:
            continue
        if "State:\tZ" in status:
            continue
        if marker.encode() in cmdline:
            found.append(int(entry.name))
    return found


def read_lines(path: Path) -> list[dict[str, object]]:
    """The complete lines of a games log."""
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def config_json(bots: list[str], **fields: object) -> str:
    """A run's config.json for tests that write a games log by hand: the fields config.json
    must have (arena/run_config.py checks each), and `fields` over them."""
    config = {
        "version": 2,
        "bots": [{"name": bot, "folder": f"/bots/{bot}"} for bot in bots],
        "rounds": 1,
        "seed": 1,
        "total_games": 99,
        "limits": {},
        **fields,
    }
    return json.dumps(config)
