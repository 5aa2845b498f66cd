"""Build a whole `TakenokoState` from one seat's view, sampling what that seat cannot see.

Hidden from a seat (docs/rules/takenoko.md): the cards in the other hands, the order of the
objective decks, the order of the plot deck. A seat knows the plots and cards it put under a
deck itself (`returned_plots`, `returned_cards`, T27): those stay, in their order, under the
others. `determinize` deals the rest at random, keeping every size the view shows: each deck
keeps its kind and size, and the cards of each kind that are in no deck are the ones the
other hands hold. Every sample gets a new die and a new draw of the babies, so a search never
learns a real future roll or baby.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from arena.games.base import Determinizer, GameState, View
from arena.games.takenoko.board import Board, Placed
from arena.games.takenoko.cards import DECK_CARDS, DECKS
from arena.games.takenoko.components import CHIBIS_TILES, PLOTS
from arena.games.takenoko.moves import cell_of, edge_of
from arena.games.takenoko.state import TakenokoState

__all__ = ["TakenokoDeterminizer", "determinize", "redeal"]


def _board(shown: View) -> Board:
    board = Board(tiles={}, channels=set())
    for tile in shown["tiles"]:
        stacks = tile.get("stacks")
        board.tiles[cell_of(tile["at"])] = Placed(
            tile["colour"],
            tile["improvement"],
            plot=tile.get("plot"),
            height=0 if stacks is not None else int(tile["bamboo"]),
            irrigated=bool(tile["irrigated"]),
            kind=str(tile["kind"]),
            stacks=None if stacks is None else {str(c): int(h) for c, h in stacks.items()},
        )
    board.channels = {edge_of(channel) for channel in shown["channels"]}
    board.gardener = cell_of(shown["gardener"])
    board.panda = cell_of(shown["panda"])
    miss_panda = shown.get("miss_panda")
    board.miss_panda = None if miss_panda is None else cell_of(miss_panda)
    board.changed(wet=True)  # tiles and channels set directly: no memo may predate them
    return board


def determinize(
    view: View, rng: random.Random, max_rounds: int = 100, **options: bool
) -> TakenokoState:
    """A state consistent with `view` (`state.view(seat) == view`), its hidden cards and
    deck orders dealt at random. ValueError when the view does not add up."""
    seat = int(view["seat"])
    players = view["players"]
    shown = {**view.get("options", {}), **options}
    state = TakenokoState(
        len(players),
        rng.getrandbits(62),
        max_rounds,
        chibis=bool(shown.get("chibis")),
        redraw_met_objectives=bool(shown.get("redraw_met_objectives")),
    )
    state.board = board = _board(view["board"])
    state.turns = int(view["turn"])
    state.current = int(view["to_move"])
    state.rolled = bool(view["rolled"])
    state.face = view["weather"]
    state.taken = list(view["actions_taken"])
    kind = view["decision"]
    state.pending = None if kind in (None, "turn") else kind
    state.drawn = list(view["drawn"])
    state.cabin = list(view.get("cabin", []))
    state.refunds = dict(view.get("objective_refunds", {}))
    state.emperor = view["emperor"]
    state.final_turns = int(view["final_turns"])
    state.end = view["end"]
    state.over = kind is None
    state.chip_supply = dict(view["chip_supply"])
    state.channel_supply = int(view["channel_supply"])
    state.baby_pool = list(view.get("baby_pool", []))
    state.baby = view.get("baby")
    for s, player in enumerate(players):
        state.done[s] = list(player["completed"])
        state.stomachs[s] = dict(player["stomach"])
        state.reserve_channels[s] = int(player["channels"])
        state.reserve_chips[s] = dict(player["chips"])
        state.babies[s] = list(player.get("babies", []))
    state.hands = [[] for _ in players]
    state.hands[seat] = list(view["hand"])
    known_cards = view.get("returned_cards", {})
    state.returned = [[] for _ in players]
    state.returned[seat] = list(view["returned_plots"]) + [
        card for deck in DECKS for card in known_cards.get(deck, [])
    ]
    # The plot deck: every tile not on the board nor drawn; the seat's returned plots where
    # it knows them (under the rest, in order), the others shuffled above them.
    tiles = PLOTS + (CHIBIS_TILES if state.chibis else ())
    placed = {tile.plot for tile in board.tiles.values()} | set(state.drawn)
    known = list(view["returned_plots"])
    rest = [tile.id for tile in tiles if tile.id not in placed and tile.id not in known]
    if len(rest) + len(known) != int(view["plot_deck"]):
        raise ValueError(f"The view's plot deck does not add up to {len(tiles)} tiles.")
    rng.shuffle(rest)
    state.plot_deck = rest + known
    state.decks = {deck: list(known_cards.get(deck, [])) for deck in DECKS}
    sizes = {deck: int(view["objective_decks"][deck]) for deck in DECKS}
    hand_sizes = [int(player["hand_size"]) for player in players]
    _deal(state, seat, sizes, hand_sizes, rng)
    state._legal = state._index = None
    return state


def _deal(
    state: TakenokoState,
    seat: int,
    sizes: Mapping[str, int],
    hand_sizes: list[int],
    rng: random.Random,
) -> None:
    """Deal the cards `seat` has not seen: each deck its size of its own kind (the cards
    the seat put under it at the bottom, in order), the rest to the other hands, at random."""
    known = set(state.returned[seat])
    seen = set(state.hands[seat]) | set(state.cabin) | known
    seen |= {card for done in state.done for card in done}
    others: list[str] = []
    for deck in DECKS:
        bottom = [card for card in state.decks[deck] if card in known]
        unseen = [card for card in DECK_CARDS[deck] if card not in seen]
        rng.shuffle(unseen)
        room = sizes[deck] - len(bottom)
        if room < 0 or len(unseen) < room:
            raise ValueError(f"The view's {deck} deck does not add up.")
        state.decks[deck] = unseen[:room] + bottom
        others += unseen[room:]
    rng.shuffle(others)
    for s, size in enumerate(hand_sizes):
        if s != seat:
            state.hands[s] = [others.pop() for _ in range(size)]
    if others:
        raise ValueError("The view's hands do not add up.")


def redeal(state: TakenokoState, seat: int, rng: random.Random) -> None:
    """Deal again, in place, the other hands, the decks' orders and the unknown plots."""
    sizes = {deck: len(cards) for deck, cards in state.decks.items()}
    hand_sizes = [len(hand) for hand in state.hands]
    mine = set(state.returned[seat])  # all still under a deck: T27 forgets what leaves one
    known = [p for p in state.plot_deck if p in mine]
    rest = [p for p in state.plot_deck if p not in mine]
    rng.shuffle(rest)
    state.plot_deck = rest + known
    _deal(state, seat, sizes, hand_sizes, rng)
    state.die = random.Random(rng.getrandbits(62))
    state.babies_rng = random.Random(rng.getrandbits(62))
    state.shared_streams = frozenset()
    state._legal = state._index = None


class TakenokoDeterminizer(Determinizer):
    """Takenoko's sampling of hidden information, for game-neutral search bots."""

    def determinize(self, view: View, rng: random.Random, config: Mapping[str, Any]) -> GameState:
        return determinize(
            view,
            rng,
            int(config.get("max_rounds", 100)),
            **{
                key: bool(config[key])
                for key in ("chibis", "redraw_met_objectives")
                if key in config
            },
        )

    def redeal(self, state: GameState, seat: int, rng: random.Random) -> None:
        assert isinstance(state, TakenokoState)
        redeal(state, seat, rng)
