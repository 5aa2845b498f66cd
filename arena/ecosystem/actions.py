"""How many action codes each game uses, for the fixed action spaces of OpenSpiel and PettingZoo."""

from __future__ import annotations

from arena.games.flowers.components import NUM_ACTIONS as FLOWERS_ACTIONS
from arena.games.mandala.cards import NUM_ACTIONS as MANDALA_ACTIONS

TAKENOKO_ACTIONS = 1024
"""Takenoko's codes index the legal moves of a position (under 200 in every position we
have measured); a position with more is refused by `legal`, never wrapped."""

NUM_ACTIONS = {"mandala": MANDALA_ACTIONS, "flowers": FLOWERS_ACTIONS, "takenoko": TAKENOKO_ACTIONS}


def legal(game: str, actions: list[int]) -> list[int]:
    """`actions` sorted ascending; ValueError when a code lies outside the game's space."""
    codes = sorted(actions)
    if codes and codes[-1] >= NUM_ACTIONS[game]:
        raise ValueError(
            f"{game} offers action code {codes[-1]}, beyond the {NUM_ACTIONS[game]} codes of "
            "its OpenSpiel and PettingZoo action space."
        )
    return codes
