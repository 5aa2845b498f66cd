"""The rules of a Takenoko turn (TAKENOKO.md §3, §4, §6, §7, §9) on the board of board.py.

A turn is a sequence of small decisions, each with its own list of legal moves (§9):
`turn` (D0 before the roll, D3 after: free actions, ROLL, the next action, END), `weather`
(D1), `rain`, `storm`, `clouds` (D2), `plot` (D4) and `return` (the order of the 2 plots
not kept, T9), `gardener` (D5), `panda` (D6), `objective` (D7). Action codes are indexes into the list of legal moves of the state that
listed them (the game says `stable_action_codes = False`).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any, Self

from arena.errors import GameError, IllegalMoveError
from arena.games.base import Decision, GameState, Move, View
from arena.games.takenoko import views
from arena.games.takenoko.board import Board
from arena.games.takenoko.components import (
    CHANNELS,
    CHIPS,
    COLOURS,
    EMPEROR_POINTS,
    ENDING_OBJECTIVES,
    GARDENER_OBJECTIVES,
    HAND_LIMIT,
    MAX_HEIGHT,
    PANDA_OBJECTIVES,
    PLOT_OBJECTIVES,
    PLOTS,
    WEATHER,
)
from arena.games.takenoko.moves import cell_of, describe, edge_of, index_of, match
from arena.games.takenoko.objectives import (
    Tile,
    gardener_objective_met,
    panda_objective_met,
    plot_objective_met,
)
from arena.outcome import Outcome, Termination

PLOT_BY_ID = {plot.id: plot for plot in PLOTS}
OBJECTIVES: dict[str, Any] = {
    **{o.id: o for o in PLOT_OBJECTIVES},
    **{o.id: o for o in GARDENER_OBJECTIVES},
    **{o.id: o for o in PANDA_OBJECTIVES},
}
DECK_CARDS: dict[str, list[str]] = {
    "plot": [o.id for o in PLOT_OBJECTIVES],
    "gardener": [o.id for o in GARDENER_OBJECTIVES],
    "panda": [o.id for o in PANDA_OBJECTIVES],
}
DECKS = ("plot", "gardener", "panda")
"""The three objective decks, by the kind of their cards."""
ACTIONS = ("plot", "irrigation", "gardener", "panda", "objective")
"""The five action kinds (§4)."""
END_ALL = "all_objectives"
"""The game's normal end (§7): the last turns after the Emperor were played."""
TURN_LIMIT = "turn_limit"


def _deck_of(card: str) -> str:
    return {"PL": "plot", "GA": "gardener", "PA": "panda"}[card[:2]]


class TakenokoState(GameState):
    """A position of Takenoko (base game), with its rules."""

    def __init__(self, num_players: int, seed: int, max_rounds: int = 100) -> None:
        self.num_players = num_players
        self.max_rounds = max_rounds
        setup = random.Random(f"takenoko/{seed}/setup")  # §3: one stream per purpose
        self.die = random.Random(f"takenoko/{seed}/die")
        self.die_shared = False
        self.plot_deck = [plot.id for plot in PLOTS]
        setup.shuffle(self.plot_deck)
        self.decks: dict[str, list[str]] = {}
        for deck in DECKS:
            self.decks[deck] = DECK_CARDS[deck][:]
            setup.shuffle(self.decks[deck])
        self.hands: list[list[str]] = [[] for _ in range(num_players)]
        for seat in range(num_players):  # §3.4: a plot, a gardener and a panda card each
            for deck in DECKS:
                self.hands[seat].append(self.decks[deck].pop(0))
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
        """The plots each seat put under the deck (it knows them; perfect recall)."""
        self.board = Board()
        self.current = 0
        self.turns = 0
        self.passes = 0
        self.rolled = False
        self.face: str | None = None
        """This turn's weather once applied (SUN and WIND change the action rules)."""
        self.taken: list[str] = []
        self.pending: str | None = None
        """A sub-decision under way (weather, rain, storm, clouds, plot, gardener, panda,
        objective), or None for the turn decision."""
        self.drawn: list[str] = []
        self.emperor: int | None = None
        self.final_turns = 0
        self.over = False
        self.end: str | None = None
        self.log: list[str] = []
        self._legal: list[Move] | None = None
        self._index: dict[Any, int] | None = None
        self._start_turn()

    # ------------------------------------------------------------------ copying

    def copy(self) -> Self:
        other = self.__class__.__new__(self.__class__)
        other.__dict__.update(self.__dict__)
        other.die_shared = self.die_shared = True
        other.plot_deck = self.plot_deck[:]
        other.decks = {deck: cards[:] for deck, cards in self.decks.items()}
        other.hands = [hand[:] for hand in self.hands]
        other.done = [cards[:] for cards in self.done]
        other.stomachs = [dict(stomach) for stomach in self.stomachs]
        other.reserve_channels = self.reserve_channels[:]
        other.reserve_chips = [dict(chips) for chips in self.reserve_chips]
        other.chip_supply = dict(self.chip_supply)
        other.returned = [cards[:] for cards in self.returned]
        board = self.board
        other.board = Board(
            {cell: replace(tile) for cell, tile in board.tiles.items()},
            set(board.channels),
            board.gardener,
            board.panda,
        )
        other.taken = self.taken[:]
        other.drawn = self.drawn[:]
        other.log = self.log[:]
        other._legal = None if self._legal is None else self._legal[:]
        other._index = self._index
        return other

    def _roll(self) -> int:
        if self.die_shared:
            die = random.Random()
            die.setstate(self.die.getstate())
            self.die, self.die_shared = die, False
        return self.die.randrange(6)

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
            self._legal = _LEGAL[self.pending or "turn"](self)
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
        return describe(move)

    def view(self, seat: int) -> View:
        return views.view(self, seat)

    def spectator_view(self) -> View:
        return views.spectator_view(self)

    # ------------------------------------------------------------------ objectives

    def tiles(self) -> dict[tuple[int, int], Tile]:
        """The board as the objectives see it."""
        return {
            cell: Tile(
                frozenset() if t.colour is None else frozenset({t.colour}),
                t.irrigated,
                {} if t.colour is None else {t.colour: t.height},
                t.improvement,
            )
            for cell, t in self.board.tiles.items()
        }

    def met(self, card: str, seat: int, tiles: dict[tuple[int, int], Tile] | None = None) -> bool:
        """Whether the condition of `card` holds now for `seat` (§6)."""
        objective = OBJECTIVES[card]
        kind = _deck_of(card)
        if kind == "panda":
            return panda_objective_met(self.stomachs[seat], objective)
        board = self.tiles() if tiles is None else tiles
        if kind == "plot":
            return plot_objective_met(board, objective)
        return gardener_objective_met(board, objective)

    def score(self, seat: int) -> int:
        """§7: completed cards, and the Emperor."""
        points = sum(int(OBJECTIVES[card].points) for card in self.done[seat])
        return points + (EMPEROR_POINTS if self.emperor == seat else 0)

    def scores(self) -> tuple[int, ...]:
        return tuple(self.score(seat) for seat in range(self.num_players))

    def panda_points(self, seat: int) -> int:
        return sum(int(OBJECTIVES[c].points) for c in self.done[seat] if _deck_of(c) == "panda")

    def outcome(self) -> Outcome:
        if not self.over or self.end is None:
            raise GameError("The game is not over yet, so it has no result.")
        keys = [(self.score(s), self.panda_points(s)) for s in range(self.num_players)]
        ranks = tuple(sum(other > mine for other in keys) for mine in keys)
        limited = self.end == TURN_LIMIT
        reason = (
            f"The game reached the cap of {self.max_rounds} rounds (T14)."
            if limited
            else f"Seat {self.emperor} took the Emperor; every other seat played its last "
            f"turn (turn {self.turns}, §7)."
        )
        return Outcome(
            scores=self.scores(),
            ranks=ranks,
            termination=Termination.TURN_LIMIT if limited else Termination.NORMAL,
            end=None if limited else self.end,
            reason=reason,
            details={"panda_points": [key[1] for key in keys], "emperor": self.emperor},
        )

    # ------------------------------------------------------------------ the turn

    def _start_turn(self) -> None:
        if self.round > self.max_rounds:
            self.over, self.end = True, TURN_LIMIT  # T14
            return
        self.rolled = self.round == 1  # §4: no weather in round 1 (T12)
        self.face = None
        self.taken = []
        self.pending = None

    def action_limit(self) -> int:
        """Actions this turn: 2, or 3 with the SUN (§2.7)."""
        return 3 if self.face == "SUN" else 2

    def action_kinds(self) -> list[str]:
        """The action kinds the seat may take next (§4), in the order of ACTIONS."""
        if not self.rolled or len(self.taken) >= self.action_limit():
            return []
        seat = self.current
        ready = {
            "plot": bool(self.plot_deck),
            "irrigation": self.channel_supply > 0,
            "gardener": bool(self.board.destinations(self.board.gardener)),
            "panda": bool(self.board.destinations(self.board.panda)),
            "objective": len(self.hands[seat]) < HAND_LIMIT
            and any(self.decks[deck] for deck in DECKS),
        }
        distinct = self.face != "WIND"
        return [k for k in ACTIONS if ready[k] and not (distinct and k in self.taken)]

    def owes_action(self) -> bool:
        """T8: the 2 base actions are due while a legal one exists (SUN's third is not)."""
        return len(self.taken) < 2 and bool(self.action_kinds())

    def _apply(self, move: Move) -> None:
        action = move["action"]
        self.log.append(describe(move))
        if action == "complete":
            self._complete(move["card"])
        elif action == "chip":
            self.reserve_chips[self.current][move["kind"]] -= 1
            self.board.place_chip(cell_of(move["to"]), move["kind"])
        elif action == "channel":
            self.reserve_channels[self.current] -= 1
            self.board.place_channel(edge_of(move["edge"]))
        elif action == "roll":
            self._weather(WEATHER[self._roll()])
        elif action == "weather":
            self._weather(move["face"])
        elif action == "skip":
            self.pending = None
        elif action == "rain":
            self.board.grow(cell_of(move["to"]))
            self.pending = None
        elif action == "storm":
            self._eat(self.board.set_panda(cell_of(move["to"])))
            self.pending = None
        elif action == "clouds":
            self.chip_supply[move["kind"]] -= 1
            self.reserve_chips[self.current][move["kind"]] += 1
            self.pending = None
        elif action == "end":
            self._end_turn()
        elif action in ACTIONS:
            self._act(action)
        else:
            self._resolve(move)

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
        self.pending = kind

    def _resolve(self, move: Move) -> None:
        """The sub-decision of an action: where the plot goes, where a figure moves, which
        deck a card comes from."""
        action = move["action"]
        seat = self.current
        if action == "place":
            chosen = move["plot"]
            plot = PLOT_BY_ID[chosen]
            chip = move.get("chip")
            if chip is not None:  # T6: a chip before the first irrigation
                self.reserve_chips[seat][chip] -= 1
            self.board.place(cell_of(move["to"]), plot.colour, plot.improvement or chip, chosen)
            self.drawn = [plot_id for plot_id in self.drawn if plot_id != chosen]
            if len(self.drawn) > 1:  # T9: the player orders the plots it returns
                self.pending = "return"
                return
            self._return(self.drawn)
        elif action == "return":
            self._return(list(move["order"]))
        elif action == "move_gardener":
            self.board.move_gardener(cell_of(move["to"]))
        elif action == "move_panda":
            self._eat(self.board.move_panda(cell_of(move["to"])))
        elif action == "draw":
            self.hands[seat].append(self.decks[move["deck"]].pop(0))
        self.pending = None

    def _return(self, plots: list[str]) -> None:
        """T9: the plots not kept go under the deck, the first named first."""
        self.plot_deck.extend(plots)
        self.returned[self.current].extend(plots)
        self.drawn = []

    def _eat(self, colour: str | None) -> None:
        if colour is not None:
            self.stomachs[self.current][colour] += 1  # §5.6: the active player's stomach

    def _complete(self, card: str) -> None:
        """§6: score a hand card whose condition holds; panda cards pay their sections."""
        seat = self.current
        self.hands[seat].remove(card)
        self.done[seat].append(card)
        if _deck_of(card) == "panda":
            for colour in OBJECTIVES[card].sections:
                self.stomachs[seat][colour] -= 1
        if self.emperor is None and len(self.done[seat]) >= ENDING_OBJECTIVES[self.num_players]:
            self.emperor = seat  # §7: the first to reach it takes the Emperor
            self.final_turns = self.num_players - 1

    def _end_turn(self) -> None:
        """§7: after the Emperor, every other seat plays one more turn, then the end."""
        seat = self.current
        for plot_id in list(self.returned[seat]):
            if plot_id not in self.plot_deck:
                self.returned[seat].remove(plot_id)
        if self.emperor is not None and self.emperor != seat:
            self.final_turns -= 1
        self.turns += 1
        if self.emperor is not None and self.final_turns <= 0:
            self.over, self.end = True, END_ALL
            return
        self.current = (seat + 1) % self.num_players
        self._start_turn()


# ---------------------------------------------------------------------- legal moves


def _cell(cell: tuple[int, int]) -> list[int]:
    return [cell[0], cell[1]]


def _free(state: TakenokoState) -> list[Move]:
    """F1-F3 (§4): complete a card that holds, place a chip or a channel from the reserve."""
    seat = state.current
    tiles = state.tiles()
    moves: list[Move] = [
        {"action": "complete", "card": card}
        for card in state.hands[seat]
        if state.met(card, seat, tiles)
    ]
    kinds = [kind for kind, n in state.reserve_chips[seat].items() if n]
    if kinds:
        places = state.board.chip_places()
        moves += [{"action": "chip", "kind": k, "to": _cell(c)} for k in kinds for c in places]
    if state.reserve_channels[seat]:
        moves += [
            {"action": "channel", "edge": [_cell(c) for c in sorted(edge)]}
            for edge in state.board.channel_places()
        ]
    return moves


def _turn_moves(state: TakenokoState) -> list[Move]:
    moves = _free(state)
    if not state.rolled:
        return [*moves, {"action": "roll"}]  # D0
    moves += [{"action": kind} for kind in state.action_kinds()]
    if not state.owes_action():
        moves.append({"action": "end"})
    return moves


def _weather_moves(state: TakenokoState) -> list[Move]:
    faces = ["SUN", "RAIN", "WIND", "STORM"]
    if any(state.chip_supply.values()):
        faces.append("CLOUDS")
    return [{"action": "weather", "face": face} for face in faces]


def _rain_moves(state: TakenokoState) -> list[Move]:
    cells = [
        cell
        for cell, tile in sorted(state.board.tiles.items())
        if not tile.is_pond and tile.irrigated and tile.height < MAX_HEIGHT
    ]
    return [*({"action": "rain", "to": _cell(c)} for c in cells), {"action": "skip"}]


def _storm_moves(state: TakenokoState) -> list[Move]:
    cells = [cell for cell in sorted(state.board.tiles) if cell != state.board.panda]
    return [*({"action": "storm", "to": _cell(c)} for c in cells), {"action": "skip"}]


def _clouds_moves(state: TakenokoState) -> list[Move]:
    kinds = [kind for kind, n in state.chip_supply.items() if n]
    return [*({"action": "clouds", "kind": k} for k in kinds), {"action": "skip"}]


def _plot_moves(state: TakenokoState) -> list[Move]:
    seat = state.current
    chips = [None, *(kind for kind, n in state.reserve_chips[seat].items() if n)]
    cells = state.board.placements()
    moves: list[Move] = []
    for plot_id in state.drawn:
        printed = PLOT_BY_ID[plot_id].improvement
        for cell in cells:
            for chip in [None] if printed else chips:
                moves.append({"action": "place", "plot": plot_id, "to": _cell(cell), "chip": chip})
    return moves


def _figure_moves(action: str, start: tuple[int, int], state: TakenokoState) -> list[Move]:
    return [{"action": action, "to": _cell(c)} for c in state.board.destinations(start)]


_LEGAL: dict[str, Callable[[TakenokoState], list[Move]]] = {
    "turn": _turn_moves,
    "weather": _weather_moves,
    "rain": _rain_moves,
    "storm": _storm_moves,
    "clouds": _clouds_moves,
    "plot": _plot_moves,
    "gardener": lambda s: _figure_moves("move_gardener", s.board.gardener, s),
    "panda": lambda s: _figure_moves("move_panda", s.board.panda, s),
    "objective": lambda s: [{"action": "draw", "deck": d} for d in DECKS if s.decks[d]],
    "return": lambda s: [
        {"action": "return", "order": order} for order in (list(s.drawn), list(reversed(s.drawn)))
    ],
}
