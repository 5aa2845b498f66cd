"""The folders commands write their results to: one new folder per command, never shared."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from arena.run_folder import files_held

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


def unused_out(folder: Path) -> str | None:
    """The sentence refusing `folder` as a command's --out when it holds files, else None."""
    held = files_held(folder)
    if held is None:
        return None
    return f"{folder} already holds files ({held}); give --out a new or empty folder."
