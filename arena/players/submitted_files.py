"""What of a bot's folder is sent to a league: all of it but what its language's build
leaves (`Language.leftovers`: target/, bin/, __pycache__ ...; for a bot with a build, or
a language without one: its caches) and what its `.arenaignore` names, so a freshly built
folder submits as it is (issue 41).

`.arenaignore` holds one pattern a line (`#` starts a comment): a pattern with a `/` in it
is matched against the path inside the folder (`data/big/*`), one without against each
name on the way (`*.log`, `scratch`); a folder matched is left out whole. It is read up to
`MAX_IGNORE_BYTES`.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Callable
from pathlib import Path, PurePosixPath

from arena.errors import ArenaError
from arena.players.manifest import load_manifest
from arena.players.toolchains import bot_language

IGNORE_FILE = ".arenaignore"
MAX_IGNORE_BYTES = 64 << 10
"""The most of a `.arenaignore` read (a few patterns; more is not read)."""


def ignore_patterns(folder: Path) -> list[str]:
    """The patterns of `folder`'s `.arenaignore` (none when it has none)."""
    path = folder / IGNORE_FILE
    if not path.is_file() or path.is_symlink():
        return []
    with path.open("rb") as file:
        text = file.read(MAX_IGNORE_BYTES).decode("utf-8", "replace")
    lines = (line.split("#", 1)[0].strip() for line in text.splitlines())
    return [line.strip("/") for line in lines if line.strip("/")]


def left_out(folder: Path) -> Callable[[str], bool]:
    """A test of a path inside `folder` (POSIX, relative): True when it is not sent."""
    try:
        bot = load_manifest(folder)
    except ArenaError:  # a broken bot.toml: sent as it is, for the league to say so
        bot = None
    language = None if bot is None else bot_language(bot)
    leftovers: list[str] = []
    if bot is not None and language is not None and (bot.build or not language.build):
        # what the league's build makes again, or a cache; a bot without a build keeps
        # what it runs (a jar it ships in bin/)
        leftovers = [path.strip("/") for path in language.leftovers]
    patterns = ignore_patterns(folder)

    def test(relative: str) -> bool:
        path = PurePosixPath(relative)
        for above in [path, *list(path.parents)[:-1]]:  # the path and each folder above it
            text = above.as_posix()
            if text in leftovers:
                return True
            for pattern in patterns:
                matched = text if "/" in pattern else above.name
                if fnmatch.fnmatchcase(matched, pattern):
                    return True
        return False

    return test
