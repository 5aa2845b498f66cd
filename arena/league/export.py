"""`arena serve --export DIR`: a league's games as a run folder (`config.json`, `games.jsonl`,
`records/`) that `arena leaderboard` and `arena report` read."""

from __future__ import annotations

import dataclasses
import json
import shutil
from datetime import UTC, datetime
from pathlib import Path

from arena.errors import ArenaError
from arena.league.league import League
from arena.league.store import StoreError
from arena.results.log import LOG_NAME, GamesLog
from arena.results.report import CONFIG_NAME, write_atomic
from arena.run_config import BotEntry, TournamentConfig


def export(league: League, destination: Path) -> int:
    """Write the league's games as a run folder (`config.json`, `games.jsonl`, `records/`)
    that `arena leaderboard` and `arena report` read; the number of games written."""
    with league.lock:
        bots = league.store.bots()
        games = list(league.played)
    if (destination / LOG_NAME).exists():
        raise StoreError(f"{destination} holds a games log already; export to a new folder.")
    (destination / "records").mkdir(parents=True, exist_ok=True)
    entries = []
    for bot in bots:
        try:
            entries.append(BotEntry.of(league.manifest(bot), league.limits.bot_size_mb))
        except ArenaError:
            continue  # a version whose folder is gone: its games still count
    config = TournamentConfig(
        bots=tuple(entries),
        rounds=1,
        seed=0,
        limits=dataclasses.asdict(league.limits),
        total_games=len(games),
        game=league.game,
        game_config=league.game_options,
        seats=league.seats,
        created=datetime.now(UTC).isoformat(timespec="seconds"),
        command_line=("arena", "serve", "--export", str(destination)),
    )
    write_atomic(destination / CONFIG_NAME, json.dumps(config.to_json(), indent=2) + "\n")
    with GamesLog(destination / LOG_NAME) as log_file:
        for line in games:
            log_file.append(line)
            record = league.folder / "records" / f"{line.game_id}.json.gz"
            if record.is_file():
                shutil.copyfile(record, destination / "records" / record.name)
    return len(games)
