"""What the wheel carries besides pyproject.toml's metadata: the `arena` packages, and the
bundled bots as the package `arena.bundled_bots` (issue 47).

bots/ stays at the repository's top level, where bot authors look for it; the wheel maps
it to `arena/bundled_bots/`, where the arena finds it through importlib.resources
(arena/players/bundled.py), installed or in a checkout (an editable install maps the name to
bots/ itself). pyproject.toml alone cannot say this: its package list is either found or
written out, not both, and its globs cannot tell a bot's sources from what a build left in
the checkout (a compiled starter-c, `node_modules/`, `__pycache__/`). So the files of
bots/ are chosen here by the rule that hashes a bot (arena/players/bot_files.py): what a
bot's hash reads is what ships.
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

from setuptools import find_namespace_packages, setup

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # arena/players/bot_files.py needs nothing but the standard library

from arena.players.bot_files import source_files  # noqa: E402

# A bot's folder whose name could be a module's (bots/greedy) is data, not a package.
warnings.filterwarnings("ignore", r"Package 'arena\.bundled_bots\..*' is absent")

setup(
    packages=[*find_namespace_packages(include=["arena", "arena.*"]), "arena.bundled_bots"],
    package_dir={"arena.bundled_bots": "bots"},
    package_data={
        "arena.html": ["assets/*"],
        "arena.bundled_bots": source_files(HERE / "bots"),
    },
)
