"""A league's game, its options and its table size, kept in its store.

A league is one game with one set of options: another game, or other options, is another
league, refused in one sentence naming the flags that would start this one. The table size
may change between starts (each game keeps its own size; custom leaderboards filter by it).
What is not given on the command line is taken from the store, else the game's defaults.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from arena.games import DEFAULT_GAME, get_game, ready_table
from arena.league.store import Store, StoreError

SETTING = "table"
"""The store's setting that keeps them (JSON: game, options, seats)."""


@dataclass(frozen=True)
class Table:
    game: str
    seats: int
    options: dict[str, Any] = field(default_factory=dict)


def settle(
    store: Store, game: str | None, seats: int | None, options: Mapping[str, Any] | None
) -> Table:
    """The league's table: as asked, else as kept in `store`, else the game's own; kept."""
    kept = _kept(store)
    name = get_game(game or (kept.game if kept else DEFAULT_GAME)).name
    if options is None:
        options = kept.options if kept and kept.game == name else {}
    if kept and (kept.game, kept.options) != (name, dict(options)):
        given = " ".join(f"--game-option {k}={json.dumps(v)}" for k, v in kept.options.items())
        raise StoreError(
            f"This league plays {kept.game}{' with ' + given if given else ''}; start it "
            f"with --game {kept.game} {given}".rstrip()
            + ", or give another --league folder (and --db) for another game."
        )
    if seats is None and kept:
        seats = kept.seats
    table = Table(name, ready_table(get_game(name), options, seats), dict(options))
    if kept != table:
        store.set_setting(SETTING, json.dumps(asdict(table)))
    return table


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
        ):
            raise ValueError
    except ValueError:
        raise StoreError(
            f"The league's kept game in {store.where} is damaged; restore the database from a "
            "backup or start a new league."
        ) from None
    return Table(kept["game"], kept["seats"], kept["options"])
