"""`arena bench engine`: random games in one process on one core; what search bots live on.

Each game is measured at every table size it allows, beside Mandala as the reference
(issue 11: Flowers must make at least as many decisions per second as Mandala). The rows
are measured in turns, several times over, and each keeps its best turn, so that a noisy
machine slows every row alike rather than one of them.
"""

from __future__ import annotations

import importlib.util
import json
import random
import time
from collections.abc import Callable
from typing import Any

import click

from arena.cli.options import game_options
from arena.errors import GameError
from arena.game_sources import get_game, table_seats
from arena.games import DEFAULT_GAME
from arena.players.manifest import default_bots_dir

TARGET_GAMES_PER_SECOND = 2000
"""Mandala's own target (random games per second on one core)."""
SAME_SPEED_AS_MANDALA = ("flowers",)
"""Games with issue 11's target: at least Mandala's decisions per second."""
DECISIONS_PER_SECOND = {"takenoko": 60_000}
"""Games with a target of their own (issue 22): decisions/s at every table size."""
SEARCHED = ("takenoko",)
"""Games whose bench also times the bundled ismcts's playouts (issue 22)."""
TURNS = 3
"""How many times each row is measured, in turns; the best turn counts."""


def measure(
    game_name: str = DEFAULT_GAME,
    games: int = 3000,
    copies: int = 100_000,
    seats: int = 2,
    config: dict[str, Any] | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> dict[str, Any]:
    """Play `games` uniformly random games and time copying a mid-game state `copies` times
    (by `clock`: wall time, or `time.process_time` for this process's CPU time)."""
    game = get_game(game_name)
    config = config or None
    uniform = random.Random(1).random
    decisions = 0
    start = clock()
    for seed in range(games):
        state = game.new_state(seed, config, num_players=seats)
        while not state.is_over():
            actions = state.legal_actions()
            state.apply_action(actions[int(uniform() * len(actions))])
            decisions += 1
    elapsed = clock() - start

    state = game.new_state(12345, config, num_players=seats)
    for _ in range(20):
        actions = state.legal_actions()
        state.apply_action(actions[int(uniform() * len(actions))])
    copy = state.copy
    copy_start = clock()
    for _ in range(copies):
        copy()
    copy_elapsed = clock() - copy_start

    return {
        "game": game_name,
        "seats": seats,
        "games": games,
        "seconds": round(elapsed, 3),
        "games_per_second": round(games / elapsed, 1),
        "decisions_per_game": round(decisions / games, 1),
        "decisions_per_second": round(decisions / elapsed),
        "copy_microseconds": round(copy_elapsed / copies * 1e6, 3),
    }


def ismcts_playouts_per_second(
    game_name: str, seats: int, config: dict[str, Any] | None = None, positions: int = 8
) -> float:
    """The bundled ismcts bot's search (bots/ismcts), timed on `positions` positions of random
    games: playouts (iterations) a second, each with its 12-ply playout."""
    path = default_bots_dir() / "ismcts" / "bot.py"
    spec = importlib.util.spec_from_file_location("arena_bench_ismcts", path)
    if spec is None or spec.loader is None:
        raise click.ClickException(f"{path} cannot be loaded, so ismcts cannot be timed.")
    bot = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bot)
    game = get_game(game_name)
    rng = random.Random(7)
    done, elapsed = 0, 0.0
    for seed in range(positions):
        state = game.new_state(seed, config or None, num_players=seats)
        for _ in range(20 + 15 * seed):  # positions from the opening to the middle game
            if state.is_over():
                break
            actions = state.legal_actions()
            state.apply_action(actions[int(rng.random() * len(actions))])
        decision = state.decision()
        if decision is None:
            continue
        iterations = 40
        start = time.perf_counter()
        bot.search(state.view(decision.seat), 0.0, iterations, rng, game_name, config or {})
        elapsed += time.perf_counter() - start
        done += iterations
    return done / elapsed if elapsed else 0.0


def measure_side_by_side(
    game_name: str, games: int, config: dict[str, Any] | None = None
) -> list[dict[str, Any]]:
    """Every table size of `game_name` (with `config`), and Mandala's, measured in turns;
    each row's best."""
    tables = [(DEFAULT_GAME, 2)]
    game = get_game(game_name)
    if game_name != DEFAULT_GAME:
        tables += [(game_name, n) for n in range(game.min_players, game.max_players + 1)]
    best: dict[tuple[str, int], dict[str, Any]] = {}
    share = max(1, games // TURNS)
    for _ in range(TURNS):
        for name, seats in tables:
            options = config if name == game_name else None
            figures = measure(name, share, copies=30_000, seats=seats, config=options)
            kept = best.get((name, seats))
            if kept is None or figures["seconds"] < kept["seconds"]:
                best[(name, seats)] = figures
    return [best[table] for table in tables]


@click.command()
@click.option("--games", default=3000, show_default=True, help="Random games per row (in 3 turns).")
@game_options
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON, a row a line.")
def engine(games: int, game: str, game_options: dict[str, Any], as_json: bool) -> None:
    """Play random games in one process on one core: games/s, decisions/s, cost of a copy,
    for every table size of the game (with its options), beside Mandala's."""
    game_name = game
    try:
        get_game(game_name).config(game_options)
    except GameError as error:
        raise click.UsageError(str(error)) from None
    rows = measure_side_by_side(game_name, games, game_options)
    if as_json:
        for row in rows:
            click.echo(json.dumps(row))
        return
    shown = " ".join(f"{key}={json.dumps(value)}" for key, value in game_options.items())
    click.echo(
        f"engine benchmark: random games on one core, {rows[0]['games']} games a turn, "
        f"best of {TURNS} turns" + (f"; {game_name} with {shown}" if shown else "")
    )
    click.echo(
        f"  {'game':<10}{'seats':>6}{'games/s':>10}{'decisions/s':>13}"
        f"{'decisions/game':>16}{'copy (us)':>11}"
    )
    for row in rows:
        click.echo(
            f"  {row['game']:<10}{row['seats']:>6}{row['games_per_second']:>10,.0f}"
            f"{row['decisions_per_second']:>13,}{row['decisions_per_game']:>16}"
            f"{row['copy_microseconds']:>11}"
        )
    reference = rows[0]
    click.echo(
        f"  target: Mandala >= {TARGET_GAMES_PER_SECOND:,} games/s: "
        + ("met" if reference["games_per_second"] >= TARGET_GAMES_PER_SECOND else "NOT met")
    )
    others = rows[1:]
    if others:
        slowest = min(row["decisions_per_second"] for row in others)
        if game_name in SAME_SPEED_AS_MANDALA:
            verdict = "met" if slowest >= reference["decisions_per_second"] else "NOT met"
            click.echo(
                f"  target: {game_name} decisions/s >= Mandala's at every table size: "
                f"{verdict} (slowest {slowest:,} vs {reference['decisions_per_second']:,})"
            )
        else:
            share = slowest / reference["decisions_per_second"]
            click.echo(f"  {game_name}: slowest {slowest:,} decisions/s, {share:.2f} of Mandala's")
        target = DECISIONS_PER_SECOND.get(game_name)
        if target is not None:
            verdict = "met" if slowest >= target else "NOT met"
            click.echo(
                f"  target: {game_name} >= {target:,} decisions/s at every table size: "
                f"{verdict} (slowest {slowest:,})"
            )
    if game_name in SEARCHED:
        seats = table_seats(get_game(game_name), None)  # the game's own table size
        playouts = ismcts_playouts_per_second(game_name, seats, game_options)
        click.echo(f"  ismcts on {game_name} ({seats} seats): {playouts:,.0f} playouts/s")
