"""`arena games`: the registered games, their table sizes and their options."""

from __future__ import annotations

import json

import click

from arena.game_sources import game_names, get_game


@click.command()
def games() -> None:
    """List the games this arena plays: seats, default table size and options."""
    for name in game_names():
        game = get_game(name)
        low, high = game.min_players, game.max_players
        seats = str(low) if low == high else f"{low} to {high}"
        default = game.default_players or low
        click.echo(f"{name}: {seats} players (default {default})")
        for key, value in game.default_config.items():
            about = game.option_help.get(key, "")
            line = f"  --game-option {key}={json.dumps(value)}"
            click.echo(f"{line:<38} {about}".rstrip())
    click.echo(
        "openspiel:NAME: any sequential OpenSpiel game, its table size its own "
        "(e.g. openspiel:kuhn_poker, 'openspiel:liars_dice(numdice=2)'; the ecosystem extra)"
    )
