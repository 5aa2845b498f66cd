"""A tournament's configuration, `config.json`: one typed value, written once, read on resume.

Everything a run's schedule and games depend on is here, and nothing else decides them: the
field (with a hash of each bot's files), the game and its options, the table size and
seatings, rounds, seed and limits; also the versions and the sandbox report, for the record.
"""

from __future__ import annotations

import platform
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

from arena import __version__
from arena.bounded import MAX_COUNT, MAX_SEATS, number, whole
from arena.errors import TournamentError
from arena.games import DEFAULT_GAME
from arena.players.manifest import BotManifest
from arena.players.ready import fingerprint

CONFIG_VERSION = 2
"""2: tables of k seats (seats, all_seatings, tables_per_round). Version 1 files (pairs,
called `format`) are read as 2-seat tables."""

PACKAGES = ("click", "pandas", "matplotlib", "trueskill", "multiprocessing-logging")


MAX_BOTS = 10_000
"""The most bots a configuration may name."""


def _object(value: Any, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ValueError(f"{what} must be an object")
    return value


def _name(value: Any, what: str) -> str:
    if not isinstance(value, str) or not 0 < len(value) <= 4096:
        raise ValueError(f"{what} must be a non-empty text")
    return value


def _words(value: Any, what: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(word, str) for word in value):
        raise ValueError(f"{what} must be a list of words")
    return tuple(value)


def versions() -> dict[str, Any]:
    """Python, the arena and the packages it uses, for the record of a run."""
    packages: dict[str, str | None] = {}
    for name in PACKAGES:
        try:
            packages[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            packages[name] = None
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "arena": __version__,
        "platform": platform.platform(),
        "packages": packages,
    }


@dataclass(frozen=True)
class BotEntry:
    """A bot of the field as it was when the run started."""

    name: str
    folder: str
    command: tuple[str, ...]
    build: tuple[str, ...] | None
    language: str | None
    hash: str
    """The fingerprint of its folder (ready.py): resume warns when the files have changed since."""

    @classmethod
    def of(cls, bot: BotManifest, cap_mb: int) -> BotEntry:
        """The entry of `bot`, whose files may total `cap_mb` MiB (Limits.bot_size_mb)."""
        return cls(
            name=bot.name,
            folder=str(bot.folder),
            command=tuple(bot.command),
            build=None if bot.build is None else tuple(bot.build),
            language=bot.language,
            hash=fingerprint(bot.folder, cap_mb),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "folder": self.folder,
            "command": list(self.command),
            "build": None if self.build is None else list(self.build),
            "language": self.language,
            "hash": self.hash,
        }

    @classmethod
    def from_json(cls, data: Any) -> BotEntry:
        """An entry of config.json; ValueError or KeyError when it is not one."""
        if not isinstance(data, dict):
            raise ValueError("each bot must be an object")
        build = data.get("build")
        language = data.get("language")
        return cls(
            name=_name(data["name"], "a bot's name"),
            folder=_name(data["folder"], "a bot's folder"),
            command=_words(data.get("command") or [], "command"),
            build=None if build is None else _words(build, "build"),
            language=None if language is None else _name(language, "language"),
            hash=str(data.get("hash", "")),
        )


@dataclass(frozen=True)
class TournamentConfig:
    """The configuration of one tournament (config.json)."""

    bots: tuple[BotEntry, ...]
    """The field, sorted by name."""
    rounds: int
    seed: int
    limits: Mapping[str, Any]
    """`Limits` as JSON (players/limits.py: limits_from_json reads it back)."""
    total_games: int
    game: str = DEFAULT_GAME
    game_config: Mapping[str, Any] = field(default_factory=dict)
    """The game's options given (the game's defaults fill in the rest)."""
    seats: int = 2
    all_seatings: bool = False
    tables_per_round: int | None = None
    gauntlet: str | None = None
    """The candidate of a gauntlet: only its tables are played."""
    until_decided: tuple[float, float] | None = None
    """(elo0, elo1) in nElo: each pairing stops once its SPRT decides (alpha = beta = 5%)."""
    created: str = ""
    """When the run started (ISO 8601, UTC)."""
    command_line: tuple[str, ...] = ()
    versions: Mapping[str, Any] = field(default_factory=dict)
    sandbox: Mapping[str, Any] = field(default_factory=dict)
    """What isolation the bots got on the machine that started the run."""
    version: int = CONFIG_VERSION

    @property
    def names(self) -> list[str]:
        return [bot.name for bot in self.bots]

    @property
    def move_ms(self) -> int:
        return int(self.limits.get("move_ms", 1000))

    def to_json(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "game": self.game,
            "game_config": dict(self.game_config),
            "seats": self.seats,
            "all_seatings": self.all_seatings,
            "tables_per_round": self.tables_per_round,
            "gauntlet": self.gauntlet,
            "until_decided": None if self.until_decided is None else list(self.until_decided),
            "rounds": self.rounds,
            "seed": self.seed,
            "bots": [bot.to_json() for bot in self.bots],
            "limits": dict(self.limits),
            "total_games": self.total_games,
            "created": self.created,
            "command_line": list(self.command_line),
            "versions": dict(self.versions),
            "sandbox": dict(self.sandbox),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any], where: Path | str) -> TournamentConfig:
        """The configuration saved in `where`; TournamentError with one sentence if unreadable."""
        version = data.get("version", data.get("format"))
        if version not in (1, CONFIG_VERSION):
            raise TournamentError(
                f"{where} has configuration version {version!r}; this arena reads versions 1 "
                f"and {CONFIG_VERSION}: resume it with the arena that started it."
            )
        try:
            bots = data["bots"]
            if not isinstance(bots, list) or not 2 <= len(bots) <= MAX_BOTS:
                raise ValueError(f"bots must be a list of 2 to {MAX_BOTS:,} bots")
            until = data.get("until_decided")
            if until is not None and (not isinstance(until, list) or len(until) != 2):
                raise ValueError("until_decided must be two numbers")
            tables = data.get("tables_per_round")
            gauntlet = data.get("gauntlet")
            return cls(
                bots=tuple(BotEntry.from_json(bot) for bot in bots),
                rounds=whole(data["rounds"], 1, MAX_COUNT, "rounds"),
                seed=whole(data["seed"], 0, 2**64 - 1, "seed"),
                limits=_object(data["limits"], "limits"),
                total_games=whole(data["total_games"], 0, MAX_COUNT, "total_games"),
                game=_name(data.get("game", DEFAULT_GAME), "game"),
                game_config=_object(data.get("game_config") or {}, "game_config"),
                seats=whole(data.get("seats", 2), 1, MAX_SEATS, "seats"),
                all_seatings=bool(data.get("all_seatings", False)),
                tables_per_round=None if tables is None else whole(tables, 1, MAX_COUNT, "tables"),
                gauntlet=None if gauntlet is None else _name(gauntlet, "gauntlet"),
                until_decided=(
                    None
                    if until is None
                    else (number(until[0], 1e4, "elo0"), number(until[1], 1e4, "elo1"))
                ),
                created=str(data.get("created", "")),
                command_line=tuple(str(word) for word in data.get("command_line") or ()),
                versions=_object(data.get("versions") or {}, "versions"),
                sandbox=_object(data.get("sandbox") or {}, "sandbox"),
            )
        except KeyError as error:
            raise TournamentError(
                f"{where} is damaged (it has no {error}); start a new run with --out."
            ) from None
        except (TypeError, ValueError) as error:
            raise TournamentError(
                f"{where} is damaged ({error}); start a new run with --out."
            ) from None

    def differences(self, given: Mapping[str, Any]) -> list[str]:
        """What the options a user gave on resume say against this configuration, one phrase
        each ("--seed 9 (the run has 3)"); options left out (None) agree with anything."""
        saved = {
            "bots": sorted(self.names),
            "rounds": self.rounds,
            "seed": self.seed,
            "move_ms": self.move_ms,
            "seats": self.seats,
            "game": self.game,
            "all_seatings": self.all_seatings or None,
            "tables_per_round": self.tables_per_round,
            "gauntlet": self.gauntlet,
        }
        out = []
        for key, value in given.items():
            if value is None or key not in saved or (key == "all_seatings" and not value):
                continue
            mine = sorted(value) if key == "bots" else value
            if mine != saved[key]:
                out.append(f"{_FLAGS[key]} {_show(mine)} (the run has {_show(saved[key])})")
        return out


_FLAGS = {
    "bots": "the bots",
    "rounds": "--rounds",
    "seed": "--seed",
    "move_ms": "--time-limit",
    "seats": "--seats",
    "game": "--game",
    "all_seatings": "--all-seatings",
    "tables_per_round": "--tables-per-round",
    "gauntlet": "--gauntlet",
}


def _show(value: Any) -> str:
    if value is None:
        return "not set"
    return ", ".join(map(str, value)) if isinstance(value, list) else str(value)
