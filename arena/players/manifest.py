"""Bot manifests (`bot.toml`): loading one, discovering a folder of bots, finding one by name.

Step 1 of the one path from a bot folder to a playing process (ready.py); the build is
build.py's."""

from __future__ import annotations

import json
import shlex
import sys
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.errors import BotManifestError
from arena.names import is_name, name_key, name_problem
from arena.players.bot_files import MANIFEST as MANIFEST
from arena.players.bundled import bundled_bot, bundled_bots
from arena.players.languages import known_names, language_named
from arena.players.limits import manifest_limits

_PYTHONS = ("python3", "python")


@dataclass(frozen=True)
class BotManifest:
    """A bot as declared by its `bot.toml`."""

    name: str
    """Unique across the field; used in records, tables and log file names."""
    folder: Path
    """The bot's folder (absolute); its working directory while it plays."""
    command: tuple[str, ...]
    """The argv that starts the bot, as written (see `argv` for what is run)."""
    build: tuple[str, ...] | None = None
    """The argv run once in the folder before play, or None."""
    description: str = ""
    language: str | None = None
    default: bool = True
    """False keeps the bot out of the default field of a tournament."""
    games: tuple[str, ...] | None = None
    """The games the bot is written for (`games = ["flowers"]`); None: every game. A
    tournament's default field holds only the bots written for its game."""
    env: dict[str, str] = field(default_factory=dict, compare=False)
    """The `[env]` table: variables set for the bot (and its build) besides the basics."""
    extra: dict[str, Any] = field(default_factory=dict, compare=False)
    """Every other key of bot.toml (e.g. the [limits] table of the sandbox)."""

    @property
    def argv(self) -> list[str]:
        """The command to run: argv[0] python3/python is the arena's own interpreter."""
        return _resolve_python(self.command)

    @property
    def build_argv(self) -> list[str]:
        """The build command to run (as `argv`); empty when the bot has none."""
        return [] if self.build is None else _resolve_python(self.build)

    @property
    def manifest_path(self) -> Path:
        return self.folder / MANIFEST


def _resolve_python(argv: tuple[str, ...]) -> list[str]:
    if argv and argv[0] in _PYTHONS:
        return [sys.executable, *argv[1:]]
    return list(argv)


def _argv(value: Any, key: str, path: Path) -> tuple[str, ...]:
    if isinstance(value, str):
        try:
            parts = shlex.split(value)
        except ValueError as error:
            raise BotManifestError(
                f"{path}: `{key}` cannot be split into words ({error})."
            ) from None
    elif isinstance(value, list) and all(isinstance(part, str) for part in value):
        parts = list(value)
    else:
        raise BotManifestError(
            f'{path}: `{key}` must be a list of strings such as ["python3", "bot.py"] or a string.'
        )
    if not parts:
        raise BotManifestError(f"{path}: `{key}` is empty; give the program to run.")
    if any("\0" in part for part in parts):  # no program can be given one
        raise BotManifestError(f"{path}: `{key}` holds a NUL character; remove it.")
    return tuple(parts)


MAX_MANIFEST_BYTES = 64 << 10
"""The largest bot.toml read (it holds a few settings; tomllib takes ~1 ms a kB)."""
MAX_MANIFEST_DEPTH = 32
"""The deepest nesting of arrays and inline tables read (tomllib parses them by recursion)."""


def _read_toml(toml_path: Path) -> dict[str, Any]:
    """The table of `toml_path`, read with caps before tomllib sees it: its size and its
    nesting; BotManifestError when over them, unreadable or not TOML (never RecursionError)."""
    try:
        with toml_path.open("rb") as file:
            raw = file.read(MAX_MANIFEST_BYTES + 1)
    except OSError as error:
        raise BotManifestError(f"{toml_path} cannot be read ({error.strerror or error}).") from None
    if len(raw) > MAX_MANIFEST_BYTES:
        raise BotManifestError(
            f"{toml_path} is larger than {MAX_MANIFEST_BYTES >> 10} KiB; a {MANIFEST} holds a "
            "few settings (keep data in other files)."
        )
    too_deep = (
        f"{toml_path} nests arrays or tables more than {MAX_MANIFEST_DEPTH} deep; a "
        f"{MANIFEST} holds a few settings."
    )
    try:
        text = raw.decode("utf-8")
        if _toml_depth(text) > MAX_MANIFEST_DEPTH:
            raise BotManifestError(too_deep)
        return tomllib.loads(text)
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise BotManifestError(f"{toml_path} is not valid TOML: {error}.") from None
    except RecursionError:  # a nesting the quick count missed
        raise BotManifestError(too_deep) from None


def _toml_depth(text: str) -> int:
    """The deepest nesting of `[` and `{` in TOML `text`, outside strings and comments (a
    quick count in one pass, without recursion)."""
    depth = deepest = at = 0
    while at < len(text):
        char = text[at]
        if char == "#":
            at = text.find("\n", at)
            if at < 0:
                break
        elif char in "\"'":
            quote = char * 3 if text.startswith(char * 3, at) else char
            at += len(quote)
            while at < len(text) and not text.startswith(quote, at):
                if len(quote) == 1 and text[at] == "\n":
                    break  # an unclosed one-line string: tomllib says so
                at += 2 if char == '"' and text[at] == "\\" else 1
            at += len(quote) - 1
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth = max(0, depth - 1)
        at += 1
    return deepest


def load_manifest(path: Path) -> BotManifest:
    """The manifest of a bot folder (or of a bot.toml path); BotManifestError when wrong."""
    path = Path(path)
    toml_path = path if path.name == MANIFEST and path.is_file() else path / MANIFEST
    if not toml_path.is_file():
        raise BotManifestError(
            f"{path} has no {MANIFEST}; a bot folder needs one (see bots/README.md)."
        )
    data = _read_toml(toml_path)
    name = data.pop("name", None)
    problem = name_problem(name, "`name`")  # the one rule of arena/names.py
    if problem is not None or not isinstance(name, str):
        raise BotManifestError(f"{toml_path}: {problem}")
    language = data.pop("language", None)
    if language is not None and not isinstance(language, str):
        raise BotManifestError(f"{toml_path}: `language` must be a string.")
    command, build = _commands(data, language, toml_path)
    description = data.pop("description", "")
    default = data.pop("default", True)
    if not isinstance(description, str):
        raise BotManifestError(f"{toml_path}: `description` must be a string.")
    if not isinstance(default, bool):
        raise BotManifestError(f"{toml_path}: `default` must be true or false.")
    games = data.pop("games", None)
    if games is not None and not (
        isinstance(games, list) and games and all(isinstance(g, str) for g in games)
    ):
        raise BotManifestError(
            f'{toml_path}: `games` must be a list of game names such as ["flowers"].'
        )
    manifest_limits(data.get("limits"), toml_path)  # checked now, applied at launch
    env = data.pop("env", {})
    if not isinstance(env, dict) or not all(
        isinstance(key, str) and isinstance(value, str) for key, value in env.items()
    ):
        raise BotManifestError(
            f'{toml_path}: `env` must be a table of strings such as [env] JAVA_OPTS = "-Xmx256m".'
        )
    for key, value in env.items():  # what no process environment can hold
        if not key or "=" in key or "\0" in key or "\0" in value:
            raise BotManifestError(
                f"{toml_path}: [env] {json.dumps(key)} cannot be set: a variable's name must be "
                "non-empty without `=`, and neither it nor its value may hold a NUL character."
            )
    return BotManifest(
        name=name,
        folder=toml_path.parent.resolve(),
        command=command,
        build=build,
        description=description,
        language=language,
        default=default,
        games=None if games is None else tuple(games),
        env=env,
        extra=data,
    )


def _commands(
    data: dict[str, Any], language: str | None, toml_path: Path
) -> tuple[tuple[str, ...], tuple[str, ...] | None]:
    """The bot's (command, build): as bot.toml gives them, else its language's defaults
    (languages.py). The default build applies when bot.toml gives no `build` and runs the
    language's default command (or gives none)."""
    known = None if language is None else language_named(language)
    if "command" not in data and known is None:
        if language is not None:
            raise BotManifestError(
                f"{toml_path}: `command` is missing and the language {language!r} has no "
                f'default (known: {known_names()}); give one, e.g. command = ["./bot"].'
            )
        raise BotManifestError(f'{toml_path}: `command` is missing; e.g. command = ["./bot"].')
    if "command" in data:
        command = _argv(data.pop("command"), "command", toml_path)
    else:
        assert known is not None
        command = known.command
    if "build" in data:
        return command, _argv(data.pop("build"), "build", toml_path)
    if known is not None and command == known.command:
        return command, known.build
    return command, None


def plays(bot: BotManifest, game: str) -> bool:
    """True when `bot` is written for `game` (its manifest names no games, or this one)."""
    return bot.games is None or written_for(bot, game)


def written_for(bot: BotManifest, game: str) -> bool:
    """True when the bot's `games` names `game`: as it is, without its parameters
    (`openspiel:liars_dice` for `openspiel:liars_dice(numdice=2)`), or by its family
    (`openspiel` for every OpenSpiel game). A bot naming no games is written for none: a
    league admits only bots that say they play its game."""
    names = {game, game.partition("(")[0], game.partition(":")[0]}
    return bot.games is not None and not names.isdisjoint(bot.games)


FAMILY = "openspiel"
"""A name in `games` that stands for every OpenSpiel game (`written_for`), not one game."""


def common_games(bots: Sequence[BotManifest]) -> list[str] | None:
    """The games every one of `bots` that lists games is written for, in the order their
    bot.toml files first name them (a family such as `openspiel` is no one game, so it is
    left out); None when none of them lists any games."""
    listing = [bot for bot in bots if bot.games is not None]
    if not listing:
        return None
    named = dict.fromkeys(game for bot in listing for game in bot.games or () if game != FAMILY)
    return [game for game in named if all(written_for(bot, game) for bot in listing)]


def game_refusal(bot: BotManifest, game: str) -> str:
    """The sentence refusing `bot` at `game` it is not written for (`written_for`)."""
    wanted = json.dumps([*(bot.games or ()), game])
    if bot.games is None:
        return f"{bot.name}'s {MANIFEST} does not say it plays {game}: add games = {wanted} to it."
    return (
        f"{bot.name}'s {MANIFEST} says it plays {', '.join(bot.games)}, not {game}: if it plays "
        f"{game} too, say so with games = {wanted}."
    )


def discover_bots(directory: Path) -> list[BotManifest]:
    """Every bot in the subfolders of `directory` that have a bot.toml, sorted by name."""
    directory = Path(directory)
    if not directory.is_dir():
        raise BotManifestError(f"{directory} is not a folder of bots.")
    bots = [load_manifest(sub) for sub in sorted(directory.iterdir()) if (sub / MANIFEST).is_file()]
    seen: dict[str, BotManifest] = {}  # by name_key: `Greedy` and `greedy` are one name
    for bot in bots:
        twin = seen.get(name_key(bot.name))
        if twin is not None:
            raise BotManifestError(
                f"Two bots are named {bot.name!r} ({twin.folder} and {bot.folder}), whatever "
                "the case; give one of them another `name` in its bot.toml."
            )
        seen[name_key(bot.name)] = bot
    return sorted(bots, key=lambda bot: bot.name)


def default_bots_dir() -> Path:
    """`bots/` in the current folder if there is one, else a working copy of the bundled
    bots (players/bundled.py)."""
    here = Path("bots")
    if here.is_dir():
        return here
    return bundled_bots()


def resolve_bot(spec: str, bots_dir: Path | None = None) -> BotManifest:
    """A bot given as a folder path, as the name of a bot in `bots_dir` (default: bots/ here,
    else the bundled bots), or as the name of a bundled bot."""
    path = Path(spec)
    if (path / MANIFEST).is_file() or (path.name == MANIFEST and path.is_file()):
        return load_manifest(path)
    directory = bots_dir or default_bots_dir()
    if (directory / spec / MANIFEST).is_file():
        return load_manifest(directory / spec)
    known = discover_bots(directory) if directory.is_dir() else []
    for bot in known:
        if bot.name == spec:
            return bot
    bundled = bundled_bot(spec) if is_name(spec) else None
    if bundled is not None:
        return load_manifest(bundled)
    names = ", ".join(bot.name for bot in known) or "none"
    raise BotManifestError(
        f"No bot {spec!r}: it is neither a folder with a {MANIFEST} nor a bot in {directory} "
        f"(known: {names}) nor a bundled bot."
    )
