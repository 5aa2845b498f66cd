"""A seat's view as a flat vector of numbers, for learners (OpenSpiel tensors, PettingZoo).

The vector holds the whole view, nothing more (no hidden card is ever in it), in a layout
that depends on the game and the table size only: `size(game, players)` numbers. Counts are
as they are (not scaled); a choice is one-hot (all zeros for "none"); a set of named things
(cards, tiles, babies) is one slot per name in the game's own fixed list; a list whose order
matters (a River, the cards put back under a deck) gives each name its place (1, 2, ... or
0 when absent). Seats are absolute (`seat` says which is this one).

- Mandala: the seat deciding and this seat, the decision, the turn, this hand and Cup, the
  deck size, the discard pile, the end triggered, the reshuffle tracking (R14), both
  Mandalas (Mountain, the Fields), each player's hand size, River places, Cup size, claimed
  and unknown Cup cards, and the Mandala being destroyed with who completed it.
- Flowers: the seats, the decision, the turn, deck size, discard pile, stack sizes, this
  hand, passes; each player's hand size, known cards, single tiles, each Flower's two
  tiles, score; each Mandala's tiles, marker, colours and each side's face-up and face-down cards;
  the destruction under way and the end (the final order, the Mandalas left, the reason).
- Takenoko: the options, seats, turn, round, decision, weather, actions taken and left;
  each tile of the game (27 plots and the 6 Chibis tiles, by id): placed, where, its kind,
  colour, improvement, bamboo, irrigation, Kami's Garden stacks, and a channel on each of
  its six edges; the gardener, the panda and Miss Panda; the decks, refunds and supplies;
  each player's hand size, completed cards, stomach, reserves, babies and score; the baby
  pool, the baby being placed, the Emperor, the final turns, the end; this hand, the plots
  drawn, the Cabin's cards, and the plots and cards this seat put back, in deck order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache
from typing import Any

from arena.game_sources import get_game
from arena.games.flowers import components as flowers
from arena.games.mandala.cards import COLOURS as MANDALA_COLOURS
from arena.games.takenoko import components as takenoko
from arena.games.takenoko.cards import DECKS, OBJECTIVES
from arena.games.takenoko.hexes import DIRECTIONS
from arena.games.takenoko.legal import ACTIONS

View = Mapping[str, Any]


class _Vector:
    """Numbers appended in a fixed order."""

    def __init__(self) -> None:
        self.out: list[float] = []

    def num(self, *values: float | bool | None) -> None:
        self.out += [float(v or 0) for v in values]

    def one_hot(self, value: Any, choices: Sequence[Any]) -> None:
        self.out += [1.0 if value == c else 0.0 for c in choices]

    def pile(self, pile: Mapping[str, int], names: Sequence[str]) -> None:
        self.out += [float(pile[n]) for n in names]

    def counts(self, items: Iterable[str], names: Sequence[str]) -> None:
        slots = dict.fromkeys(names, 0.0)
        for item in items:
            slots[item] += 1.0
        self.out += slots.values()

    def places(self, items: Sequence[str], names: Sequence[str]) -> None:
        slots = dict.fromkeys(names, 0.0)
        for place, item in enumerate(items, 1):
            slots[item] = float(place)
        self.out += slots.values()


def mandala(view: View, players: int) -> list[float]:
    v = _Vector()
    seats, colours = range(2), MANDALA_COLOURS
    v.one_hot(view["deciding_seat"], seats)
    v.one_hot(view["seat"], seats)
    v.one_hot(view["decision"], ("turn", "claim"))
    v.num(view["turn"])
    v.pile(view["hand"], colours)
    v.pile(view["cup"], colours)
    v.num(view["deck_size"])
    v.pile(view["discard"], colours)
    v.num(view["end_triggered"])
    since = view["since_reshuffle"]
    v.num(since is not None)
    empty = dict.fromkeys(colours, 0)
    v.pile(since["deck"] if since else empty, colours)
    v.pile(since["drawn_by_you"] if since else empty, colours)
    v.num(since["drawn_by_opponent"] if since else 0)
    v.pile(since["refills"] if since else empty, colours)
    for shown in view["mandalas"]:
        v.pile(shown["mountain"], colours)
        for field in shown["fields"]:
            v.pile(field, colours)
    for player in view["players"]:
        v.num(player["hand_size"])
        v.places(player["river"], colours)
        v.num(player["cup_size"])
        v.pile(player["cup_claimed"], colours)
        v.num(player["cup_unknown"])
    destroying = view["destroying"] or {}
    v.one_hot(destroying.get("mandala"), seats)
    v.one_hot(destroying.get("completed_by"), seats)
    return v.out


_FLOWERS_ENDS = ("third_flower", "no_tiles", "stalled", "turn_limit")


def flowers_view(view: View, players: int) -> list[float]:
    v = _Vector()
    seats, colours, tiles = range(players), flowers.COLOURS, flowers.TILE_NAMES
    v.one_hot(view["deciding_seat"], seats)
    v.one_hot(view["seat"], seats)
    v.one_hot(view["decision"], (flowers.TURN, flowers.TILE))
    v.num(view["turn"], view["deck_size"], view["stacks"]["dark"], view["stacks"]["light"])
    v.pile(view["discard"], colours)
    v.pile(view["hand"], colours)
    v.num(view["passes"])
    for player in view["players"]:
        v.num(player["hand_size"], player["score"])
        v.pile(player["known"], colours)
        v.counts(player["singles"], tiles)
        flowers_made = player["flowers"]
        for slot in range(flowers.FLOWERS_TO_END):  # the game ends at a third Flower
            v.counts(flowers_made[slot] if slot < len(flowers_made) else [], tiles)
    mandalas = range(flowers.MANDALAS)
    for shown in view["mandalas"]:
        v.counts(shown["tiles"], tiles)
        v.one_hot(shown["marker"], seats)
        v.counts(shown["colours"], colours)
        for side in shown["sides"]:
            v.num(side["cards"])
            v.pile(side["face_up"], colours)
            v.pile(side["face_down"], colours)
    destroying = view["destroying"] or {}
    v.one_hot(destroying.get("mandala"), mandalas)
    v.one_hot(destroying.get("holder"), seats)
    v.one_hot(destroying.get("second_place"), seats)
    v.num(destroying.get("final"))
    v.places([str(m) for m in view["final_order"]], [str(m) for m in mandalas])
    v.counts([str(m) for m in view["final_left"]], [str(m) for m in mandalas])
    v.one_hot(view["end"], _FLOWERS_ENDS)
    return v.out


_TILE_IDS = tuple(tile.id for tile in takenoko.PLOTS + takenoko.CHIBIS_TILES)
_KIND = takenoko.Kind
_KINDS = (_KIND.PLOT, _KIND.SACRED_HILL, _KIND.KAMI_GARDEN, _KIND.CABIN, _KIND.POND)
_TAKENOKO_KINDS = get_game("takenoko").decision_kinds
_CARDS = tuple(OBJECTIVES)
_TAKENOKO_ENDS = ("all_objectives", "turn_limit")


def takenoko_view(view: View, players: int) -> list[float]:
    v = _Vector()
    seats, colours, chips = range(players), takenoko.COLOURS, takenoko.IMPROVEMENTS
    v.num(view["options"]["chibis"], view["options"]["redraw_met_objectives"])
    v.one_hot(view["seat"], seats)
    v.one_hot(view["to_move"], seats)
    v.one_hot(view["deciding_seat"], seats)
    v.num(view["turn"], view["round"], view["rolled"], view["actions_left"])
    v.one_hot(view["decision"], _TAKENOKO_KINDS)
    v.one_hot(view["weather"], takenoko.WEATHER)
    v.counts(view["actions_taken"], ACTIONS)
    board = view["board"]
    placed = {tile["plot"]: tile for tile in board["tiles"] if tile["plot"] is not None}
    channels = {frozenset(map(tuple, edge)) for edge in board["channels"]}
    for tile_id in _TILE_IDS:
        tile = placed.get(tile_id)
        if tile is None:
            v.num(*[0] * (3 + len(_KINDS) + len(colours) + len(chips) + 2 + 3 + 6))
            continue
        q, r = tile["at"]
        v.num(1, q, r)
        v.one_hot(tile["kind"], _KINDS)
        v.one_hot(tile["colour"], colours)
        v.one_hot(tile["improvement"], chips)
        v.num(tile["bamboo"], tile["irrigated"])
        v.pile(tile.get("stacks") or dict.fromkeys(colours, 0), colours)
        v.num(*[frozenset({(q, r), (q + dq, r + dr)}) in channels for dq, dr in DIRECTIONS])
    for piece in ("gardener", "panda", "miss_panda"):
        at = board[piece]
        v.num(at is not None, *(at or (0, 0)))
    v.num(view["plot_deck"], view["channel_supply"], view["final_turns"])
    v.pile(view["objective_decks"], DECKS)
    v.pile({deck: view["objective_refunds"].get(deck, 0) for deck in DECKS}, DECKS)
    v.pile(view["chip_supply"], chips)
    for player in view["players"]:
        v.num(player["hand_size"], player["channels"], player["score"])
        v.counts(player["completed"], _CARDS)
        v.pile(player["stomach"], colours)
        v.pile(player["chips"], chips)
        v.counts(player["babies"], takenoko.BABIES)
    v.counts(view["baby_pool"], takenoko.BABIES)
    v.one_hot(view["baby"], takenoko.BABIES)
    v.one_hot(view["emperor"], seats)
    v.one_hot(view["end"], _TAKENOKO_ENDS)
    v.counts(view["hand"], _CARDS)
    v.counts(view["drawn"], _TILE_IDS)
    v.counts(view["cabin"], _CARDS)
    v.places(view["returned_plots"], _TILE_IDS)
    for deck in DECKS:
        v.places(view["returned_cards"][deck], _CARDS)
    return v.out


_ENCODERS: dict[str, Callable[[View, int], list[float]]] = {
    "mandala": mandala,
    "flowers": flowers_view,
    "takenoko": takenoko_view,
}


def encode(game: str, view: View) -> list[float]:
    """The view as numbers; ValueError for a game without a vector."""
    try:
        encoder = _ENCODERS[game]
    except KeyError:
        raise ValueError(f"{game} has no observation vector; use its view's JSON.") from None
    return encoder(view, len(view["players"]))


@cache
def size(game: str, players: int) -> int:
    """The length of `encode`'s vector for `game` at `players` seats; 0 when it has none."""
    if game not in _ENCODERS:
        return 0
    return len(encode(game, get_game(game).new_state(0, None, players).view(0)))
