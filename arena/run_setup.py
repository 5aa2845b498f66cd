"""Step 1 of a tournament: settle its configuration (a new run, or a resumed one checked
against what is asked) and write `config.json`; load the field it names."""

from __future__ import annotations

import dataclasses
import json
import secrets
import sys
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from arena.atomic import write_atomic
from arena.errors import ArenaError, TournamentError
from arena.games import DEFAULT_GAME
from arena.players.limits import limits_from_json
from arena.players.manifest import BotManifest
from arena.players.ready import fingerprint, read
from arena.players.sandbox.facilities import sandbox_report_of
from arena.results.log import LOG_NAME
from arena.run_config import BotEntry, TournamentConfig, versions
from arena.run_folder import CONFIG_NAME, files_held, load_config
from arena.schedule import total_games

__all__ = ["create_run", "load_bots", "record_workers", "resume_run", "sandbox_report_of"]


def create_run(
    run_dir: Path,
    bots: Sequence[BotManifest],
    *,
    rounds: int,
    seed: int | None,
    limits: dict[str, Any],
    game: str = DEFAULT_GAME,
    game_config: dict[str, Any] | None = None,
    seats: int | None = None,
    all_seatings: bool = False,
    tables_per_round: int | None = None,
    gauntlet: str | None = None,
    until_decided: tuple[float, float] | None = None,
) -> TournamentConfig:
    """Start a new run in `run_dir`: check the field, write `config.json`; returns the config.

    `limits` are keyword arguments of `arena.players.limits.Limits`; the defaults of the others are
    filled in, so the snapshot states every limit played under. A seed of None draws one.
    `seats` is the size of every table (default: the game's `default_players`, else its
    `min_players`); the game checks `game_config`.
    """
    _check_new(run_dir, bots, rounds)
    seats, game_config = _check_table(game, game_config or {}, seats, len(bots))
    _check_options([bot.name for bot in bots], seats, gauntlet, tables_per_round, until_decided)
    # Bots must not read the results (other bots' records and logs) nor each other's files.
    played_under = limits_from_json(limits).hiding(run_dir, *(bot.folder for bot in bots))
    full_limits = dataclasses.asdict(played_under)
    ordered = sorted(bots, key=lambda bot: bot.name)
    config = TournamentConfig(
        bots=tuple(BotEntry.of(bot, played_under.bot_size_mb) for bot in ordered),
        rounds=rounds,
        seed=secrets.randbits(32) if seed is None else seed,
        limits=full_limits,
        total_games=total_games(
            len(ordered), rounds, seats, all_seatings, tables_per_round, gauntlet is not None
        ),
        game=game,
        game_config=game_config,
        seats=seats,
        all_seatings=all_seatings,
        tables_per_round=tables_per_round,
        gauntlet=gauntlet,
        until_decided=until_decided,
        created=datetime.now(UTC).isoformat(timespec="seconds"),
        command_line=tuple(sys.argv),
        versions=versions(),
        sandbox=sandbox_report_of(full_limits),
    )
    try:
        run_dir.mkdir(parents=True, exist_ok=True)
        _save(run_dir, config)
    except OSError as error:
        raise TournamentError(
            f"Cannot write the results folder {run_dir}: {error.strerror or error}; "
            "choose another --out."
        ) from None
    return config


def _check_new(run_dir: Path, bots: Sequence[BotManifest], rounds: int) -> None:
    """TournamentError unless `run_dir` is free for a new run of `bots` and `rounds`."""
    if (run_dir / CONFIG_NAME).exists():
        raise TournamentError(
            f"{run_dir} already holds a tournament; add --resume to continue it, "
            "or choose another --out."
        )
    if (run_dir / LOG_NAME).exists():
        raise TournamentError(
            f"{run_dir} holds a games log but no {CONFIG_NAME}; choose another --out."
        )
    held = files_held(run_dir)
    if held is not None:  # `--out .` or `--out ~`: a run's files would land among them
        raise TournamentError(
            f"{run_dir} already holds files ({held}) and no tournament; give --out a new or "
            "empty folder."
        )
    if len(bots) < 2:
        raise TournamentError(f"A tournament needs at least two bots; the field has {len(bots)}.")
    names = [bot.name for bot in bots]
    if len(set(names)) != len(names):
        raise TournamentError(f"Bot names must be unique in a tournament: {names}.")
    if rounds < 1:
        raise TournamentError(f"--rounds must be at least 1, not {rounds}.")


def _check_options(
    names: list[str],
    seats: int,
    gauntlet: str | None,
    tables_per_round: int | None,
    until_decided: tuple[float, float] | None,
) -> None:
    """TournamentError for options that do not fit the field or each other."""
    if gauntlet is not None and gauntlet not in names:
        raise TournamentError(
            f"--gauntlet {gauntlet}: no bot of that name in the field ({', '.join(sorted(names))})."
        )
    if gauntlet is not None and tables_per_round is not None:
        raise TournamentError(
            "--gauntlet plays every table of its candidate: drop --tables-per-round."
        )
    if until_decided is not None and seats != 2:
        raise TournamentError("--until-decided tests pairs of bots: it needs tables of 2 seats.")
    if tables_per_round is not None and tables_per_round < 1:
        raise TournamentError(f"--tables-per-round must be at least 1, not {tables_per_round}.")


def _save(run_dir: Path, config: TournamentConfig) -> None:
    write_atomic(run_dir / CONFIG_NAME, json.dumps(config.to_json(), indent=2) + "\n")


def _check_table(
    game: str, options: dict[str, Any], seats: int | None, field: int
) -> tuple[int, dict[str, Any]]:
    """The seats per table and the game's options, checked by the game; TournamentError if not."""
    from arena.errors import GameError
    from arena.game_sources import get_game, ready_table

    try:
        seats = ready_table(get_game(game), options, seats)
    except GameError as error:
        raise TournamentError(str(error)) from None
    if seats > field:
        raise TournamentError(
            f"A table of {seats} seats needs at least {seats} bots; the field has {field}."
        )
    return seats, dict(options)


def resume_run(run_dir: Path, given: dict[str, Any]) -> tuple[TournamentConfig, list[str]]:
    """The saved configuration of `run_dir`, after checking the options given against it.

    `given` holds only the options the user gave (bots as a list of names, rounds, seed,
    move_ms, seats, game, ...); any that differs from the snapshot is refused in one
    sentence, except more rounds, which extend the run. Returns the configuration and
    warnings (e.g. a bot whose files changed since the run started).
    """
    config = TournamentConfig.from_json(load_config(run_dir), run_dir / CONFIG_NAME)
    rounds = given.get("rounds")
    extend = rounds is not None and rounds > config.rounds
    conflicts = config.differences({**given, "rounds": None if extend else rounds})
    if conflicts:
        raise TournamentError(
            f"Cannot resume {run_dir}: "
            + "; ".join(conflicts)
            + ". Leave these options out to continue as saved, or start a new run with --out."
        )
    warnings = []
    if extend:
        assert rounds is not None
        warnings.append(f"the run is extended from {config.rounds} to {rounds} rounds.")
        config = _extended(run_dir, config, rounds)
    for bot in config.bots:
        folder = Path(bot.folder)
        if not folder.is_dir():
            raise TournamentError(
                f"Cannot resume {run_dir}: bot {bot.name!r} is no longer in {folder}."
            )
        if fingerprint(folder, limits_from_json(config.limits).bot_size_mb) != bot.hash:
            warnings.append(
                f"bot {bot.name!r} has changed since the run started "
                "(its files hash differently); its games mix two versions."
            )
    return config, warnings


def _extended(run_dir: Path, config: TournamentConfig, rounds: int) -> TournamentConfig:
    """`config` with more rounds, saved: the schedule's first rounds stay as they were, so
    the games already played keep their ids and only the new rounds' games are played."""
    total = total_games(
        len(config.bots),
        rounds,
        config.seats,
        config.all_seatings,
        config.tables_per_round,
        config.gauntlet is not None,
    )
    config = dataclasses.replace(config, rounds=rounds, total_games=total)
    _save(run_dir, config)
    return config


def record_workers(run_dir: Path, sandboxes: Mapping[str, Any]) -> str | None:
    """Write what sandbox each worker of a cluster has into the run's config.json, under
    `workers`; a warning when it cannot be written."""
    path = run_dir / CONFIG_NAME
    try:
        config = load_config(run_dir)  # the run's own, just written: checked all the same
        config["workers"] = dict(sandboxes)
        write_atomic(path, json.dumps(config, indent=2) + "\n")
    except (OSError, ArenaError):
        return f"could not write the workers' sandboxes to {path}."
    return None


def load_bots(config: TournamentConfig) -> list[BotManifest]:
    """The field of a configuration, loaded from the bots' folders."""
    bots = []
    for entry in config.bots:
        bot = read(Path(entry.folder))
        if bot.name != entry.name:
            raise TournamentError(
                f"The bot in {entry.folder} is now named {bot.name!r}, "
                f"not {entry.name!r} as when the run started."
            )
        bots.append(bot)
    return bots
