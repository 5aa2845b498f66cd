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
from typing import Any, NamedTuple

from arena.games.base import GameState, View
from arena.games.determinize import Sampler
from arena.games.takenoko.board import Board, Placed
from arena.games.takenoko.cards import DECK_CARDS, DECKS
from arena.games.takenoko.components import CHIBIS_TILES, PLOTS
from arena.games.takenoko.moves import cell_of, edge_of
from arena.games.takenoko.state import TakenokoState

__all__ = ["TakenokoDeterminizer", "determinize", "redeal"]

OPTIONS = ("chibis", "redraw_met_objectives")
"""The options a configuration may set over the view's."""


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


class Sizes(NamedTuple):
    """What a seat has not seen, by size: each objective deck's and each hand's (the
    cards themselves are those in no deck, hand or pile the seat can see)."""

    decks: Mapping[str, int]
    hands: list[int]


def determinize(
    view: View, rng: random.Random, max_rounds: int = 100, **options: bool
) -> TakenokoState:
    """A state consistent with `view` (`state.view(seat) == view`), its hidden cards and
    deck orders dealt at random. ValueError when the view does not add up."""
    return _SAMPLER.determinize(view, rng, {"max_rounds": max_rounds, **options})


def redeal(state: TakenokoState, seat: int, rng: random.Random) -> None:
    """Deal again, in place, the other hands, the decks' orders and the unknown plots."""
    _SAMPLER.redeal(state, seat, rng)


def _show(state: TakenokoState, view: View) -> Sizes:
    """Set what `view` shows in `state`; the sizes of what its seat has not seen."""
    seat = int(view["seat"])
    players = view["players"]
    state.board = _board(view["board"])
    _show_turn(state, view)
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
    # it knows them (under the rest, in order), the others (shuffled by `_deal`) above them.
    tiles = PLOTS + (CHIBIS_TILES if state.chibis else ())
    placed = {tile.plot for tile in state.board.tiles.values()} | set(state.drawn)
    known = list(view["returned_plots"])
    rest = [tile.id for tile in tiles if tile.id not in placed and tile.id not in known]
    if len(rest) + len(known) != int(view["plot_deck"]):
        raise ValueError(f"The view's plot deck does not add up to {len(tiles)} tiles.")
    state.plot_deck = rest + known
    state.decks = {deck: list(known_cards.get(deck, [])) for deck in DECKS}
    return Sizes(
        {deck: int(view["objective_decks"][deck]) for deck in DECKS},
        [int(player["hand_size"]) for player in players],
    )


def _show_turn(state: TakenokoState, view: View) -> None:
    """The turn under way, the decision, the supply and the end, as the view shows them."""
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


def _deal_hidden(state: TakenokoState, seat: int, sizes: Sizes, rng: random.Random) -> None:
    """Shuffle the plots `seat` did not return (above the ones it did, T27), then deal the
    cards it has not seen."""
    mine = set(state.returned[seat])  # all still under a deck: T27 forgets what leaves one
    known = [p for p in state.plot_deck if p in mine]
    rest = [p for p in state.plot_deck if p not in mine]
    rng.shuffle(rest)
    state.plot_deck = rest + known
    _deal(state, seat, sizes.decks, sizes.hands, rng)


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


class TakenokoDeterminizer(Sampler[TakenokoState, Sizes]):
    """Takenoko's sampling of hidden information, for game-neutral search bots."""

    state_type = TakenokoState

    def fresh(self, view: View, seed: int, config: Mapping[str, Any]) -> TakenokoState:
        chosen = {key: bool(config[key]) for key in OPTIONS if key in config}
        shown = {**view.get("options", {}), **chosen}
        return TakenokoState(
            len(view["players"]),
            seed,
            int(config.get("max_rounds", 100)),
            chibis=bool(shown.get("chibis")),
            redraw_met_objectives=bool(shown.get("redraw_met_objectives")),
        )

    def show(self, state: TakenokoState, view: View) -> Sizes:
        return _show(state, view)

    def deal(self, state: TakenokoState, seat: int, unseen: Sizes, rng: random.Random) -> None:
        _deal_hidden(state, seat, unseen, rng)

    def settle(self, state: TakenokoState, view: View) -> None:
        state._legal = state._index = None

    def pool(self, state: TakenokoState, seat: int) -> Sizes:
        return Sizes(
            {deck: len(cards) for deck, cards in state.decks.items()},
            [len(hand) for hand in state.hands],
        )

    def redeal(self, state: GameState, seat: int, rng: random.Random) -> None:
        """Deal again (see `Sampler.redeal`), then give the state a new die and babies."""
        super().redeal(state, seat, rng)
        assert isinstance(state, TakenokoState)
        state.die = random.Random(rng.getrandbits(62))
        state.babies_rng = random.Random(rng.getrandbits(62))
        state.shared_streams = frozenset()
        state._legal = state._index = None


_SAMPLER = TakenokoDeterminizer()
