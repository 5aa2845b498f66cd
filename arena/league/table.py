"""A league's game, its options and its table size, kept in its store.

A league's game is chosen when it is made: by the first command that opens its store
(`arena serve`, `--add-author`, `--invite`), with `--game` (else Mandala), its options and
`--seats`; `made` says so in one line. Another game, or other options, is another league,
refused in one sentence naming the flags that would start this one; but a league whose game
nobody chose (Mandala, by default) and that has no bots and no games yet (made by
`--add-author` before its game was thought of) takes the first game asked, and says so. The table size may change between starts (each game keeps its own size;
custom leaderboards filter by it). What is not given on the command line is taken from the
store, else the game's defaults.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from arena.game_sources import get_game, ready_table
from arena.games import DEFAULT_GAME
from arena.league.store import Store, StoreError

SETTING = "table"
"""The store's setting that keeps them (JSON: game, options, seats)."""


@dataclass(frozen=True)
class Table:
    game: str
    seats: int
    options: dict[str, Any] = field(default_factory=dict)
    chosen: bool = True
    """False while the game is the default nobody asked for (it may still change while the
    league is empty); kept leagues from before this was kept count as chosen."""
    made: str | None = field(default=None, compare=False)
    """Set when `settle` made the league: "new", or the game it had before (unchosen, with
    no bots nor games: it changed)."""

    def kept(self) -> str:
        """The JSON the store keeps."""
        return json.dumps(
            {"game": self.game, "seats": self.seats, "options": self.options, "chosen": self.chosen}
        )


def settle(
    store: Store, game: str | None, seats: int | None, options: Mapping[str, Any] | None
) -> Table:
    """The league's table: as asked, else as kept in `store`, else the game's own; kept."""
    kept = _kept(store)
    asked = game is not None or options is not None
    name = get_game(game or (kept.game if kept else DEFAULT_GAME)).name
    if options is None:
        options = kept.options if kept and kept.game == name else {}
    made: str | None = None
    if kept is None and not _used(store):  # else a league from before games were kept
        made = "new"
    if kept and (kept.game, kept.options) != (name, dict(options)):
        if kept.chosen or _used(store):
            given = " ".join(f"--game-option {k}={json.dumps(v)}" for k, v in kept.options.items())
            raise StoreError(
                f"This league plays {kept.game}{' with ' + given if given else ''}; start it "
                f"with --game {kept.game} {given}".rstrip()
                + ", or give another --league folder (and --db) for another game (a league's "
                "game is chosen when it is made)."
            )
        made, kept = kept.game, None  # nobody chose it and nothing was played: as asked now
    if seats is None and kept:
        seats = kept.seats
    chosen = asked or (kept is not None and kept.chosen)
    table = Table(name, ready_table(get_game(name), options, seats), dict(options), chosen, made)
    if kept != table:
        store.set_setting(SETTING, table.kept())
    return table


def made_line(table: Table, where: object) -> str | None:
    """The line a command prints when it made the league (`table.made`), else None."""
    if table.made is None:
        return None
    options = " ".join(f"{k}={json.dumps(v)}" for k, v in table.options.items())
    was = f" (it had no bots nor games, and played {table.made} as nobody had chosen a game)"
    return (
        f"Made a league of {table.game}{' with ' + options if options else ''}, "
        f"{table.seats} seats, in {where}{was if table.made != 'new' else ''}; --game and "
        "--seats choose another when a league is made."
    )


def _used(store: Store) -> bool:
    """True once the league has a bot (of any status) or a game."""
    return bool(store.bots()) or store.game_count() > 0


def _kept(store: Store) -> Table | None:
    """The kept table, checked; None if none is kept yet (a new league, or one from before
    tables were kept)."""
    text = store.setting(SETTING, "")
    if not text:
        return None
    try:
        kept = json.loads(text)
        if (
            not isinstance(kept, dict)
            or not isinstance(kept.get("game"), str)
            or not isinstance(kept.get("options"), dict)
            or type(kept.get("seats")) is not int
            or not isinstance(kept.get("chosen", True), bool)
        ):
            raise ValueError
    except ValueError:
        raise StoreError(
            f"The league's kept game in {store.where} is damaged; restore the database from a "
            "backup or start a new league."
        ) from None
    return Table(kept["game"], kept["seats"], kept["options"], kept.get("chosen", True))
