"""The game `arena play` seats its bots at when `--game` is not given: the first game every
bot's bot.toml lists (as `arena check` checks the first game its bot lists) that seats them."""

from __future__ import annotations

from collections.abc import Sequence

from arena.errors import ArenaError, GameError
from arena.game_sources import get_game
from arena.games import DEFAULT_GAME
from arena.players.manifest import FAMILY, BotManifest, common_games


def game_of_bots(
    bots: Sequence[BotManifest], seats: int | None, named: int
) -> tuple[str, list[str] | None, str]:
    """The game to play `bots` at (the first the bots have in common that is played by
    `seats` players, or, with no --seats, by the `named` seats given), the games they have in
    common (None: no bot lists any, so Mandala), and a sentence saying why (empty for Mandala
    unasked). ArenaError when they have no game in common, or none at that table size."""
    shared = common_games(bots)
    if shared is None:
        return DEFAULT_GAME, None, ""
    names = list(dict.fromkeys(bot.name for bot in bots))
    if not shared:
        lists = "; ".join(f"{bot.name}: {', '.join(bot.games or ())}" for bot in bots if bot.games)
        only_family = all(set(bot.games or ()) <= {FAMILY} for bot in bots)
        choose = "--game openspiel:NAME" if only_family else "--game NAME"
        raise ArenaError(
            f"{_and(names)} have no game in common in their bot.toml ({lists}); "
            f"choose one with {choose}."
        )
    whose = f"{names[0]}'s bot.toml lists" if len(names) == 1 else f"{_and(names)} have in common"
    fitting = [game for game in shared if _seats(game, seats, named)]
    if not fitting:
        size = f"{seats} players" if seats is not None else f"{named} bots"
        raise ArenaError(
            f"The games {whose} ({', '.join(shared)}) are not played by {size}; "
            "choose another --seats."
        )
    chosen = fitting[0]
    others = f" (of {', '.join(shared)})" if len(shared) > 1 else ""
    return (
        chosen,
        shared,
        f"Playing {chosen}, the first game {whose}{others}; --game plays another.",
    )


def _seats(name: str, seats: int | None, named: int) -> bool:
    """True when the game `name` is played by `seats` players (None: at a table for `named`
    bots, the last filling any seats left over); False for a name that is no game here."""
    try:
        game = get_game(name)
    except GameError:
        return False
    if seats is None:
        return named <= game.max_players
    return game.min_players <= seats <= game.max_players


def _and(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
