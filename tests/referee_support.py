"""Helpers for the referee tests: scripted fake bots (tests/fakebots/fakebot.py) in temp folders.

Each bot folder gets its own copy of fakebot.py, because a sandboxed bot sees only its folder.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from arena.players.limits import Limits
from arena.players.manifest import BotManifest, load_manifest

FAKEBOT = Path(__file__).parent / "fakebots" / "fakebot.py"

GENEROUS = Limits(move_ms=10_000, startup_ms=20_000, grace_ms=2000)
"""For bots that behave: never a timeout on a loaded machine."""
SHORT = Limits(move_ms=200, startup_ms=20_000, grace_ms=300)
"""For bots meant to time out: keeps the suite fast."""


def fake_bot(root: Path, name: str, *flags: str) -> BotManifest:
    """A bot folder `root/name` running fakebot.py with `flags`, and its manifest."""
    folder = root / name
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(FAKEBOT, folder / "bot.py")
    argv = ["python3", "bot.py", "--name", name, *flags]
    (folder / "bot.toml").write_text(
        f'name = "{name}"\ncommand = {json.dumps(argv)}\ndefault = false\n'
    )
    return load_manifest(folder)
