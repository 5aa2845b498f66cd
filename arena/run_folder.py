"""A run folder's configuration snapshot, `config.json`: its name, and reading it back.

The tournament writes it when a run starts (arena/run_setup.py); resuming, the report and
the league's downloads read it. Every field is checked on reading (`TournamentConfig`).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from arena import bounded
from arena.errors import TournamentError
from arena.run_config import TournamentConfig

__all__ = ["CONFIG_NAME", "MAX_CONFIG", "files_held", "load_config"]

CONFIG_NAME = "config.json"
MAX_CONFIG = 16 << 20
"""The largest config.json read (a field of 1,000 bots takes about 300 KiB)."""


def load_config(run_dir: Path) -> dict[str, Any]:
    """The configuration snapshot of a run folder; TournamentError if there is none."""
    path = run_dir / CONFIG_NAME
    if not path.is_file():
        raise TournamentError(
            f"{run_dir} holds no tournament ({CONFIG_NAME} is missing): give the folder of an "
            "`arena run`; a game of `arena play` or `arena check` gets its page from `arena "
            "replay RECORD --html PAGE`."
        )
    try:
        data = bounded.loads(bounded.read_capped(path, MAX_CONFIG, "configuration"), str(path))
    except bounded.BoundedReadError as error:
        raise TournamentError(str(error)) from None
    if not isinstance(data, dict):
        raise TournamentError(f"{path} does not hold a tournament configuration.")
    TournamentConfig.from_json(data, path)  # every field checked: one sentence if wrong
    return data


def files_held(folder: Path) -> str | None:
    """A few of the names `folder` holds ("a, b, c, ..."), None when it is empty, missing or
    cannot be listed (writing it then says why): an --out that would mix a command's files
    with others, and write over any of the same name."""
    try:
        names = sorted(entry.name for entry in os.scandir(folder))
    except OSError:
        return None
    if not names:
        return None
    return ", ".join(names[:3]) + (", ..." if len(names) > 3 else "")
