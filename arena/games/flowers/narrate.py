"""Flowers told in words: each play with its face, marker moves, destructions with the tiles
and Flowers they gave, passes, the final destruction, and the scores as they change."""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from arena.games.base import Decision, GameState, Move
from arena.games.flowers.components import ALL_COLOURS, COLOURS, TILE, TILE_NAMES
from arena.games.flowers.state import FlowersState


def _tiles(state: FlowersState, seat: int) -> list[int]:
    held = [t for t in state.singles[seat] if t >= 0]
    return held + [t for flower in state.flowers[seat] for t in flower]


def step(state: GameState, decision: Decision, move: Move, who: Callable[[int], str]) -> list[str]:
    """A decision and everything the engine did after it, told by replaying it on a copy."""
    before = cast(FlowersState, state)
    after = before.copy()
    after.apply_move(move)
    seat = decision.seat
    if decision.kind == TILE:
        lines = [f"    Mandala {before.destroying}: {who(seat)} {before.describe_move(move)}"]
    else:
        mandala = int(move["mandala"])
        colour = COLOURS.index(str(move["colour"]))
        face = "face down" if before.present[mandala] >> colour & 1 else "face up"
        drawn = after.hand_sizes[seat] - before.hand_sizes[seat] + int(move["count"])
        drew = f", draws {drawn}" if drawn > 0 and after.turns > before.turns else ""
        lines = [
            f"Turn {before.turns + 1:>3}: {who(seat)} {before.describe_move(move)} ({face}{drew})"
        ]
        if after.marker[mandala] == seat != before.marker[mandala]:
            lines.append(f"          {who(seat)} takes the claim marker of Mandala {mandala}")
        if before.present[mandala] | 1 << colour == ALL_COLOURS:
            lines.append(f"          Mandala {mandala} is complete and is destroyed")
    return lines + _consequences(before, after, who)


def _consequences(
    before: FlowersState, after: FlowersState, who: Callable[[int], str]
) -> list[str]:
    """Tiles taken (with the scores they change), passes, the final destruction, a tile
    choice now pending."""
    lines = []
    for seat in range(after.num_players):
        gained = [t for t in _tiles(after, seat) if t not in _tiles(before, seat)]
        if gained:
            formed = len(after.flowers[seat]) - len(before.flowers[seat])
            flowers = f", {formed} new Flower(s)" if formed else ""
            names = " and ".join(TILE_NAMES[t] for t in gained)
            lines.append(
                f"          {who(seat)} takes {names}{flowers}: score "
                f"{before.score(seat)} -> {after.score(seat)}"
            )
    passes = after.passes - before.passes
    if passes and not after.over:
        lines.append(f"          ({passes} pass(es): one card and nothing to draw, F10)")
    drawn = after.final_order[len(before.final_order) :]
    if drawn:
        opening = "the game ends (" + str(after.ending) + "): " if not before.final_order else ""
        lines.append(
            f"          {opening}final destruction of Mandala "
            f"{', then '.join(map(str, drawn))} (drawn at random, F23)"
        )
    if after.choosing and (not before.choosing or after.destroying != before.destroying):
        holder = after.marker[after.destroying]
        lines.append(
            f"          Mandala {after.destroying}: {who(holder)} holds the marker and "
            f"chooses a tile; {who(after.second)} gets the other"
        )
    return lines


def after(state: GameState, move: Move, turn_before: int, who: Callable[[int], str]) -> list[str]:
    """Nothing more: `step` already told what the engine did after each move."""
    return []


def end(state: GameState, names: list[str]) -> list[str]:
    """Each seat's tiles and Flowers and the cards left in hand (F26's tie-break)."""
    flowers = cast(FlowersState, state)
    lines = []
    for seat in range(flowers.num_players):
        name = names[seat] if seat < len(names) else "?"
        singles = ", ".join(TILE_NAMES[t] for t in flowers.singles[seat] if t >= 0) or "none"
        made = "; ".join(f"{TILE_NAMES[a]} + {TILE_NAMES[b]}" for a, b in flowers.flowers[seat])
        lines.append(
            f"Seat {seat} ({name}): Flowers {made or 'none'}; singles {singles}; "
            f"{flowers.hand_sizes[seat]} cards in hand"
        )
    return lines
