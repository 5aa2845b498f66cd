"""Build a whole `FlowersState` from one seat's view, sampling what that seat cannot see.

A search bot sees only its view (F27): its own hand, the table, every tile taken, the
hand sizes and the cards each hand is *known* to hold. Hidden are the rest of the other
hands, the deck order and the order of the two tile stacks. `determinize` deals those at
random from what the seat has not seen, so that the sampled state shows the seat exactly
the view it was built from; `redeal` deals them again on a copy, which is much cheaper.

    state = determinize(view, rng)        # state.view(seat) == view
    sample = state.copy()
    redeal(sample, seat, rng)             # new hidden cards and tile order, new RNG

Every sample also gets a new RNG (F6), so a search never learns a real future shuffle or
the real order of the final destruction.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from arena.games.base import View
from arena.games.determinize import Sampler
from arena.games.flowers.components import (
    CARDS_PER_COLOUR,
    COLOUR_INDEX,
    COLOURS,
    NUM_COLOURS,
    NUM_TILES,
    TILE,
    TILE_INDEX,
    shuffle,
    tile_colour,
)
from arena.games.flowers.state import FlowersState

__all__ = ["FlowersDeterminizer", "determinize", "redeal"]


def _pile(pile: Mapping[str, Any]) -> list[int]:
    return [int(pile.get(name, 0)) for name in COLOURS]


def determinize(view: View, rng: random.Random, turn_limit: int = 10_000) -> FlowersState:
    """A state consistent with `view`, its hidden cards and tiles dealt at random.

    Raises ValueError when the view's cards or tiles do not add up (F2, F3).
    """
    return _SAMPLER.determinize(view, rng, {"turn_limit": turn_limit})


def redeal(state: FlowersState, seat: int, rng: random.Random) -> None:
    """Deal again, in place, every card and tile `seat` cannot see, and give a new RNG."""
    _deal_hidden(state, seat, _pool(state, seat), rng)


def _show(state: FlowersState, view: View) -> list[int]:
    """Set what `view` shows in `state`; the cards its seat has not seen, by colour. The
    tile stacks get the unseen tiles, in order."""
    state.turns = int(view["turn"])
    state.current = int(view["to_move"])
    state.passes = int(view["passes"])
    state.discard = _pile(view["discard"])
    unseen = [CARDS_PER_COLOUR - count for count in state.discard]
    seen_tiles: set[int] = set()
    _show_mandalas(state, view, unseen, seen_tiles)
    _show_players(state, view, unseen, seen_tiles)
    seat = int(view["seat"])
    hidden = sum(
        state.hand_sizes[s] - sum(state.hands[s]) for s in range(len(state.hands)) if s != seat
    )
    deck_size = int(view["deck_size"])
    if min(unseen) < 0 or sum(unseen) != hidden + deck_size:
        raise ValueError(
            f"The view does not add up to 90 cards: {sum(unseen)} unseen, but the other "
            f"hands' unknown cards ({hidden}) and the deck ({deck_size}) need "
            f"{hidden + deck_size}."
        )
    stacks = view["stacks"]
    rest = [t for t in range(NUM_TILES) if t not in seen_tiles]
    state.dark = [t for t in rest if tile_colour(t) < 3]
    state.light = [t for t in rest if tile_colour(t) >= 3]
    if (len(state.dark), len(state.light)) != (int(stacks["dark"]), int(stacks["light"])):
        raise ValueError(
            f"The view does not add up to 36 tiles: {len(rest)} unseen, the stacks hold "
            f"{stacks['dark']} + {stacks['light']}."
        )
    state.deck = [0] * deck_size
    return unseen


def _show_mandalas(
    state: FlowersState, view: View, unseen: list[int], seen_tiles: set[int]
) -> None:
    """The Mandalas' tiles, markers, colours and sides; their cards and tiles are seen."""
    n = len(view["players"])
    for m, mandala in enumerate(view["mandalas"]):
        state.tiles[m] = [TILE_INDEX[name] for name in mandala["tiles"]]
        seen_tiles.update(state.tiles[m])
        state.marker[m] = -1 if mandala["marker"] is None else int(mandala["marker"])
        state.present[m] = sum(1 << COLOUR_INDEX[name] for name in mandala["colours"])
        for s, cards in enumerate(mandala["sides"]):
            side = m * n + s
            up, down = _pile(cards["face_up"]), _pile(cards["face_down"])
            state.up[side * 6 : side * 6 + 6] = up
            state.down[side * 6 : side * 6 + 6] = down
            state.ups[side] = sum(up)
            state.counts[side] = sum(up) + sum(down)
            for c in range(NUM_COLOURS):
                unseen[c] -= up[c] + down[c]


def _show_players(state: FlowersState, view: View, unseen: list[int], seen_tiles: set[int]) -> None:
    """Each seat's hand size, known cards, tiles and Flowers; the seat's own hand (F27)."""
    seat = int(view["seat"])
    for s, player in enumerate(view["players"]):
        state.hand_sizes[s] = int(player["hand_size"])
        state.known[s] = _pile(player["known"])
        for name in player["singles"]:
            tile = TILE_INDEX[name]
            state.singles[s][tile_colour(tile)] = tile
            seen_tiles.add(tile)
        for a, b in player["flowers"]:
            state.flowers[s].append((TILE_INDEX[a], TILE_INDEX[b]))
            seen_tiles.update((TILE_INDEX[a], TILE_INDEX[b]))
        hand = _pile(view["hand"]) if s == seat else state.known[s]
        state.hands[s] = hand[:]
        for c in range(NUM_COLOURS):
            unseen[c] -= hand[c]


def _settle(state: FlowersState, view: View) -> None:
    """The destruction under way and the end, as the view shows them."""
    destroying = view.get("destroying")
    end = view.get("end")
    if destroying is not None:
        state.destroying = int(destroying["mandala"])
        state.second = int(destroying["second_place"])
        state.choosing = view["decision"] == TILE
        if not destroying["final"]:
            state.destroyed = state.destroying
    if end is not None:
        state.ending = end
        state.final_order = [int(m) for m in view["final_order"]]
        state.standing = [int(m) for m in view["final_left"]]
    if view["decision"] is None:
        state.over = True
        state.end = end


def _pool(state: FlowersState, seat: int) -> list[int]:
    """The cards `seat` cannot see, by colour (the deck and the other hands' unknown cards),
    taken back from the other hands."""
    unseen = [0] * NUM_COLOURS
    for colour in state.deck:
        unseen[colour] += 1
    for other in range(state.num_players):
        if other != seat:
            hand, known = state.hands[other], state.known[other]
            for c in range(NUM_COLOURS):
                unseen[c] += hand[c] - known[c]
                hand[c] = known[c]
    return unseen


def _deal_hidden(state: FlowersState, seat: int, unseen: list[int], rng: random.Random) -> None:
    """Deal `unseen` to the other hands (on top of their known cards) and the deck, keeping
    every size; shuffle both tile stacks; give the state a new RNG."""
    rest = [c for c in range(NUM_COLOURS) for _ in range(unseen[c])]
    shuffle(rest, rng)
    for other in range(state.num_players):
        if other == seat:
            continue
        hand = state.hands[other]
        for _ in range(state.hand_sizes[other] - sum(hand)):
            hand[rest.pop()] += 1
    state.deck = rest
    shuffle(state.dark, rng)
    shuffle(state.light, rng)
    state.reseed(rng.getrandbits(62))


class FlowersDeterminizer(Sampler[FlowersState, list[int]]):
    """Flowers' sampling of hidden information, for game-neutral search bots."""

    state_type = FlowersState

    def fresh(self, view: View, seed: int, config: Mapping[str, Any]) -> FlowersState:
        turn_limit = int(config.get("turn_limit", 10_000))
        return FlowersState.empty(len(view["players"]), seed=seed, turn_limit=turn_limit)

    def show(self, state: FlowersState, view: View) -> list[int]:
        return _show(state, view)

    def deal(self, state: FlowersState, seat: int, unseen: list[int], rng: random.Random) -> None:
        _deal_hidden(state, seat, unseen, rng)

    def settle(self, state: FlowersState, view: View) -> None:
        _settle(state, view)

    def pool(self, state: FlowersState, seat: int) -> list[int]:
        return _pool(state, seat)


_SAMPLER = FlowersDeterminizer()
