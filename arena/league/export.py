"""A league's games as a run folder (`config.json`, `games.jsonl`, `records/`) that `arena
leaderboard` and `arena report` read: all of them for the admin (`arena serve --export DIR`),
or one bot's latest as a download anyone may take (`GET /api/bots/LABEL/games.zip`).

Both write through `write_run`. A download is public: its records carry no bot's stderr and
its reasons no server path (`public.record`, `public.message`), its configuration names no
folder of the server (each bot's folder is its label, the sandbox's settings are left out),
and it holds at most MAX_DOWNLOAD_GAMES games, written to a temporary file the server
streams and then deletes."""

from __future__ import annotations

import dataclasses
import gzip
import json
import shutil
import zipfile
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from arena.atomic import write_atomic
from arena.errors import ArenaError
from arena.league import public
from arena.league.league import League
from arena.league.store import StoreError
from arena.record import load_record
from arena.results.log import LOG_NAME, GameLine, GamesLog
from arena.run_config import BotEntry, TournamentConfig
from arena.run_folder import CONFIG_NAME

MAX_DOWNLOAD_GAMES = 2000
"""A download holds a bot's latest games, at most this many."""


def export(league: League, destination: Path) -> int:
    """Write the league's games as a run folder (`config.json`, `games.jsonl`, `records/`)
    that `arena leaderboard` and `arena report` read; the number of games written."""
    with league.lock:
        bots = league.store.bots()
        games = list(league.played)
    if (destination / LOG_NAME).exists():
        raise StoreError(f"{destination} holds a games log already; export to a new folder.")
    entries = []
    for bot in bots:
        try:
            entries.append(BotEntry.of(league.manifest(bot), league.limits.bot_size_mb))
        except ArenaError:
            continue  # a version whose folder is gone: its games still count
    limits = dataclasses.asdict(league.limits)
    command = ("arena", "serve", "--export", str(destination))
    write_run(league, destination, games, entries, limits, command)
    for line in games:
        record = league.folder / "records" / f"{line.game_id}.json.gz"
        if record.is_file():
            shutil.copyfile(record, destination / "records" / record.name)
    return len(games)


def write_run(
    league: League,
    destination: Path,
    games: Sequence[GameLine],
    entries: Iterable[BotEntry],
    limits: dict[str, Any],
    command: tuple[str, ...],
) -> None:
    """`config.json` and `games.jsonl` of `games` in `destination` (made, with its
    `records/`), the run's bots `entries`."""
    (destination / "records").mkdir(parents=True, exist_ok=True)
    config = TournamentConfig(
        bots=tuple(entries),
        rounds=1,
        seed=0,
        limits=limits,
        total_games=len(games),
        game=league.game,
        game_config=league.game_options,
        seats=league.seats,
        created=datetime.now(UTC).isoformat(timespec="seconds"),
        command_line=command,
    )
    write_atomic(destination / CONFIG_NAME, json.dumps(config.to_json(), indent=2) + "\n")
    with GamesLog(destination / LOG_NAME, fsync=False) as log_file:
        for line in games:
            log_file.append(line)


def bot_download(league: League, label: str, games: Sequence[GameLine], scratch: Path) -> Path:
    """A .zip of bot `label`'s latest MAX_DOWNLOAD_GAMES `games` (its own, oldest first) as
    a run folder `LABEL-games/` for `arena report`, made in `scratch` (a folder the caller
    deletes); its path. Public: no stderr, no server path."""
    chosen = [
        dataclasses.replace(line, reason=public.message(line.reason, league.folder))
        for line in games[-MAX_DOWNLOAD_GAMES:]
    ]
    names = sorted({name for line in chosen for name in line.players})
    entries = [BotEntry(name, name, (), None, None, "") for name in names]
    limits = dataclasses.asdict(league.limits)
    limits.pop("sandbox", None)  # the server's paths
    run = scratch / f"{label}-games"
    command = ("arena", "serve", "download", f"/api/bots/{label}/games.zip")
    write_run(league, run, chosen, entries, limits, command)
    for line in chosen:
        record = league.folder / "records" / f"{line.game_id}.json.gz"
        try:
            shown = public.record(load_record(record), league.folder)
        except (ArenaError, OSError):
            continue  # a record lost or damaged: its line still counts
        data = json.dumps(shown, separators=(",", ":")).encode()
        (run / "records" / record.name).write_bytes(gzip.compress(data, 6, mtime=0))
    archive = scratch / f"{label}-games.zip"
    with zipfile.ZipFile(archive, "w") as packed:
        for path in sorted(run.rglob("*")):
            if path.is_file():
                stored = path.suffix == ".gz"  # already compressed
                packed.write(
                    path,
                    path.relative_to(scratch).as_posix(),
                    zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED,
                )
    return archive
