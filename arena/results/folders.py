"""The folders commands write their results to: one new folder per command, never shared."""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path

RESULTS = Path("results")
"""Where commands write when no --out is given (relative to the current folder)."""


def new_results_folder(kind: str, results: Path = RESULTS) -> Path:
    """A new folder `results/<kind>-<timestamp>[-n]`, made now.

    `mkdir` either makes the folder or fails, so two commands started in the same second
    never share one (each takes the next free suffix).
    """
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    results.mkdir(parents=True, exist_ok=True)
    n = 1
    while True:
        folder = results / (f"{kind}-{stamp}" if n == 1 else f"{kind}-{stamp}-{n}")
        try:
            folder.mkdir()
        except FileExistsError:
            n += 1
            continue
        return folder


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


def unused_out(folder: Path) -> str | None:
    """The sentence refusing `folder` as a command's --out when it holds files, else None."""
    held = files_held(folder)
    if held is None:
        return None
    return f"{folder} already holds files ({held}); give --out a new or empty folder."
