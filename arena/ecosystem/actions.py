"""How many action codes each game uses, for the fixed action spaces of OpenSpiel and PettingZoo.

Each game says it itself (`Game.learning().num_actions`); this module names no game.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from arena.ecosystem.tensors import learning
from arena.game_sources import game_names


class _ActionSpaces(Mapping[str, int]):
    """Game name -> the size of its action space (games with a coding for learners)."""

    def __getitem__(self, game: str) -> int:
        coding = learning(game)
        if coding is None:
            raise KeyError(game)
        return coding.num_actions

    def __iter__(self) -> Iterator[str]:
        return (name for name in game_names() if learning(name) is not None)

    def __len__(self) -> int:
        return sum(1 for _ in self)


NUM_ACTIONS: Mapping[str, int] = _ActionSpaces()


def legal(game: str, actions: list[int], size: int | None = None) -> list[int]:
    """`actions` sorted ascending; ValueError when a code lies outside the game's space
    (`size` codes, when the caller knows it: `NUM_ACTIONS[game]`)."""
    codes = sorted(actions)
    if size is None:
        size = NUM_ACTIONS[game]
    if codes and codes[-1] >= size:
        raise ValueError(
            f"{game} offers action code {codes[-1]}, beyond the {size} codes of "
            "its OpenSpiel and PettingZoo action space."
        )
    return codes
