"""The rules of 2-player Mandala: one mutable state, played by integer action codes.

The specification is the rulebook; RULINGS.md settles what it leaves open, and every
place that depends on a ruling names it (R1..R14).
"""

from __future__ import annotations

from typing import Any, Self

from arena.errors import GameError
from arena.games.base import Decision, GameState, Move, View
from arena.games.mandala import ends, views
from arena.games.mandala.cards import (
    CARDS_PER_COLOUR,
    CLAIM_BASE,
    CLAIM_DECISION,
    DECODED,
    DISCARD_BASE,
    DISCARDS,
    GROW_BASE,
    GROWS,
    HAND_LIMIT,
    NUM_COLOURS,
    TURN,
)
from arena.games.mandala.deck import Deck
from arena.games.mandala.ends import DECK_EXHAUSTED, SIXTH_RIVER_COLOUR, STALLED, TURN_LIMIT
from arena.games.mandala.moves import action_from_move, describe, move_of
from arena.outcome import Outcome

_SIX = range(NUM_COLOURS)


class MandalaState(Deck, GameState):
    """A position of 2-player Mandala, with its rules; its deck's draws and the fields they
    use are `Deck`'s (deck.py).

    Piles are lists of six counts by colour. The deck is a list of colours whose last
    element is the top card.
    """

    __slots__ = (
        "num_players",
        "turn_limit",
        "cup_setup",
        "cup_claimed",
        "rivers",
        "mountains",
        "fields",
        "current",
        "turns",
        "sixth_colour",
        "over",
        "end",
        "destroying",
        "claimer",
        "completed_by",
    )

    num_players: int
    turn_limit: int
    cup_setup: list[list[int]]
    cup_claimed: list[list[int]]
    rivers: list[list[int]]
    mountains: list[list[int]]
    fields: list[list[list[int]]]
    current: int
    turns: int
    sixth_colour: bool
    over: bool
    end: str | None
    """Why the game ended (one of ENDS), once it is over."""
    destroying: int
    claimer: int
    completed_by: int

    # ------------------------------------------------------------------ set-up

    @classmethod
    def empty(cls, seed: int = 0, turn_limit: int = 1000) -> MandalaState:
        """A state with no cards anywhere, seat 0 on turn: a blank table to set up by hand."""
        state = cls.__new__(cls)
        state.num_players = 2
        state.turn_limit = turn_limit
        state.seed = seed
        state.shuffles = 0
        state.deck = []
        state.discard = [0] * 6
        state.hands = [[0] * 6, [0] * 6]
        state.hand_sizes = [0, 0]
        state.cup_setup = [[0] * 6, [0] * 6]
        state.cup_claimed = [[0] * 6, [0] * 6]
        state.rivers = [[], []]
        state.mountains = [[0] * 6, [0] * 6]
        state.fields = [[[0] * 6, [0] * 6], [[0] * 6, [0] * 6]]
        state.current = 0
        state.turns = 0
        state.end_triggered = False
        state.sixth_colour = False
        state.over = False
        state.end = None
        state.destroying = -1
        state.claimer = -1
        state.completed_by = -1
        state.reshuffled = None
        return state

    @classmethod
    def deal(cls, seed: int, turn_limit: int = 1000) -> MandalaState:
        """A new game dealt from `seed` in the order of R2."""
        state = cls.empty(seed, turn_limit)
        deck = [colour for colour in _SIX for _ in range(CARDS_PER_COLOUR)]  # R1
        state._shuffle_into_deck(deck)
        take = state.deck.pop
        for mountain in state.mountains:  # R2: Mandala 0's Mountain, then Mandala 1's
            for _ in range(2):
                mountain[take()] += 1
        for seat in range(2):  # R2: per seat, 6 hand cards then 2 Cup cards
            for _ in range(6):
                state.hands[seat][take()] += 1
            for _ in range(2):
                state.cup_setup[seat][take()] += 1
            state.hand_sizes[seat] = 6
        return state

    def copy(self) -> Self:
        other = self.__class__.__new__(self.__class__)
        other.num_players = self.num_players
        other.turn_limit = self.turn_limit
        other.seed = self.seed
        other.shuffles = self.shuffles
        other.deck = self.deck[:]
        other.discard = self.discard[:]
        h0, h1 = self.hands
        other.hands = [h0[:], h1[:]]
        other.hand_sizes = self.hand_sizes[:]
        s0, s1 = self.cup_setup
        other.cup_setup = [s0[:], s1[:]]
        c0, c1 = self.cup_claimed
        other.cup_claimed = [c0[:], c1[:]]
        r0, r1 = self.rivers
        other.rivers = [r0[:], r1[:]]
        m0, m1 = self.mountains
        other.mountains = [m0[:], m1[:]]
        (f00, f01), (f10, f11) = self.fields
        other.fields = [[f00[:], f01[:]], [f10[:], f11[:]]]
        other.current = self.current
        other.turns = self.turns
        other.end_triggered = self.end_triggered
        other.sixth_colour = self.sixth_colour
        other.over = self.over
        other.end = self.end
        other.destroying = self.destroying
        other.claimer = self.claimer
        other.completed_by = self.completed_by
        reshuffled = self.reshuffled
        other.reshuffled = None if reshuffled is None else [pile[:] for pile in reshuffled]
        return other

    # ------------------------------------------------------------------ decisions

    def decision(self) -> Decision | None:
        if self.over:
            return None
        if self.destroying >= 0:
            return _CLAIMS[self.claimer]
        return _TURNS[self.current]

    def is_over(self) -> bool:
        return self.over

    @property
    def turn(self) -> int:
        return self.turns

    def legal_actions(self) -> list[int]:
        if self.over:
            return []
        if self.destroying >= 0:
            mountain = self.mountains[self.destroying]
            return [CLAIM_BASE + c for c in _SIX if mountain[c]]
        seat = self.current
        hand = self.hands[seat]
        keep = self.hand_sizes[seat] - 1  # Grow Field must leave one card in hand (R5)
        m0, m1 = self.mountains
        (f00, f01), (f10, f11) = self.fields
        opp0, opp1 = (f01, f11) if seat == 0 else (f00, f10)
        actions: list[int] = []
        add = actions.append
        extend = actions.extend
        for c in _SIX:
            n = hand[c]
            if not n:
                continue
            # Rule of Color: a colour may be in one area of a Mandala only.
            if not (f00[c] or f01[c]):
                add(c)
            if not (f10[c] or f11[c]):
                add(6 + c)
            grow = n if n <= keep else keep
            if grow > 0:
                if not (m0[c] or opp0[c]):
                    extend(GROWS[c][grow])
                if not (m1[c] or opp1[c]):
                    extend(GROWS[6 + c][grow])
            extend(DISCARDS[c][n])
        return actions

    def apply_action(self, action: int) -> None:
        if self.destroying >= 0:
            self._claim(action - CLAIM_BASE)
            self._continue_destruction()
            return
        seat = self.current
        hand = self.hands[seat]
        mandala, colour, count = DECODED[action]
        hand[colour] -= count
        in_hand = self.hand_sizes[seat] - count
        self.hand_sizes[seat] = in_hand
        if action < GROW_BASE:  # A: Build Mountain & Draw
            self.mountains[mandala][colour] += 1
            draw = HAND_LIMIT - in_hand  # R5
            self._draw_to_hand(seat, 3 if draw > 3 else draw)
        elif action < DISCARD_BASE:  # B: Grow Field & No Draw
            self.fields[mandala][seat][colour] += count
        else:  # C: Discard & Redraw; the discards go first, then the draw (R6)
            self.discard[colour] += count
            self._draw_to_hand(seat, count)
            self._end_turn(changed=False)
            return
        # R7: only the Mandala played into can complete, checked after the draw.
        mountain = self.mountains[mandala]
        field0, field1 = self.fields[mandala]
        for c in _SIX:
            if not (mountain[c] or field0[c] or field1[c]):
                self._end_turn()
                return
        self._start_destruction(mandala, seat)

    # ------------------------------------------------------------------ destruction

    def _start_destruction(self, mandala: int, completed_by: int) -> None:
        """R8: more cards in one's Field claims first; on a tie, the other player does."""
        size0 = sum(self.fields[mandala][0])
        size1 = sum(self.fields[mandala][1])
        self.destroying = mandala
        self.completed_by = completed_by
        if size0 == 0 and size1 == 0:
            # R8: every claimed card is discarded, so no one is asked.
            mountain = self.mountains[mandala]
            for c in _SIX:
                self.discard[c] += mountain[c]
                mountain[c] = 0
            self._finish_destruction()
            return
        if size0 != size1:
            self.claimer = 0 if size0 > size1 else 1
        else:
            self.claimer = 1 - completed_by
        self._continue_destruction()

    def _claim(self, colour: int) -> None:
        """The claimer takes every `colour` card of the Mountain to River and Cup."""
        seat = self.claimer
        mandala = self.destroying
        mountain = self.mountains[mandala]
        cards = mountain[colour]
        mountain[colour] = 0
        if not any(self.fields[mandala][seat]):
            self.discard[colour] += cards  # No cards in a Field: the claim is discarded
        else:
            river = self.rivers[seat]
            if colour not in river:
                river.append(colour)  # a new colour: one card to the first empty space
                cards -= 1
                if len(river) == 6:
                    self.sixth_colour = True  # R9b
            self.cup_claimed[seat][colour] += cards
        self.claimer = 1 - seat

    def _continue_destruction(self) -> None:
        """Resolve forced claims; finish once the Mountain is empty."""
        mountain = self.mountains[self.destroying]
        left = [c for c in _SIX if mountain[c]]
        if len(left) == 1:
            self._claim(left[0])  # a forced claim: only one colour is left
            left = []
        if not left:
            self._finish_destruction()

    def _finish_destruction(self) -> None:
        """Fields to the discard; then the end (R9) or a refill of the Mountain (R9, R10)."""
        mandala = self.destroying
        discard = self.discard
        for field in self.fields[mandala]:
            for c in _SIX:
                discard[c] += field[c]
                field[c] = 0
        self.destroying = -1
        self.claimer = -1
        self.completed_by = -1
        if self.sixth_colour:
            self._finish(SIXTH_RIVER_COLOUR)
            return
        if self.end_triggered:
            self._finish(DECK_EXHAUSTED)
            return
        mountain = self.mountains[mandala]
        for _ in range(2):  # R10: the refill ignores the Rule of Color
            colour = self._draw(-1)  # may exhaust the deck (R3)
            if colour >= 0:
                mountain[colour] += 1
        self._end_turn()

    # ------------------------------------------------------------------ turns and the end

    def _end_turn(self, changed: bool = True) -> None:
        """The next seat to act, or the end: a stall (R15, R16), checked before the turn limit
        (R12, R17).

        `changed` is False after a Discard & Redraw, which cannot begin a stall."""
        turns = self.turns = self.turns + 1
        current = self.current = 1 - self.current
        if (changed or not self.hand_sizes[current]) and ends.stalled(self):
            self._finish(STALLED, count_turn=False)  # R15, R16: no Mandala can change again
            return  # R17: even on the turn that reaches the limit
        while turns < self.turn_limit:
            if self.hand_sizes[current]:
                return
            turns = self.turns = turns + 1  # R11: an empty hand passes, without asking the bot
            current = self.current = 1 - current
        self._finish(TURN_LIMIT, count_turn=False)  # R12

    def _finish(self, end: str, count_turn: bool = True) -> None:
        if count_turn:
            self.turns += 1  # the turn whose destruction ended the game counts as played
        self.over = True
        self.end = end

    def cup(self, seat: int) -> list[int]:
        """The whole Cup of `seat`: its 2 setup cards and what it claimed."""
        return [a + b for a, b in zip(self.cup_setup[seat], self.cup_claimed[seat], strict=True)]

    def score(self, seat: int) -> int:
        """R13: each Cup card scores its colour's River slot (1..6), 0 if not in the River."""
        cup = self.cup(seat)
        return sum(cup[colour] * (slot + 1) for slot, colour in enumerate(self.rivers[seat]))

    def scores(self) -> tuple[int, ...]:
        return (self.score(0), self.score(1))

    def outcome(self) -> Outcome:
        if not self.over or self.end is None:
            raise GameError("The game is not over yet, so it has no result.")
        return ends.outcome(
            self.scores(), (sum(self.cup(0)), sum(self.cup(1))), self.end, self.turns
        )

    # ------------------------------------------------------------------ moves as data

    def action_to_move(self, action: int) -> Move:
        return move_of(action)

    def move_to_action(self, move: Any) -> int:
        return action_from_move(self, move)

    def describe_move(self, move: Move) -> str:
        return describe(move)

    # ------------------------------------------------------------------ what a seat sees

    def view(self, seat: int) -> View:
        """R14: everything `seat` has seen, and never the opponent's hand, setup Cup or deck order."""
        return views.view(self, seat)

    def view_json(self, seat: int) -> str:
        return views.view_json(self, seat)

    def spectator_view(self) -> View:
        return views.spectator_view(self)

    def public_view(self) -> View:
        return views.public_view(self)


_TURNS = (Decision(0, TURN), Decision(1, TURN))
_CLAIMS = (Decision(0, CLAIM_DECISION), Decision(1, CLAIM_DECISION))
