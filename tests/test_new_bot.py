"""Issue 47: `arena new LANG FOLDER` (a bot made from a bundled starter) and the bundled
bots' working copies in the user's cache folder (arena/players/bundled.py)."""

from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli.main import main
from arena.errors import BotManifestError
from arena.players import bundled
from arena.players.bot_files import copy_bot, source_files
from arena.players.manifest import discover_bots, load_manifest, resolve_bot

BOTS = Path(__file__).resolve().parents[1] / "bots"


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty current folder, and a cache folder of the test's own."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    (tmp_path / "here").mkdir()
    monkeypatch.chdir(tmp_path / "here")
    return tmp_path / "here"


def _new(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["new", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


def test_the_list_is_every_starter_folder(here: Path) -> None:
    code, said = _new()
    assert code == 0
    folders = [p.name for p in BOTS.iterdir() if (p / "bot.toml").is_file()]
    words = sorted(name.removeprefix("starter-") for name in folders if name.startswith("starter-"))
    assert [line.split()[0] for line in said.splitlines()[1:-1]] == words
    assert said.splitlines()[-1] == f"The guide for bot authors: {BOTS / 'README.md'}"
    assert _new("--list") == (code, said)
    assert list(here.iterdir()) == []


def test_a_starter_added_to_the_bundled_bots_is_offered_at_once(
    here: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shipped = tmp_path / "shipped"
    shutil.copytree(BOTS / "starter-c", shipped / "starter-c")
    shutil.copytree(BOTS / "random", shipped / "starter-zz")
    monkeypatch.setattr(bundled, "bundled_folder", lambda: shipped)
    code, said = _new()
    assert code == 0 and [line.split()[0] for line in said.splitlines()[1:3]] == ["c", "zz"]
    code, said = _new("zz", "mine")
    assert code == 0, said
    assert load_manifest(here / "mine").name == "mine"
    shipped_source = (BOTS / "random" / "bot.py").read_bytes()
    assert (here / "mine" / "bot.py").read_bytes() == shipped_source.replace(
        b'"name": "random"', b'"name": "mine"'
    )  # its hello's name is the new bot's


def test_a_new_bot_is_the_starter_renamed_after_its_folder(here: Path) -> None:
    code, said = _new("javascript", "bots/mine")  # the bot.toml's language finds starter-js
    assert code == 0, said
    assert "Made bots/mine from the js starter: a bot named 'mine'." in said
    assert "arena check bots/mine" in said
    made, starter = load_manifest(here / "bots" / "mine"), load_manifest(BOTS / "starter-js")
    assert made.name == "mine" and made.command == starter.command
    assert source_files(here / "bots" / "mine") == source_files(BOTS / "starter-js")
    assert (here / "bots" / "mine" / "bot.js").read_text() == (
        BOTS / "starter-js" / "bot.js"
    ).read_text().replace('"starter-js"', '"mine"')


STARTER_WORDS = sorted(p.name.removeprefix("starter-") for p in BOTS.glob("starter-*"))


@pytest.mark.parametrize("word", STARTER_WORDS)
def test_a_new_bots_sources_name_it_where_the_starter_named_itself(here: Path, word: str) -> None:
    """The bot's own hello said `starter-python` (etc.) after `arena new python bots/mine`:
    the starter's name as a string in its sources becomes the new bot's, nothing else."""
    code, said = _new(word, "mine")
    assert code == 0, said
    starter, made = BOTS / f"starter-{word}", here / "mine"
    renamed = 0
    for relative in source_files(starter):
        if relative == "bot.toml":
            continue
        before = (starter / relative).read_text(encoding="utf-8")
        renamed += before.count(f'"starter-{word}"')
        after = before.replace(f'"starter-{word}"', '"mine"')
        assert (made / relative).read_text(encoding="utf-8") == after, relative
    assert renamed == 1  # each starter names itself once, in its hello


def test_a_new_python_bot_says_its_new_name_in_its_hello(here: Path) -> None:
    assert _new("python", "mine")[0] == 0
    hello = {"type": "hello", "protocol": 2, "game": "mandala", "players": 2, "seat": 0}
    answer = subprocess.run(
        [sys.executable, "bot.py"], cwd=here / "mine", input=json.dumps(hello) + "\n",
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert json.loads(answer.stdout.splitlines()[0])["name"] == "mine"


@pytest.mark.parametrize(
    ("args", "sentence"),
    [
        (("cobol", "mine"), "No starter for 'cobol'; the starters are: c, "),
        (
            ("c", "my bot"),
            "The folder's name ('my bot') is the bot's name: it must be a string of 1 to 40",
        ),
        (("c",), "Give the bot's folder too: arena new LANG FOLDER."),
    ],
)
def test_a_wrong_request_gets_one_sentence(
    here: Path, args: tuple[str, ...], sentence: str
) -> None:
    code, said = _new(*args)
    assert code != 0 and sentence in said, said
    assert list(here.iterdir()) == []


def test_a_folder_in_use_is_left_alone(here: Path) -> None:
    (here / "mine").mkdir()
    (here / "mine" / "notes.txt").write_text("mine")
    code, said = _new("c", "mine")
    assert code == 1 and "mine already exists; give a new folder for the bot." in said
    assert [p.name for p in (here / "mine").iterdir()] == ["notes.txt"]
    (here / "empty").mkdir()
    assert _new("c", "empty")[0] == 0


def test_a_bundled_bot_plays_from_a_working_copy_in_the_cache(here: Path, tmp_path: Path) -> None:
    (here / "bots" / "mine").mkdir(parents=True)  # a bots/ without random: still found
    (here / "bots" / "mine" / "bot.toml").write_text('name = "mine"\ncommand = ["./bot"]\n')
    bot = resolve_bot("random")
    assert bot.folder.is_relative_to(tmp_path / "cache" / "mandala-arena")
    assert bot.folder.name == "random" and bot.folder.parent.name.startswith("bots-")
    assert source_files(bot.folder) == source_files(BOTS / "random")
    assert resolve_bot("random").folder == bot.folder  # made once, then reused
    assert sorted(p.name for p in bot.folder.parent.iterdir()) == ["random"]
    with pytest.raises(BotManifestError, match="nor a bundled bot"):
        resolve_bot("no-such-bot")
    assert bundled.bundled_bot("../random") is None


def test_a_cache_that_cannot_be_written_is_named(
    here: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (here / "a-file").write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(here / "a-file"))
    with pytest.raises(BotManifestError, match="set XDG_CACHE_HOME to a folder you can write"):
        resolve_bot("random")


def test_a_copy_of_a_bot_leaves_its_build_outputs_behind(tmp_path: Path) -> None:
    built = tmp_path / "built"
    shutil.copytree(BOTS / "starter-c", built)
    (built / "bot").write_bytes(b"\x7fELF" + bytes(60))  # what `cc -o bot` leaves
    (built / "bot").chmod(0o755)
    for left in ("node_modules/x/index.js", "__pycache__/bot.cpython-311.pyc", "logs/a.log"):
        (built / left).parent.mkdir(parents=True, exist_ok=True)
        (built / left).write_text("x")
    (built / "run.sh").write_text("#!/bin/sh\n")
    (built / "run.sh").chmod(0o755)
    copy_bot(built, tmp_path / "copy")
    assert source_files(tmp_path / "copy") == ["bot.c", "bot.toml", "run.sh"]
    assert sorted(p.name for p in (tmp_path / "copy").iterdir()) == ["bot.c", "bot.toml", "run.sh"]
    assert (tmp_path / "copy" / "run.sh").stat().st_mode & 0o111  # still executable


def test_a_bot_made_from_a_starter_kept_out_of_the_field_joins_its_own(here: Path) -> None:
    """starter-python says `default = false` (a starter to copy); the bot made from it must
    not inherit that, or `arena run` in its folder silently leaves it out."""
    assert not load_manifest(BOTS / "starter-python").default
    code, said = _new("python", "bots/mine")
    assert code == 0, said
    made = load_manifest(here / "bots" / "mine")
    assert made.default and made.name == "mine"
    assert "default" not in (here / "bots" / "mine" / "bot.toml").read_text()
    assert "mine" in [bot.name for bot in discover_bots(here / "bots") if bot.default]


def test_copies_of_other_bundled_sources_unused_for_30_days_are_pruned(
    here: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cache kept a `bots-<digest>` folder (with its builds) for every release and every
    edit of a checkout's bots, for ever; now one unused for PRUNE_DAYS goes, as do staging
    folders a crash left a day old. Anything else there, and links, are left alone."""
    monkeypatch.setattr(bundled, "_prune_once", functools.cache(bundled._prune_once.__wrapped__))
    cache = tmp_path / "cache" / "mandala-arena"
    day, now = 86400, time.time()
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep").write_text("")

    def made(path: Path, days_ago: float, link: Path | None = None) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        if link is None:
            path.mkdir()
            (path / "bot.toml").write_text("")
        else:
            path.symlink_to(link)
        os.utime(path, (now - days_ago * day,) * 2, follow_symlinks=False)
        return path

    stale = made(cache / "bots-00000000000000aa", bundled.PRUNE_DAYS + 1)
    recent = made(cache / "bots-00000000000000bb", bundled.PRUNE_DAYS - 1)
    linked = made(cache / "bots-00000000000000cc", 400, link=outside)
    other = made(cache / "notes", 400)
    crashed = made(cache / ".staging" / "random-x1", 2)
    staging = made(cache / ".staging" / "random-x2", 0)
    current = bundled.working_folder()
    assert not stale.exists() and not crashed.exists()
    assert recent.is_dir() and other.is_dir() and staging.is_dir()
    assert linked.is_symlink() and (outside / "keep").exists()
    made(current, 400)  # the current one, however old: marked used at each use, never pruned
    assert resolve_bot("random").folder.parent == current
    assert time.time() - current.stat().st_mtime < day
