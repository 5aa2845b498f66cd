"""The rules of Flowers: A Mandala Game for 2-4 players, played by integer action codes.

The specification is the rulebook; the rulings F1..F28 (docs/rules/flowers.md) settle what
it leaves open, and every place that depends on a ruling names it (F1..F28). Our own
rulings, for cases those leave open, are in RULINGS.md beside this module (F29..).
"""

from __future__ import annotations

from typing import Any

from arena.errors import GameError
from arena.games.base import Decision, GameState, Move, View
from arena.games.flowers import ends, views
from arena.games.flowers.components import (
    ALL_COLOURS,
    FLOWERS_TO_END,
    HAND_LIMIT,
    MANDALAS,
    MOST_DRAWN,
    MOST_PLAYED,
    NUM_COLOURS,
    TAKE_BASE,
    TILE,
    TURN,
    decode_play,
    tile_colour,
)
from arena.games.flowers.ends import NO_TILES, STALLED, THIRD_FLOWER, TURN_LIMIT
from arena.games.flowers.moves import action_from_move, describe, move_of
from arena.games.flowers.table import FlowersTable
from arena.outcome import Outcome

_SIX = range(NUM_COLOURS)
_DECODED = [decode_play(action) for action in range(TAKE_BASE)]


class FlowersState(FlowersTable, GameState):
    """A position of Flowers, with its rules (the table it plays on: table.py)."""

    # ------------------------------------------------------------------ decisions

    def decision(self) -> Decision | None:
        if self.over:
            return None
        if self.choosing:
            return _TILES[self.marker[self.destroying]]
        return _TURNS[self.current]

    def is_over(self) -> bool:
        return self.over

    @property
    def turn(self) -> int:
        return self.turns

    def legal_actions(self) -> list[int]:
        if self.over:
            return []
        if self.choosing:  # F17: the holder names one of the two tiles by its colour
            return [TAKE_BASE + tile_colour(tile) for tile in self.tiles[self.destroying]]
        seat = self.current
        hand = self.hands[seat]
        if self.hand_sizes[seat] > 1:
            key = tuple(hand)
            plays = _PLAYS.get(key)
            if plays is None:
                plays = _plays(hand, self.hand_sizes[seat])
                if len(_PLAYS) > 200_000:
                    _PLAYS.clear()
                _PLAYS[key] = plays
            return list(plays)
        actions: list[int] = []
        if self.can_play(seat):  # F8: the only card may be played when the draw refills
            colour = hand.index(1)
            actions = [(m * NUM_COLOURS + colour) * MOST_PLAYED for m in range(MANDALAS)]
        return actions

    def apply_action(self, action: int) -> None:
        if self.choosing:
            self._take(action - TAKE_BASE)
            return
        seat = self.current
        mandala, colour, count = _DECODED[action]
        self.hands[seat][colour] -= count
        in_hand = self.hand_sizes[seat] = self.hand_sizes[seat] - count
        known = self.known[seat]
        if known[colour]:
            known[colour] = known[colour] - count if known[colour] > count else 0  # F27
        side = mandala * self.num_players + seat
        bit = 1 << colour
        if self.present[mandala] & bit:  # F9: a colour already present goes face down
            self.down[side * 6 + colour] += count
        else:
            self.up[side * 6 + colour] += count
            self.ups[side] += count
            self.present[mandala] |= bit
        self.counts[side] += count
        if count == 1 and in_hand < HAND_LIMIT:  # F11: the draw comes before CHECK
            drawn = HAND_LIMIT - in_hand if in_hand > HAND_LIMIT - MOST_DRAWN else MOST_DRAWN
            deck = self.deck
            if len(deck) >= drawn:  # the common case, without a reshuffle
                hand = self.hands[seat]
                for _ in range(drawn):
                    hand[deck.pop()] += 1
                self.hand_sizes[seat] = in_hand + drawn
            else:
                self._draw(seat, drawn)
        if self.ups[side] and self.marker[mandala] != seat:
            self._check(mandala, seat)
        if self.present[mandala] == ALL_COLOURS:  # F14
            self.destroyed = mandala
            self._destroy(mandala)
        else:
            self._end_turn()

    def _check(self, mandala: int, seat: int) -> None:
        """F13: the player, who has a face-up card there and is not the holder (the caller
        checks both), takes the marker with strictly more cards there than every other
        qualified player."""
        base = mandala * self.num_players
        mine = self.counts[base + seat]
        for other in range(self.num_players):
            if other != seat and self.ups[base + other] and self.counts[base + other] >= mine:
                return
        self.marker[mandala] = seat

    # ------------------------------------------------------------------ destruction

    def second_place(self, mandala: int, holder: int) -> int:
        """F15, F16: the seat that takes the other tile, or -1 (the holder takes both)."""
        base = mandala * self.num_players
        counts, ups = self.counts, self.ups
        if self.num_players == 2:  # F16: at least half the holder's cards, exactly
            other = 1 - holder
            qualified = ups[base + other] and 2 * counts[base + other] >= counts[base + holder]
            return other if qualified else -1
        best, best_key, tied = -1, (0, 0), False
        for seat in range(self.num_players):
            if seat == holder or not ups[base + seat]:
                continue
            key = (counts[base + seat], ups[base + seat])  # F15: cards, then face-up cards
            if best < 0 or key > best_key:
                best, best_key, tied = seat, key, False
            elif key == best_key:
                tied = True
        return -1 if tied else best

    def _destroy(self, mandala: int) -> None:
        """F15-F17: the tiles go to the holder and second place, the holder choosing which."""
        holder = self.marker[mandala]
        self.destroying = mandala
        if holder < 0:  # F23: no marker holder; nobody takes the tiles
            self._resolve(mandala, ())
            return
        second = self.second_place(mandala, holder)
        dark, light = self.tiles[mandala]
        if second < 0:
            self._resolve(mandala, ((holder, dark), (holder, light)))
            return
        self.second = second
        self.choosing = True  # F17: the holder's bot is asked, whoever's turn it is

    def _take(self, colour: int) -> None:
        """The holder takes the tile of `colour`; second place takes the other (F17)."""
        mandala = self.destroying
        dark, light = self.tiles[mandala]
        chosen, other = (dark, light) if tile_colour(dark) == colour else (light, dark)
        self.choosing = False
        self._resolve(mandala, ((self.marker[mandala], chosen), (self.second, other)))

    def _resolve(self, mandala: int, gifts: tuple[tuple[int, int], ...]) -> None:
        """Tiles and Flowers (F15-F18), then cards (F19), then new tiles (F20) or, in the
        final destruction, the next Mandala (F23)."""
        for seat, tile in gifts:
            self._gain(seat, tile)
        takers = {seat for seat, _ in gifts}
        n = self.num_players
        up, down, discard = self.up, self.down, self.discard
        for seat in range(n):
            side = mandala * n + seat
            if not self.counts[side]:
                continue
            taker = seat in takers
            # F19: a player who took a tile discards their cards here; everyone else takes
            # theirs back, even past 8 cards, in sight of all (F27: known cards).
            hand, known = self.hands[seat], self.known[seat]
            if not taker:
                self.hand_sizes[seat] += self.counts[side]
            for c in _SIX:
                cards = up[side * 6 + c] + down[side * 6 + c]
                if cards:
                    if taker:
                        discard[c] += cards
                    else:
                        hand[c] += cards
                        known[c] += cards
                    up[side * 6 + c] = down[side * 6 + c] = 0
            self.counts[side] = self.ups[side] = 0
        self.marker[mandala] = -1
        if gifts:
            self.tiles[mandala] = []
            self.present[mandala] = 0
        else:  # F23, F25: tiles nobody took stay on the mat and score nothing
            self.present[mandala] = sum(1 << tile_colour(tile) for tile in self.tiles[mandala])
        self.destroying = self.second = -1
        if self.ending is not None:
            self._next_final()
        elif self.dark:
            self._new_tiles(mandala)
            self._end_turn()
        else:
            self.no_tiles = True  # F22: the Mandala stays bare and the game will end
            self._end_turn()

    # ------------------------------------------------------------------ turns and the end

    def _end_turn(self) -> None:
        """The turn is over: the end (F21, F22), or the next seat that can play (F10, F24)."""
        self.turns += 1
        if self.destroyed >= 0:
            if any(len(flowers) >= FLOWERS_TO_END for flowers in self.flowers):
                self._final_destruction(THIRD_FLOWER)  # F21, before F22
                return
            if self.no_tiles:
                self._final_destruction(NO_TILES)
                return
            self.destroyed = -1
        n = self.num_players
        current = self.current + 1 if self.current + 1 < n else 0
        if self.turns < self.turn_limit and (self.hand_sizes[current] > 1 or self.deck):
            self.current = current  # the common case: the next seat can play
            return
        if not self.can_play(current) and not any(self.can_play(s) for s in range(n)):
            self.current = current
            self._final_destruction(STALLED)  # F24, F34: a stall, even on the limit's turn
            return
        while self.turns < self.turn_limit:
            if self.can_play(current):
                self.current = current
                return
            self.passes += 1  # F10: the pass is recorded without asking the bot
            self.turns += 1
            current = (current + 1) % n
        self.current = current
        self._finish(TURN_LIMIT)  # F24: the safety cap, scored as it stands

    def _final_destruction(self, ending: str) -> None:
        """F23 (F24 for a stall): destroy the Mandalas still standing in a seeded order."""
        self.ending = ending
        self.standing = [m for m in range(MANDALAS) if m != self.destroyed and self.tiles[m]]
        self.destroyed = -1
        self._next_final()

    def _next_final(self) -> None:
        if not self.standing:
            self._finish(self.ending or STALLED)
            return
        # F23: before each one, the next Mandala is drawn uniformly from those standing.
        mandala = self.standing.pop(self._random().randrange(len(self.standing)))
        self.final_order.append(mandala)
        self._destroy(mandala)

    def _finish(self, end: str) -> None:
        self.over = True
        self.end = end

    # ------------------------------------------------------------------ the result

    def outcome(self) -> Outcome:
        if not self.over or self.end is None:
            raise GameError("The game is not over yet, so it has no result.")
        return ends.outcome(self.scores(), tuple(self.hand_sizes), self.end, self.turns)

    # ------------------------------------------------------------------ moves as data

    def action_to_move(self, action: int) -> Move:
        return move_of(action)

    def move_to_action(self, move: Any) -> int:
        return action_from_move(self, move)

    def describe_move(self, move: Move) -> str:
        return describe(move)

    # ------------------------------------------------------------------ what a seat sees

    def view(self, seat: int) -> View:
        """F27: everything `seat` has seen; never another hand beyond its known cards, the
        deck order or the stack order."""
        return views.view(self, self.decision(), seat)

    def spectator_view(self) -> View:
        return views.spectator_view(self, self.decision())

    def public_view(self) -> View:
        return views.public_view(self, self.decision())


_PLAYS: dict[tuple[int, ...], tuple[int, ...]] = {}
"""The plays of a hand of 2 or more cards, by the hand's colour counts (they recur often)."""


def _plays(hand: list[int], size: int) -> tuple[int, ...]:
    """F8: every Mandala, colour and count that leaves at least one card in hand."""
    keep = size - 1
    counts = [(c, hand[c] if hand[c] < keep else keep) for c in _SIX if hand[c]]
    plays: list[int] = []
    for mandala in range(MANDALAS):
        for c, n in counts:
            plays += _RANGES[mandala * NUM_COLOURS + c][n]
    return tuple(plays)


_RANGES = [
    [tuple(range(place * MOST_PLAYED, place * MOST_PLAYED + n)) for n in range(MOST_PLAYED + 1)]
    for place in range(MANDALAS * NUM_COLOURS)
]
"""_RANGES[mandala * 6 + colour][n]: the codes of playing 1..n cards of that colour there."""


_TURNS = tuple(Decision(seat, TURN) for seat in range(4))
_TILES = tuple(Decision(seat, TILE) for seat in range(4))
