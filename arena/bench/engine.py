"""`arena bench engine`: random games in one process on one core; what search bots live on."""

from __future__ import annotations

import json
import random
import time
from typing import Any

import click

from arena.games import DEFAULT_GAME, get_game


def measure(
    game_name: str = DEFAULT_GAME, games: int = 3000, copies: int = 100_000
) -> dict[str, Any]:
    """Play `games` uniformly random games and time copying a mid-game state `copies` times."""
    game = get_game(game_name)
    uniform = random.Random(1).random
    decisions = 0
    start = time.perf_counter()
    for seed in range(games):
        state = game.new_state(seed)
        while not state.is_over():
            actions = state.legal_actions()
            state.apply_action(actions[int(uniform() * len(actions))])
            decisions += 1
    elapsed = time.perf_counter() - start

    state = game.new_state(12345)
    for _ in range(20):
        actions = state.legal_actions()
        state.apply_action(actions[int(uniform() * len(actions))])
    copy = state.copy
    copy_start = time.perf_counter()
    for _ in range(copies):
        copy()
    copy_elapsed = time.perf_counter() - copy_start

    return {
        "game": game_name,
        "games": games,
        "seconds": round(elapsed, 3),
        "games_per_second": round(games / elapsed, 1),
        "decisions_per_game": round(decisions / games, 1),
        "decisions_per_second": round(decisions / elapsed),
        "copy_microseconds": round(copy_elapsed / copies * 1e6, 3),
        "target_games_per_second": 2000,
    }


@click.command()
@click.option("--games", default=3000, show_default=True, help="How many random games to play.")
@click.option("--game", "game_name", default=DEFAULT_GAME, show_default=True, help="Which game.")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as one JSON object.")
def engine(games: int, game_name: str, as_json: bool) -> None:
    """Play random games in one process on one core: games/s, decisions/s, cost of a copy."""
    figures = measure(game_name, games)
    if as_json:
        click.echo(json.dumps(figures))
        return
    click.echo(f"engine benchmark: {figures['games']} random games of {game_name}, one core")
    click.echo(
        f"  games per second      {figures['games_per_second']:>10,.0f}"
        f"   (target >= {figures['target_games_per_second']:,})"
    )
    click.echo(f"  decisions per second  {figures['decisions_per_second']:>10,}")
    click.echo(f"  decisions per game    {figures['decisions_per_game']:>10}")
    click.echo(f"  copy of a state       {figures['copy_microseconds']:>10} us")
