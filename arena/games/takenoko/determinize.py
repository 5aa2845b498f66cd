"""Build a whole `TakenokoState` from one seat's view, sampling what that seat cannot see.

Hidden from a seat (TAKENOKO.md §7): the cards in the other hands, the order of the
objective decks, the order of the plot deck (except the plots it put under the deck itself:
`returned_plots`, T27). `determinize` deals those at random, keeping every size the view
shows: each deck keeps its kind and size, and the cards of each kind that are in no deck
are the ones the other hands hold. Every sample gets a new die, so a search never learns a
real future roll.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from arena.games.base import Determinizer, GameState, View
from arena.games.takenoko.board import Board, Placed
from arena.games.takenoko.components import PLOTS
from arena.games.takenoko.state import DECK_CARDS, DECKS, TakenokoState

__all__ = ["TakenokoDeterminizer", "determinize", "redeal"]


def determinize(view: View, rng: random.Random, max_rounds: int = 100) -> TakenokoState:
    """A state consistent with `view` (`state.view(seat) == view`), its hidden cards and
    deck orders dealt at random. ValueError when the view does not add up."""
    seat = int(view["seat"])
    players = view["players"]
    state = TakenokoState(len(players), rng.getrandbits(62), max_rounds)
    board = Board(tiles={}, channels=set())
    for tile in view["board"]["tiles"]:
        cell = (int(tile["at"][0]), int(tile["at"][1]))
        board.tiles[cell] = Placed(
            tile["colour"],
            tile["improvement"],
            plot=tile.get("plot"),
            height=int(tile["bamboo"]),
            irrigated=bool(tile["irrigated"]),
        )
    for a, b in view["board"]["channels"]:
        board.channels.add(frozenset(((a[0], a[1]), (b[0], b[1]))))
    board.gardener = (view["board"]["gardener"][0], view["board"]["gardener"][1])
    board.panda = (view["board"]["panda"][0], view["board"]["panda"][1])
    state.board = board
    state.turns = int(view["turn"])
    state.current = int(view["to_move"])
    state.rolled = bool(view["rolled"])
    state.face = view["weather"]
    state.taken = list(view["actions_taken"])
    kind = view["decision"]
    state.pending = None if kind in (None, "turn") else kind
    state.drawn = list(view["drawn"])
    state.emperor = view["emperor"]
    state.final_turns = int(view["final_turns"])
    state.end = view["end"]
    state.over = kind is None
    state.chip_supply = dict(view["chip_supply"])
    state.channel_supply = int(view["channel_supply"])
    for s, player in enumerate(players):
        state.done[s] = list(player["completed"])
        state.stomachs[s] = dict(player["stomach"])
        state.reserve_channels[s] = int(player["channels"])
        state.reserve_chips[s] = dict(player["chips"])
    state.hands = [[] for _ in players]
    state.hands[seat] = list(view["hand"])
    state.returned = [[] for _ in players]
    state.returned[seat] = list(view["returned_plots"])
    # The plot deck: every plot not on the board nor drawn; the seat's returned plots where
    # it knows them (under the rest, in order), the others shuffled above them.
    placed = {tile.plot for tile in board.tiles.values()} | set(state.drawn)
    rest = [
        plot.id for plot in PLOTS if plot.id not in placed and plot.id not in state.returned[seat]
    ]
    if len(rest) + len(state.returned[seat]) != int(view["plot_deck"]):
        raise ValueError("The view's plot deck does not add up to 27 plots.")
    rng.shuffle(rest)
    state.plot_deck = rest + state.returned[seat]
    state.decks = {deck: [] for deck in DECKS}
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
    """Deal the cards `seat` has not seen: each deck its size of its own kind, the rest to
    the other hands (their sizes), at random."""
    seen = set(state.hands[seat]) | {card for done in state.done for card in done}
    others: list[str] = []
    for deck in DECKS:
        unseen = [card for card in DECK_CARDS[deck] if card not in seen]
        rng.shuffle(unseen)
        if len(unseen) < sizes[deck]:
            raise ValueError(f"The view's {deck} deck does not add up.")
        state.decks[deck] = unseen[: sizes[deck]]
        others += unseen[sizes[deck] :]
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
    known = [p for p in state.plot_deck if p in state.returned[seat]]
    rest = [p for p in state.plot_deck if p not in state.returned[seat]]
    rng.shuffle(rest)
    state.plot_deck = rest + known
    _deal(state, seat, sizes, hand_sizes, rng)
    state.die = random.Random(rng.getrandbits(62))
    state.die_shared = False
    state._legal = state._index = None


class TakenokoDeterminizer(Determinizer):
    """Takenoko's sampling of hidden information, for game-neutral search bots."""

    def determinize(self, view: View, rng: random.Random, config: Mapping[str, Any]) -> GameState:
        return determinize(view, rng, int(config.get("max_rounds", 100)))

    def redeal(self, state: GameState, seat: int, rng: random.Random) -> None:
        assert isinstance(state, TakenokoState)
        redeal(state, seat, rng)
