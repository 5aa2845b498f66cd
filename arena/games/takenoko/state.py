"""The rules of a Takenoko turn (TAKENOKO.md §3, §4, §6, §7, §9) on the board of board.py.

A turn is a sequence of small decisions, each with its own list of legal moves (§9):
`turn` (D0 before the roll, D3 after: free actions, ROLL, the next action, END), `weather`
(D1), `rain`, `storm`, `clouds` (D2), `plot` (D4) and `return` (the order of the 2 plots
not kept, T9), `gardener` (D5), `panda` (D6), `objective` (D7); with the Chibis option
(§8) also `eat` (the colour eaten on Kami's Garden), `cabin` (the card kept at the
Gardener's Cabin), `baby` (the section paid for a baby panda) and `bonus` (its bonus).
Action codes are indexes into the list of legal moves of the state that listed them (the
game says `stable_action_codes = False`); legal.py lists them, chibis.py holds the
expansion's turn rules.
"""

from __future__ import annotations

import random
from collections.abc import Collection
from typing import Any, Self

from arena.errors import IllegalMoveError
from arena.games.base import Decision, GameState, Move, View
from arena.games.takenoko import chibis, scoring, views
from arena.games.takenoko.board import Board
from arena.games.takenoko.cards import DECK_CARDS, DECKS, OBJECTIVES, deck_of
from arena.games.takenoko.components import (
    BABIES,
    CHANNELS,
    CHIBIS_TILES,
    CHIPS,
    COLOURS,
    ENDING_OBJECTIVES,
    PLOTS,
    TILES,
    WEATHER,
)
from arena.games.takenoko.legal import ACTIONS, LEGAL
from arena.games.takenoko.moves import cell_of, edge_of, index_of, match
from arena.games.takenoko.objectives import Garden, card_met
from arena.games.takenoko.scoring import END_ALL, TURN_LIMIT
from arena.games.takenoko.words import describe
from arena.outcome import Outcome


class TakenokoState(GameState):
    """A position of Takenoko, with its rules; `chibis` adds the expansion's mechanics (§8)
    and `redraw_met_objectives` BGA's redraw rule (T11)."""

    def __init__(
        self,
        num_players: int,
        seed: int,
        max_rounds: int = 100,
        chibis: bool = False,
        redraw_met_objectives: bool = False,
    ) -> None:
        self.num_players = num_players
        self.max_rounds = max_rounds
        self.chibis = chibis
        self.redraw_met_objectives = redraw_met_objectives
        self._set_up(seed)
        self._empty_holdings()
        self.board = Board()
        self.current = 0
        self.turns = 0
        self.rolled = False
        self.face: str | None = None
        """This turn's weather once applied (SUN and WIND change the action rules)."""
        self.rolled_face: str | None = None
        """The face the die showed this turn (CHOICE included), for the narration."""
        self.taken: list[str] = []
        self.pending: str | None = None
        """The decision under way other than the turn decision (a kind of legal.LEGAL), or
        None for the turn decision."""
        self.drawn: list[str] = []
        self.emperor: int | None = None
        self.final_turns = 0
        self.over = False
        self.end: str | None = None
        self._legal: list[Move] | None = None
        self._index: dict[Any, int] | None = None
        self._start_turn()

    def _set_up(self, seed: int) -> None:
        """The random streams of `seed` (§3: one per purpose), the shuffled plot deck and
        objective decks, and each seat's first hand (§3.4: a plot, a gardener and a panda
        card)."""
        setup = random.Random(f"takenoko/{seed}/setup")
        self.die = random.Random(f"takenoko/{seed}/die")
        self.babies_rng = random.Random(f"takenoko/{seed}/babies")
        self.shared_streams: frozenset[str] = frozenset()
        """The random streams this state still shares with a copy (cloned on first use)."""
        tiles = PLOTS + (CHIBIS_TILES if self.chibis else ())
        self.plot_deck = [tile.id for tile in tiles]
        setup.shuffle(self.plot_deck)
        self.decks: dict[str, list[str]] = {}
        for deck in DECKS:
            self.decks[deck] = DECK_CARDS[deck][:]
            setup.shuffle(self.decks[deck])
        self.hands: list[list[str]] = [[] for _ in range(self.num_players)]
        for seat in range(self.num_players):
            for deck in DECKS:
                self.hands[seat].append(self.decks[deck].pop(0))

    def _empty_holdings(self) -> None:
        """What the seats and the supply hold before the first turn: nothing taken yet."""
        num_players = self.num_players
        self.done: list[list[str]] = [[] for _ in range(num_players)]
        self.stomachs: list[dict[str, int]] = [
            dict.fromkeys(COLOURS, 0) for _ in range(num_players)
        ]
        self.reserve_channels = [0] * num_players
        self.reserve_chips: list[dict[str, int]] = [
            dict.fromkeys(CHIPS, 0) for _ in range(num_players)
        ]
        self.chip_supply = dict(CHIPS)
        self.channel_supply = CHANNELS
        self.returned: list[list[str]] = [[] for _ in range(num_players)]
        """The plots and objective cards each seat put under a deck and that have not left it
        since (it knows them; T27): plots returned (T9), cards seen at the Cabin, swapped by
        a baby, redrawn (T11)."""
        self.baby_pool = list(BABIES) if self.chibis else []
        self.babies: list[list[str]] = [[] for _ in range(num_players)]
        self.baby: str | None = None
        """The baby whose bonus is being decided (§8, T17)."""
        self.cabin: list[str] = []
        """The cards the gardener's seat looks at in the Cabin, while it decides (§8)."""
        self.refunds: dict[str, int] = {}
        """T11: the cards each deck gave back to OBJECTIVE this turn."""

    # ------------------------------------------------------------------ copying

    def copy(self) -> Self:
        other = self.__class__.__new__(self.__class__)
        other.__dict__.update(self.__dict__)
        other.shared_streams = self.shared_streams = frozenset(("die", "babies_rng"))
        other.plot_deck = self.plot_deck[:]
        other.decks = {deck: cards[:] for deck, cards in self.decks.items()}
        other.hands = [hand[:] for hand in self.hands]
        other.done = [cards[:] for cards in self.done]
        other.stomachs = [dict(stomach) for stomach in self.stomachs]
        other.reserve_channels = self.reserve_channels[:]
        other.reserve_chips = [dict(chips) for chips in self.reserve_chips]
        other.chip_supply = dict(self.chip_supply)
        other.returned = [cards[:] for cards in self.returned]
        other.baby_pool = self.baby_pool[:]
        other.babies = [babies[:] for babies in self.babies]
        other.cabin = self.cabin[:]
        other.refunds = dict(self.refunds)
        other.board = self.board.copy()
        other.taken = self.taken[:]
        other.drawn = self.drawn[:]
        other._legal = None if self._legal is None else self._legal[:]
        other._index = self._index
        return other

    def random_below(self, stream: str, n: int) -> int:
        """A number below `n` from the stream `die` or `babies_rng` (§3.2), cloned first
        if a copy still shares it."""
        if stream in self.shared_streams:
            clone = random.Random()
            clone.setstate(getattr(self, stream).getstate())
            setattr(self, stream, clone)
            self.shared_streams -= {stream}
        rng: random.Random = getattr(self, stream)
        return rng.randrange(n)

    # ------------------------------------------------------------------ the interface

    @property
    def turn(self) -> int:
        return self.turns

    @property
    def round(self) -> int:
        return self.turns // self.num_players + 1

    def is_over(self) -> bool:
        return self.over

    def decision(self) -> Decision | None:
        if self.over:
            return None
        return Decision(self.current, self.pending or "turn")

    def legal_moves(self) -> list[Move]:
        if self.over:
            return []
        if self._legal is None:  # worked out once per position
            self._legal = LEGAL[self.pending or "turn"](self)
            self._index = None
        return list(self._legal)

    def legal_actions(self) -> list[int]:
        return list(range(len(self.legal_moves())))

    def action_to_move(self, action: int) -> Move:
        return dict(self.legal_moves()[action])

    def move_to_action(self, move: Any) -> int:
        if self.over:
            raise IllegalMoveError("The game is over; no move can be played.")
        self.legal_moves()
        assert self._legal is not None
        if self._index is None:
            self._index = index_of(self._legal)
        return match(move, self._legal, self._index, self.pending or "turn")

    def apply_action(self, action: int) -> None:
        self.legal_moves()
        assert self._legal is not None
        move = self._legal[action]
        self._legal = self._index = None
        self._apply(move)

    def describe_move(self, move: Move) -> str:
        return describe(move, self)

    def view(self, seat: int) -> View:
        return views.view(self, seat)

    def spectator_view(self) -> View:
        return views.spectator_view(self)

    def public_view(self) -> View:
        return views.public_view(self)

    # ------------------------------------------------------------------ objectives

    def garden(self) -> Garden:
        """The board as the objectives read it, indexed (each of Kami's stacks a bamboo, T18)."""
        board = self.board
        return board.memo("garden", lambda: Garden(board.tiles))

    def cards_met(self) -> list[list[str]]:
        """The cards of each seat's hand that are met as the position stands."""
        garden = self.garden()
        return [
            [card for card in hand if self.met(card, seat, garden)]
            for seat, hand in enumerate(self.hands)
        ]

    def met(self, card: str, seat: int, garden: Garden | None = None) -> bool:
        """Whether the condition of `card` holds now for `seat` (§6)."""
        return card_met(card, self.stomachs[seat], self.board.tiles if garden is None else garden)

    def score(self, seat: int) -> int:
        return scoring.score(self, seat)

    def scores(self) -> tuple[int, ...]:
        return tuple(self.score(seat) for seat in range(self.num_players))

    def panda_points(self, seat: int) -> int:
        return scoring.panda_points(self, seat)

    def outcome(self) -> Outcome:
        return scoring.outcome(self)

    # ------------------------------------------------------------------ the turn

    def _start_turn(self) -> None:
        if self.round > self.max_rounds:
            self.over, self.end = True, TURN_LIMIT  # T14
            return
        self.rolled = self.round == 1  # §4: no weather in round 1 (T12)
        self.face = self.rolled_face = None
        self.taken = []
        self.pending = None
        self.refunds = {}

    def action_limit(self) -> int:
        """Actions this turn: 2, or 3 with the SUN (§2.7)."""
        return 3 if self.face == "SUN" else 2

    def _apply(self, move: Move) -> None:
        action = move["action"]
        self.pending = None  # a move settles its decision; some open the next one
        seat = self.current
        if action == "complete":
            self._complete(move["card"])
        elif action == "chip":
            self.reserve_chips[seat][move["kind"]] -= 1
            self.board.place_chip(cell_of(move["to"]), move["kind"])
        elif action == "channel":
            self.reserve_channels[seat] -= 1
            self.board.place_channel(edge_of(move["edge"]))
        elif action == "roll":
            self.rolled_face = WEATHER[self.random_below("die", 6)]
            self._weather(self.rolled_face)
        elif action == "weather":
            self._weather(move["face"])
        elif action == "rain":
            self.board.grow(cell_of(move["to"]), move.get("colour"))
        elif action in ("storm", "move_panda"):
            to = cell_of(move["to"])
            if action == "storm":
                self.board.panda = to  # T7: anywhere but where it stands
            else:
                self.board.move_panda(to)
            self._panda_stops()
        elif action in ("storm_miss_panda", "move_miss_panda"):
            to = cell_of(move["to"])
            if action == "storm_miss_panda":
                self.board.miss_panda = to
            else:
                self.board.move_miss_panda(to)
            chibis.meet(self)
        elif action == "eat":
            self._eat(self.board.eat(self.board.panda, move["colour"]))
        elif action == "clouds":
            self.chip_supply[move["kind"]] -= 1
            self.reserve_chips[seat][move["kind"]] += 1
        elif action == "end":
            self._end_turn()
        elif action in ACTIONS:
            self._act(action)
        elif action == "place":
            self._place(move)
        elif action == "return":
            self._return(list(move["order"]))
        elif action == "move_gardener":
            self.board.move_gardener(cell_of(move["to"]))
            chibis.open_cabin(self)
        elif action == "draw":
            self._draw_objective(move["deck"])
        elif action == "keep":
            chibis.keep(self, move.get("card"))
        elif action == "baby":
            chibis.adopt(self, move["colour"])
        elif action.startswith("baby_"):
            chibis.use_bonus(self, move)
        elif action != "skip":
            raise IllegalMoveError(f"{action!r} is not a Takenoko move.")

    def _weather(self, face: str) -> None:
        """§2.7: apply a face; CHOICE (and CLOUDS with no chip left) asks for a face."""
        self.rolled = True
        supply = any(self.chip_supply.values())
        if face == "CHOICE" or (face == "CLOUDS" and not supply):
            self.pending = "weather"
            return
        self.face = face
        self.pending = {"RAIN": "rain", "STORM": "storm", "CLOUDS": "clouds"}.get(face)

    def _act(self, kind: str) -> None:
        """Take an action of `kind` (§4): IRRIGATION at once, the others ask what to do."""
        self.taken.append(kind)
        if kind == "irrigation":
            self.channel_supply -= 1
            self.reserve_channels[self.current] += 1
            return
        if kind == "plot":
            self.drawn = self.plot_deck[:3]
            del self.plot_deck[:3]
            self.forget(self.drawn)
        self.pending = kind

    def _place(self, move: Move) -> None:
        """D4: the tile kept goes on the board (with a chip from the reserve, T6); a Chibis
        tile brings Miss Panda (§8, T21: no baby); the rest are returned (T9, T23)."""
        chosen = move["plot"]
        tile = TILES[chosen]
        chip = move.get("chip")
        if chip is not None:
            self.reserve_chips[self.current][chip] -= 1
        cell = cell_of(move["to"])
        self.board.place(cell, tile.colour, tile.improvement or chip, chosen, tile.kind)
        if chosen.startswith("CX"):
            self.board.miss_panda = cell
        self.drawn = [plot_id for plot_id in self.drawn if plot_id != chosen]
        if len(self.drawn) > 1:  # T9: the player orders the plots it returns
            self.pending = "return"
            return
        self._return(self.drawn)

    def _return(self, plots: list[str]) -> None:
        """T9, T33: the plots not kept go under the deck, the first named first."""
        self.plot_deck.extend(plots)
        self.returned[self.current].extend(plots)
        self.drawn = []

    def _draw_objective(self, deck: str) -> None:
        """D7: the top card of `deck` into the hand; with T11's rule, a plot or gardener
        card that already holds goes under its deck and the action is refunded."""
        seat = self.current
        card = self.draw_card(deck)
        if self.redraw_met_objectives and deck != "panda" and self.met(card, seat):
            self.put_under(card)
            self.refunds[deck] = self.refunds.get(deck, 0) + 1
            self.taken.remove("objective")
            return
        self.hands[seat].append(card)

    def _panda_stops(self) -> None:
        """§5.6: the panda has stopped; it eats, or the player picks a stack (T18). The one
        place the panda eats, after a move and after a STORM alike."""
        colours = self.board.edible(self.board.panda)
        if len(colours) == 1:
            self._eat(self.board.eat(self.board.panda, colours[0]))
        elif colours:
            self.pending = "eat"

    def _eat(self, colour: str | None) -> None:
        if colour is not None:
            self.stomachs[self.current][colour] += 1  # §5.6: the active player's stomach

    def put_under(self, card: str) -> None:
        """An objective card goes under its own deck; the seat to move knows it is there
        (T27, T29)."""
        self.decks[deck_of(card)].append(card)
        self.returned[self.current].append(card)

    def draw_card(self, deck: str) -> str:
        """The top card of the objective deck `deck`, taken off it (T27: forgotten)."""
        card = self.decks[deck].pop(0)
        self.forget((card,))
        return card

    def forget(self, taken: Collection[str]) -> None:
        """T27: plots or cards taken off a deck are forgotten by every seat that put them
        under it, so that a later return of them shows only in the returner's view."""
        for seat, known in enumerate(self.returned):
            if known:
                self.returned[seat] = [item for item in known if item not in taken]

    def _complete(self, card: str) -> None:
        """§6: score a hand card whose condition holds; panda cards pay their sections."""
        seat = self.current
        self.hands[seat].remove(card)
        self.done[seat].append(card)
        if deck_of(card) == "panda":
            for colour in OBJECTIVES[card].sections:
                self.stomachs[seat][colour] -= 1
        if self.emperor is None and len(self.done[seat]) >= ENDING_OBJECTIVES[self.num_players]:
            self.emperor = seat  # §7: the first to reach it takes the Emperor
            self.final_turns = self.num_players - 1

    def _end_turn(self) -> None:
        """§7: after the Emperor, every other seat plays one more turn, then the end."""
        seat = self.current
        if self.emperor is not None and self.emperor != seat:
            self.final_turns -= 1
        self.turns += 1
        if self.emperor is not None and self.final_turns <= 0:
            self.over, self.end = True, END_ALL
            return
        self.current = (seat + 1) % self.num_players
        self._start_turn()
