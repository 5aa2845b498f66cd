"""A Takenoko view as numbers, for learners (`Learning.encode`; the layout in learning.py's doc).

The options, seats, turn, round, decision, weather, actions taken and left; each tile of
the game (27 plots and the 6 Chibis tiles, by id): placed, where, its kind, colour,
improvement, bamboo, irrigation, Kami's Garden stacks, and a channel on each of its six
edges; the gardener, the panda and Miss Panda; the decks, refunds and supplies; each
player's hand size, completed cards, stomach, reserves, babies and score; the baby pool,
the baby being placed, the Emperor, the final turns, the end; this hand, the plots drawn,
the Cabin's cards, and the plots and cards this seat put back, in deck order.
"""

from __future__ import annotations

from arena.games.learning import Vector, View
from arena.games.takenoko import components
from arena.games.takenoko.cards import DECKS, OBJECTIVES
from arena.games.takenoko.hexes import DIRECTIONS
from arena.games.takenoko.legal import ACTIONS, DECISION_KINDS

_TILE_IDS = tuple(tile.id for tile in components.PLOTS + components.CHIBIS_TILES)
_KIND = components.Kind
_KINDS = (_KIND.PLOT, _KIND.SACRED_HILL, _KIND.KAMI_GARDEN, _KIND.CABIN, _KIND.POND)
_TAKENOKO_KINDS = DECISION_KINDS
_CARDS = tuple(OBJECTIVES)
_TAKENOKO_ENDS = ("all_objectives", "turn_limit")


def encode(view: View, players: int) -> list[float]:
    v = Vector()
    seats, colours, chips = range(players), components.COLOURS, components.IMPROVEMENTS
    v.num(view["options"]["chibis"], view["options"]["redraw_met_objectives"])
    v.one_hot(view["seat"], seats)
    v.one_hot(view["to_move"], seats)
    v.one_hot(view["deciding_seat"], seats)
    v.num(view["turn"], view["round"], view["rolled"], view["actions_left"])
    v.one_hot(view["decision"], _TAKENOKO_KINDS)
    v.one_hot(view["weather"], components.WEATHER)
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
        v.counts(player["babies"], components.BABIES)
    v.counts(view["baby_pool"], components.BABIES)
    v.one_hot(view["baby"], components.BABIES)
    v.one_hot(view["emperor"], seats)
    v.one_hot(view["end"], _TAKENOKO_ENDS)
    v.counts(view["hand"], _CARDS)
    v.counts(view["drawn"], _TILE_IDS)
    v.counts(view["cabin"], _CARDS)
    v.places(view["returned_plots"], _TILE_IDS)
    for deck in DECKS:
        v.places(view["returned_cards"][deck], _CARDS)
    return v.out
