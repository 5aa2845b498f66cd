"""One game with a human seat: the bots in their sandbox, the human on the page, the same
referee; its record and replay written like any game's."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from arena import compact_json
from arena.games import DEFAULT_GAME
from arena.html.replay_page import replay_html
from arena.human.desk import Desk
from arena.human.seat import HUMAN, HumanSeat, Narrator, WatchedPlayer
from arena.human.server import SeatServer
from arena.match import seat_labels
from arena.players.limits import Limits
from arena.players.manifest import BotManifest
from arena.players.player import Player
from arena.players.ready import make_ready
from arena.record import start, walk
from arena.referee import GameReport, GameSpec, play_game


@dataclass(frozen=True)
class HumanClock:
    """The human seat's times, in seconds."""

    move_s: float = 600.0
    """The clock of each decision (shown on the page)."""
    open_s: float = 600.0
    """How long the table waits for the page to be opened."""
    gone_s: float = 120.0
    """After the game, an end screen that has not asked for news this long was closed, and
    the command ends (it asks about every second, at least once a minute from a background
    tab: Chrome's slowest timers). During the game only the clock decides: a frozen or
    closed tab may come back with its key until its clock runs out."""
    linger_s: float = 3600.0
    """After the game, the longest the end screen and its replay stay served (an end screen
    forgotten in a tab keeps asking)."""


@dataclass
class HumanTable:
    """Who sits where: a BotManifest for a bot, the name `human:NAME` for the human."""

    seats: Sequence[BotManifest | str]
    game: str = DEFAULT_GAME
    config: Mapping[str, Any] = field(default_factory=dict)
    seed: int = 0
    limits: Limits = field(default_factory=Limits)
    clock: HumanClock = field(default_factory=HumanClock)
    port: int = 0


def human_seat(seats: Sequence[BotManifest | str]) -> int:
    """The seat of the one human (ValueError with a sentence otherwise)."""
    humans = [seat for seat, who in enumerate(seats) if isinstance(who, str)]
    if len(humans) != 1:
        raise ValueError(f"A table seats exactly one human here ({len(humans)} were given).")
    return humans[0]


def _labels(seats: Sequence[BotManifest | str]) -> list[str]:
    manifests = [
        who if isinstance(who, BotManifest) else BotManifest(who, Path.cwd(), (HUMAN,))
        for who in seats
    ]
    return seat_labels(manifests)


def _players(table: HumanTable, desk: Desk, out_dir: Path) -> list[Player]:
    narrator = Narrator(desk, table.seed)
    bots = [who for who in table.seats if isinstance(who, BotManifest)]
    limits = table.limits.hiding(out_dir, *(bot.folder for bot in bots))
    clock = table.clock
    human_limits = replace(
        Limits(), move_ms=int(clock.move_s * 1000), startup_ms=int(clock.open_s * 1000)
    )
    players: list[Player] = []
    for seat, who in enumerate(table.seats):
        if isinstance(who, BotManifest):
            log = out_dir / "logs"
            players.append(WatchedPlayer(who, limits, log, log_name=desk.players[seat],
                                         seat=seat, narrator=narrator))  # fmt: skip
        else:
            players.append(HumanSeat(desk.players[seat], desk, narrator, human_limits))
    return players


def play_human_game(
    table: HumanTable,
    out_dir: Path,
    on_open: Callable[[str], None],
    on_end: Callable[[GameReport, Path], None] | None = None,
) -> tuple[GameReport, Path]:
    """Play the game; `on_open(url)` once the page is served, `on_end(report, record's
    path)` once the game is over and its record written; then the end screen and the replay
    stay served until the player is done with them (`_linger`). Returns the report and the
    record's path (its replay beside it, .html)."""
    for bot in {who.folder: who for who in table.seats if isinstance(who, BotManifest)}.values():
        make_ready(bot)
    out_dir.mkdir(parents=True, exist_ok=True)
    desk = table_desk(table)
    server = SeatServer(desk, table.port)
    server.start()
    try:
        on_open(server.url)
        game_id = _free_id(out_dir)
        report, record = play_at_desk(table, desk, game_id, out_dir)
        path = out_dir / f"{game_id}.json"
        path.write_text(json.dumps(record, indent=1))
        path.with_suffix(".html").write_text(replay_html(record), encoding="utf-8")
        if on_end is not None:
            on_end(report, path)
        _linger(server, desk, table.clock)
    finally:
        server.stop()
    return report, path


def table_desk(table: HumanTable) -> Desk:
    """The desk of `table`'s human seat (ValueError with a sentence unless one human)."""
    seat = human_seat(table.seats)
    return Desk(table.game, _labels(table.seats), seat, int(table.clock.move_s * 1000))


def play_at_desk(
    table: HumanTable, desk: Desk, game_id: str, out_dir: Path
) -> tuple[GameReport, dict[str, Any]]:
    """The game `game_id` at `table`, the human on `desk` (its page served by the caller),
    the bots ready to launch (their logs in `out_dir`/logs): its report and record, which the
    desk publishes once the game is over."""
    players = _players(table, desk, out_dir)
    try:
        # The bots start once the page is open: their start-up deadline is not the human's.
        if not desk.wait_for_page(time.monotonic() + table.clock.open_s):
            human = players[desk.seat]  # not opened: its start fails now, with the reason
            human.limits = replace(human.limits, startup_ms=0)
        spec = GameSpec(game_id, table.seed, table.game, table.config)
        report = play_game(spec, players)
        report.players = list(desk.players)
        desk.finish(report.outcome.to_json())
        record = report.record()
        desk.publish(record, _final_view(record))
    finally:
        for player in players:
            player.close()
    return report, record


def _linger(server: SeatServer, desk: Desk, clock: HumanClock) -> None:
    """Keep the end screen and the replay served after the game until the player clicks
    Done on it, or the end screen has been silent `gone_s` (its tab closed), or `linger_s`
    have passed. Opening the replay (in a tab of its own) ends nothing: the player may come
    back to the end screen."""
    deadline = time.monotonic() + clock.linger_s
    while time.monotonic() < deadline and desk.idle_s() <= clock.gone_s:
        if server.done.wait(0.2):
            return


def _free_id(out_dir: Path) -> str:
    """The first game id gNNNN whose record is not in `out_dir` yet (games played into one
    --out folder one after another keep each other's records)."""
    number = 1
    while (out_dir / f"g{number:04d}.json").exists():
        number += 1
    return f"g{number:04d}"


def _final_view(record: Mapping[str, Any]) -> Any:
    """The position the record ends in as a spectator sees it, every hand shown (the game is
    over: no secret is left to keep)."""
    state = start(record)
    for _ in walk(record, state):
        pass
    return json.loads(compact_json.dumps(state.spectator_view()))
