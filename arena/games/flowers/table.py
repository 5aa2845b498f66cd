"""The table of Flowers: where every card and tile is, set up from the seed (F5, F6),
copied cheaply, with the game's one RNG for reshuffles and the final order (F6, F12, F29).

The rules that change it are in state.py; this module knows only what is where.
"""

from __future__ import annotations

import random
from typing import Self

from arena.games.flowers.components import (
    CARDS_PER_COLOUR,
    DARK,
    LIGHT,
    MANDALAS,
    NUM_COLOURS,
    flower_score,
    shuffle,
    single_score,
    tile_colour,
)

_SIX = range(NUM_COLOURS)


class FlowersTable:
    """What is where at a table of Flowers: cards, tiles, markers, and the game's chance.

    Cards are counted by colour (F2). The deck and the two tile stacks are lists whose
    last element is the top. What the players put into the Mandalas is kept in flat
    lists indexed by `side = mandala * players + seat`: `up` and `down` hold six counts
    per side (at `side * 6 + colour`), `counts` and `ups` each side's total and face-up
    cards. One RNG per game (F6) draws every chance event; a copy shares it until
    either copy needs it, then takes its own (so copies stay cheap and independent).
    """

    __slots__ = (
        "num_players",
        "turn_limit",
        "rng",
        "rng_shared",
        "deck",
        "discard",
        "dark",
        "light",
        "hands",
        "hand_sizes",
        "known",
        "tiles",
        "marker",
        "present",
        "up",
        "down",
        "counts",
        "ups",
        "singles",
        "flowers",
        "current",
        "turns",
        "passes",
        "destroyed",
        "destroying",
        "second",
        "choosing",
        "no_tiles",
        "ending",
        "standing",
        "final_order",
        "over",
        "end",
    )

    num_players: int
    turn_limit: int
    rng: random.Random
    rng_shared: bool
    deck: list[int]
    discard: list[int]
    dark: list[int]
    light: list[int]
    hands: list[list[int]]
    hand_sizes: list[int]
    known: list[list[int]]
    """F27: the cards of each hand that every seat knows of (returned cards not played since)."""
    tiles: list[list[int]]
    """Each Mandala's tiles: [dark, light], or [] when it has none."""
    marker: list[int]
    """Each Mandala's claim marker holder; -1 in the centre."""
    present: list[int]
    """Each Mandala's present colours as a bit mask: its tiles' and its face-up cards' (F9)."""
    up: list[int]
    down: list[int]
    counts: list[int]
    ups: list[int]
    singles: list[list[int]]
    """Each seat's single tile of each colour, -1 for none (F18: at most one per colour)."""
    flowers: list[list[tuple[int, int]]]
    current: int
    turns: int
    passes: int
    destroyed: int
    """The Mandala destroyed this turn (-1: none): F23 leaves it out of the final destruction."""
    destroying: int
    """The Mandala being destroyed while its holder chooses a tile (-1: none)."""
    second: int
    """Second place of the Mandala being destroyed (F15), who takes the other tile."""
    choosing: bool
    no_tiles: bool
    """F22: a destruction found both stacks empty."""
    ending: str | None
    """Why the game ends, from the end of the last turn until the final destruction is done."""
    standing: list[int]
    """F23: the Mandalas the final destruction has still to destroy."""
    final_order: list[int]
    over: bool
    end: str | None

    # ------------------------------------------------------------------ set-up

    @classmethod
    def empty(cls, num_players: int, seed: int = 0, turn_limit: int = 10_000) -> Self:
        """A blank table: no cards or tiles anywhere, seat 0 on turn (to set up by hand)."""
        state = cls.__new__(cls)
        state.num_players = num_players
        state.turn_limit = turn_limit
        state.rng = random.Random(seed)
        state.rng_shared = False
        state.deck = []
        state.discard = [0] * NUM_COLOURS
        state.dark = []
        state.light = []
        state.hands = [[0] * NUM_COLOURS for _ in range(num_players)]
        state.hand_sizes = [0] * num_players
        state.known = [[0] * NUM_COLOURS for _ in range(num_players)]
        state.tiles = [[] for _ in range(MANDALAS)]
        state.marker = [-1] * MANDALAS
        state.present = [0] * MANDALAS
        state.up = [0] * (MANDALAS * num_players * NUM_COLOURS)
        state.down = [0] * (MANDALAS * num_players * NUM_COLOURS)
        state.counts = [0] * (MANDALAS * num_players)
        state.ups = [0] * (MANDALAS * num_players)
        state.singles = [[-1] * NUM_COLOURS for _ in range(num_players)]
        state.flowers = [[] for _ in range(num_players)]
        state.current = 0
        state.turns = 0
        state.passes = 0
        state.destroyed = -1
        state.destroying = -1
        state.second = -1
        state.choosing = False
        state.no_tiles = False
        state.ending = None
        state.standing = []
        state.final_order = []
        state.over = False
        state.end = None
        return state

    @classmethod
    def deal(cls, seed: int, num_players: int, turn_limit: int = 10_000) -> Self:
        """A new game dealt from `seed` in the order of F6."""
        state = cls.empty(num_players, seed, turn_limit)
        rng = state.rng
        cards = [colour for colour in _SIX for _ in range(CARDS_PER_COLOUR)]  # F1, F2
        shuffle(cards, rng)  # F6 (1)
        state.deck = cards
        for stack, colours in ((state.dark, DARK), (state.light, LIGHT)):  # F6 (2), F3
            stack.extend(colour * 6 + value for colour in colours for value in range(6))
            shuffle(stack, rng)
        for mandala in range(MANDALAS):  # F6 (3)
            state._new_tiles(mandala)
        for seat in range(num_players):  # F6 (4), F5: seat i draws 5 + i cards
            hand = state.hands[seat]
            for _ in range(5 + seat):
                hand[cards.pop()] += 1
            state.hand_sizes[seat] = 5 + seat
        return state

    def copy(self) -> Self:
        other = self.__class__.__new__(self.__class__)
        other.num_players = self.num_players
        other.turn_limit = self.turn_limit
        other.rng = self.rng
        other.rng_shared = self.rng_shared = True
        other.deck = self.deck[:]
        other.discard = self.discard[:]
        other.dark = self.dark[:]
        other.light = self.light[:]
        other.hands = [hand[:] for hand in self.hands]
        other.hand_sizes = self.hand_sizes[:]
        other.known = [known[:] for known in self.known]
        other.tiles = [tiles[:] for tiles in self.tiles]
        other.marker = self.marker[:]
        other.present = self.present[:]
        other.up = self.up[:]
        other.down = self.down[:]
        other.counts = self.counts[:]
        other.ups = self.ups[:]
        other.singles = [singles[:] for singles in self.singles]
        other.flowers = [flowers[:] for flowers in self.flowers]
        other.current = self.current
        other.turns = self.turns
        other.passes = self.passes
        other.destroyed = self.destroyed
        other.destroying = self.destroying
        other.second = self.second
        other.choosing = self.choosing
        other.no_tiles = self.no_tiles
        other.ending = self.ending
        other.standing = self.standing[:]
        other.final_order = self.final_order[:]
        other.over = self.over
        other.end = self.end
        return other

    def _random(self) -> random.Random:
        """The game's RNG (F6), first made this state's own if a copy shares it."""
        if self.rng_shared:
            rng = random.Random()
            rng.setstate(self.rng.getstate())
            self.rng = rng
            self.rng_shared = False
        return self.rng

    def reseed(self, seed: int) -> None:
        """Give the state a new RNG: a search's sample must not know the real future shuffles."""
        self.rng = random.Random(seed)
        self.rng_shared = False

    # ------------------------------------------------------------------ cards and tiles

    def _new_tiles(self, mandala: int) -> None:
        """F20 (and F6 (3)): the top dark tile, then the top light tile; marker to the centre."""
        dark, light = self.dark.pop(), self.light.pop()
        self.tiles[mandala] = [dark, light]
        self.present[mandala] = (1 << tile_colour(dark)) | (1 << tile_colour(light))
        self.marker[mandala] = -1

    def _draw(self, seat: int, count: int) -> None:
        """F11, F12: draw `count` cards, reshuffling the discard pile when the deck is empty."""
        hand = self.hands[seat]
        deck = self.deck
        drawn = 0
        while drawn < count:
            if not deck:
                if not any(self.discard):
                    break  # F12: nothing left to draw; the draw stops short
                discard = self.discard
                deck = [colour for colour in _SIX for _ in range(discard[colour])]
                shuffle(deck, self._random())
                self.deck = deck
                self.discard = [0] * NUM_COLOURS
            hand[deck.pop()] += 1
            drawn += 1
        self.hand_sizes[seat] += drawn

    def can_play(self, seat: int) -> bool:
        """F8, F10: a seat can play unless it holds one card and nothing is left to draw."""
        return self.hand_sizes[seat] > 1 or bool(self.deck) or any(self.discard)

    # ------------------------------------------------------------------ what a seat holds

    def _gain(self, seat: int, tile: int) -> None:
        """F18: a tile pairs with a single of its colour into a Flower, without asking."""
        singles = self.singles[seat]
        colour = tile_colour(tile)
        single = singles[colour]
        if single >= 0:
            self.flowers[seat].append((single, tile))
            singles[colour] = -1
        else:
            singles[colour] = tile

    def score(self, seat: int) -> int:
        """F25: singles score their value (x3: 0), Flowers as the rulebook says."""
        singles = sum(single_score(tile) for tile in self.singles[seat] if tile >= 0)
        return singles + sum(flower_score(a, b) for a, b in self.flowers[seat])

    def scores(self) -> tuple[int, ...]:
        return tuple(self.score(seat) for seat in range(self.num_players))
