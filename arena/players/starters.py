"""A bot author's working folder made from a bundled starter (`arena new LANG FOLDER`).

The starters are the bundled bots whose folders are named `starter-<language>`
(players/bundled.py); none is listed here, so a starter added to bots/ is offered at once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from arena.errors import BotManifestError
from arena.names import name_problem
from arena.players.bot_files import copy_bot, source_files
from arena.players.bundled import STARTER_PREFIX, starters
from arena.players.manifest import MANIFEST, BotManifest, load_manifest

_NAME_LINE = re.compile(r"^name\s*=.*$", re.MULTILINE)
"""The `name = ...` line of a starter's bot.toml (its first: top-level keys come first)."""

_NOT_DEFAULT_LINE = re.compile(r"^default\s*=\s*false\b.*\n?", re.MULTILINE)
"""A starter's `default = false` line: it keeps the starter itself out of the default field,
never the bot made from it (which `arena run` in its bots/ folder should play)."""


@dataclass(frozen=True)
class Starter:
    """A bundled starter: the word `arena new` takes, and its bot as installed."""

    word: str
    """Its folder's name without `starter-` (`c`, `js`)."""
    bot: BotManifest


def bundled_starters() -> list[Starter]:
    """Every bundled starter, sorted by its word."""
    return [Starter(word, load_manifest(folder)) for word, folder in starters().items()]


def find_starter(language: str) -> Starter:
    """The starter for `language`: by its folder's word, else by its bot.toml's `language`
    (`javascript` finds `starter-js`), whatever the case; BotManifestError naming the
    languages there are when none."""
    known = bundled_starters()
    wanted = language.casefold()
    for starter in known:
        if starter.word.casefold() == wanted:
            return starter
    for starter in known:
        if (starter.bot.language or "").casefold() == wanted:
            return starter
    words = ", ".join(starter.word for starter in known) or "none"
    raise BotManifestError(f"No starter for {language!r}; the starters are: {words}.")


def new_bot(language: str, folder: Path) -> tuple[Starter, BotManifest]:
    """Copy the starter for `language` into `folder` (new, or an empty folder) as a bot
    named after the folder; the starter and the new bot's manifest."""
    folder = Path(folder)
    name = folder.resolve().name
    problem = name_problem(name, f"The folder's name ({name!r}) is the bot's name: it")
    if problem:
        raise BotManifestError(f"{problem} Choose another folder.")
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise BotManifestError(f"{folder} already exists; give a new folder for the bot.")
    starter = find_starter(language)
    try:
        copy_bot(starter.bot.folder, folder)
        toml = folder / MANIFEST
        text = toml.read_text(encoding="utf-8")
        text = _NOT_DEFAULT_LINE.sub("", _NAME_LINE.sub(f'name = "{name}"', text, count=1))
        toml.write_text(text, encoding="utf-8")
        _rename_in_sources(folder, starter.bot.name, name)
    except OSError as error:
        raise BotManifestError(
            f"{folder} cannot be written ({error.strerror or error}); choose a folder you can "
            "write."
        ) from None
    made = load_manifest(folder)
    if made.name != name:
        raise BotManifestError(
            f"The {STARTER_PREFIX}{starter.word} starter's {MANIFEST} has no `name = ...` line "
            f"to rename; set name = {name!r} in {toml} yourself."
        )
    return starter, made


def _rename_in_sources(folder: Path, old: str, new: str) -> None:
    """The starter's name as a string in its sources (`NAME = "starter-c"`, what its `hello`
    says) made the new bot's: every starter writes it in double quotes, and a name has no
    character a string literal would take for another (arena/names.py)."""
    quoted, renamed = f'"{old}"', f'"{new}"'
    for relative in source_files(folder):
        path = folder / relative
        if relative == MANIFEST or path.suffix == ".toml":  # bot.toml renamed, Cargo's kept
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:  # not a source file
            continue
        if quoted in text:
            path.write_text(text.replace(quoted, renamed), encoding="utf-8")
