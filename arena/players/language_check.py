"""A language's test build: its starter kit copied to a scratch folder and built in the
sandbox, as a bot's build is (`arena languages --test`)."""

from __future__ import annotations

import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from arena.errors import BotBuildError, BotManifestError
from arena.players.languages import Language
from arena.players.manifest import load_manifest
from arena.players.ready import make_ready


@dataclass(frozen=True)
class TestBuild:
    """How a language's test build went."""

    passed: bool
    seconds: float
    said: str
    """`built`, `nothing to build`, or why it failed (the first line)."""


def test_build(language: Language, bots_dir: Path) -> TestBuild | None:
    """Its starter in `bots_dir` copied (without what a build leaves) and built in the
    sandbox; None when the language has no starter there."""
    starter = bots_dir / language.starter if language.starter else None
    if starter is None or not (starter / "bot.toml").is_file():
        return None
    with tempfile.TemporaryDirectory(prefix="arena-language-") as scratch:
        folder = Path(scratch) / language.starter
        left_out = {Path(p).parts[0] for p in language.leftovers}
        shutil.copytree(starter, folder, ignore=lambda _, names: left_out & set(names))
        folder.chmod(0o755)  # the sandbox's users enter it (a scratch folder is 0700)
        Path(scratch).chmod(0o755)
        started = time.monotonic()
        try:
            bot = load_manifest(folder)
            make_ready(bot, force_build=True)
        except (BotBuildError, BotManifestError) as error:
            first = str(error).splitlines()[0]
            return TestBuild(False, time.monotonic() - started, first)
        said = "built" if bot.build is not None else "nothing to build"
        return TestBuild(True, time.monotonic() - started, said)
