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
from collections.abc import Iterable, Iterator, Sequence
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


EXPORT_BATCH = 10_000
"""Games read from the store at a time by an export."""


def stored(league: League) -> Iterator[GameLine]:
    """Every game the league stored, in the order stored, read EXPORT_BATCH at a time (each
    batch under the league's lock: a playing league stores between them)."""
    last = 0
    while True:
        with league.lock:
            batch = league.store.games_after(last, EXPORT_BATCH)
        if not batch:
            return
        for _, line in batch:
            yield line
        last = batch[-1][0]


def export(league: League, destination: Path) -> int:
    """Write the league's games as a run folder (`config.json`, `games.jsonl`, `records/`)
    that `arena leaderboard` and `arena report` read, reading them from the store a batch
    at a time; the number of games written."""
    with league.lock:
        bots = league.store.bots()
        total = league.store.game_count()
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
    written = 0
    for line in write_run(league, destination, stored(league), total, entries, limits, command):
        written += 1
        record = league.folder / "records" / f"{line.game_id}.json.gz"
        if record.is_file():
            shutil.copyfile(record, destination / "records" / record.name)
    return written


def write_run(
    league: League,
    destination: Path,
    games: Iterable[GameLine],
    total: int,
    entries: Iterable[BotEntry],
    limits: dict[str, Any],
    command: tuple[str, ...],
) -> Iterator[GameLine]:
    """`config.json` and `games.jsonl` of `games` (`total` of them) in `destination`
    (made, with its `records/`), the run's bots `entries`: each game given back once it is
    written (a generator: run it to the end)."""
    (destination / "records").mkdir(parents=True, exist_ok=True)
    config = TournamentConfig(
        bots=tuple(entries),
        rounds=1,
        seed=0,
        limits=limits,
        total_games=total,
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
            yield line


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
    for _ in write_run(league, run, chosen, len(chosen), entries, limits, command):
        pass
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
