"""Bot manifests: loading bot.toml, discovering a folder of bots, building once."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from arena.errors import BotBuildError, BotManifestError
from arena.players.build import build_bot
from arena.players.manifest import (
    discover_bots,
    game_refusal,
    load_manifest,
    plays,
    resolve_bot,
)

BROKEN_BUILD = Path(__file__).parent / "fakebots" / "broken-build"


def write_bot(root: Path, folder: str, toml: str) -> Path:
    path = root / folder
    path.mkdir(parents=True)
    (path / "bot.toml").write_text(toml)
    return path


def test_a_manifest_with_every_field(tmp_path: Path) -> None:
    folder = write_bot(
        tmp_path,
        "g",
        'name = "greedy"\ndescription = "d"\n'
        'command = ["python3", "bot.py", "--fast"]\nbuild = "make bot"\n'
        'language = "python"\ndefault = false\n[limits]\nmemory_mb = 256\n',
    )
    bot = load_manifest(folder)
    assert bot.name == "greedy" and bot.description == "d" and bot.language == "python"
    assert bot.command == ("python3", "bot.py", "--fast")
    assert bot.argv == [sys.executable, "bot.py", "--fast"]
    assert bot.build == ("make", "bot")
    assert bot.default is False
    assert bot.folder == folder.resolve()
    assert bot.extra == {"limits": {"memory_mb": 256}}
    assert load_manifest(folder / "bot.toml") == bot


def test_a_string_command_is_split_like_a_shell(tmp_path: Path) -> None:
    folder = write_bot(tmp_path, "c", 'name = "c"\ncommand = "./bot --name \'two words\'"\n')
    assert load_manifest(folder).argv == ["./bot", "--name", "two words"]


@pytest.mark.parametrize(
    ("toml", "words"),
    [
        ('command = ["./bot"]\n', "`name` must be a string"),
        ('name = "a b"\ncommand = ["./bot"]\n', "`name` must be a string"),
        ('name = "x"\n', "`command` is missing"),
        ('name = "x"\ncommand = []\n', "`command` is empty"),
        ('name = "x"\ncommand = [1]\n', "`command` must be a list of strings"),
        ('name = "x"\ncommand = ["./bot"]\ndefault = "yes"\n', "`default` must be true or false"),
        ('name = "x\ncommand = 1\n', "is not valid TOML"),
        ('name = "x"\ncommand = ["./bot"]\ngames = "flowers"\n', "`games` must be a list"),
        ('name = "x"\ncommand = ["./bot"]\ngames = []\n', "`games` must be a list"),
        # what no process can be given: these were tracebacks (ValueError from exec), and a
        # league's check of such a version stayed `checking` until the league restarted
        ('name = "x"\ncommand = ["./bot\\u0000"]\n', "`command` holds a NUL character"),
        ('name = "x"\ncommand = ["./bot"]\nbuild = "cc\\u0000"\n', "`build` holds a NUL"),
        ('name = "x"\ncommand = ["./bot"]\n[env]\nX = "a\\u0000"\n', '[env] "X" cannot be set'),
        ('name = "x"\ncommand = ["./bot"]\n[env]\n"A=B" = "x"\n', '[env] "A=B" cannot be set'),
        ('name = "x"\ncommand = ["./bot"]\n[env]\n"" = "x"\n', '[env] "" cannot be set'),
    ],
)
def test_a_wrong_manifest_says_what_to_fix(tmp_path: Path, toml: str, words: str) -> None:
    folder = write_bot(tmp_path, "x", toml)
    with pytest.raises(BotManifestError, match=words.replace("[", r"\[")):
        load_manifest(folder)


def test_a_folder_without_manifest(tmp_path: Path) -> None:
    with pytest.raises(BotManifestError, match="has no bot.toml"):
        load_manifest(tmp_path)


def test_discover_sorts_by_name_and_refuses_twins(tmp_path: Path) -> None:
    write_bot(tmp_path, "z", 'name = "alpha"\ncommand = ["./a"]\n')
    write_bot(tmp_path, "a", 'name = "beta"\ncommand = ["./b"]\n')
    (tmp_path / "README.md").write_text("not a bot")
    (tmp_path / "notes").mkdir()
    assert [bot.name for bot in discover_bots(tmp_path)] == ["alpha", "beta"]
    write_bot(tmp_path, "m", 'name = "alpha"\ncommand = ["./c"]\n')
    with pytest.raises(BotManifestError, match="Two bots are named 'alpha'"):
        discover_bots(tmp_path)


def test_resolve_a_bot_by_folder_or_by_name(tmp_path: Path) -> None:
    folder = write_bot(tmp_path, "folder-name", 'name = "nick"\ncommand = ["./a"]\n')
    assert resolve_bot(str(folder)).name == "nick"
    assert resolve_bot("nick", tmp_path).name == "nick"
    assert resolve_bot("folder-name", tmp_path).name == "nick"
    with pytest.raises(BotManifestError, match=r"No bot 'ghost'.*\(known: nick\)"):
        resolve_bot("ghost", tmp_path)


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler")
def test_a_failing_build_names_the_bot_and_shows_the_compiler(tmp_path: Path) -> None:
    folder = tmp_path / "broken-build"
    shutil.copytree(BROKEN_BUILD, folder)
    with pytest.raises(BotBuildError) as raised:
        build_bot(load_manifest(folder))
    text = str(raised.value)
    assert text.startswith("Bot 'broken-build' failed to build: `cc -o bot bot.c` exited")
    assert "error" in text and "syntax" in text


def test_a_build_runs_once(tmp_path: Path) -> None:
    folder = write_bot(
        tmp_path,
        "b",
        'name = "b"\ncommand = ["./a"]\nbuild = ["sh", "-c", "echo built >> count.txt"]\n',
    )
    bot = load_manifest(folder)
    build_bot(bot)
    build_bot(bot)
    assert (folder / "count.txt").read_text() == "built\n"
    with pytest.raises(BotBuildError, match="the program 'no-such-compiler'"):
        build_bot(
            load_manifest(
                write_bot(
                    tmp_path, "n", 'name = "n"\ncommand = ["./a"]\nbuild = ["no-such-compiler"]\n'
                )
            )
        )


def test_a_build_program_that_cannot_run_is_one_sentence(tmp_path: Path) -> None:
    folder = write_bot(tmp_path, "s", 'name = "s"\ncommand = ["./a"]\nbuild = ["./build.sh"]\n')
    (folder / "build.sh").write_text("#!/bin/sh\necho built\n")  # not executable
    with pytest.raises(BotBuildError, match=r"`./build.sh` could not be run .*Permission denied"):
        build_bot(load_manifest(folder))


def test_games_says_which_games_a_bot_is_written_for(tmp_path: Path) -> None:
    """Issue 11: `games` keeps a bot out of other games' default fields; named for one, it
    is refused in one sentence (issue 34: a bot plays the games its bot.toml lists)."""
    only = load_manifest(
        write_bot(tmp_path, "f", 'name = "f"\ncommand = ["./bot"]\ngames = ["flowers"]\n')
    )
    every = load_manifest(write_bot(tmp_path, "e", 'name = "e"\ncommand = ["./bot"]\n'))
    assert only.games == ("flowers",) and every.games is None
    assert plays(only, "flowers") and not plays(only, "mandala") and plays(every, "mandala")
    assert game_refusal(only, "mandala") == (
        "f's bot.toml says it plays flowers, not mandala: if it plays mandala too, say so with "
        'games = ["flowers", "mandala"].'
    )


def test_discover_refuses_twins_that_differ_only_in_case(tmp_path: Path) -> None:
    """One name rule everywhere (arena/names.py): `Alpha` and `alpha` are one name, in a
    tournament's field as in a league."""
    write_bot(tmp_path, "one", 'name = "alpha"\ncommand = ["./a"]\n')
    write_bot(tmp_path, "two", 'name = "ALPHA"\ncommand = ["./b"]\n')
    with pytest.raises(BotManifestError, match="Two bots are named 'ALPHA'.*whatever the case"):
        discover_bots(tmp_path)
