"""The tournament schedule: a pure, resumable generator of seat-swapped pairs of games.

One round is a round robin: every pair of bots meets once. A meeting is a *pair* of games
on the same deal (one deal seed) with the seats swapped, so neither bot profits from a lucky
deal or from moving first. Pairs are numbered across the whole tournament, round by round;
the deal seed of a pair derives from the tournament seed and that number only. So the
schedule is a function of (bots, rounds, seed): it can be regenerated at any time, and a
resumed tournament skips exactly the games already played.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Container, Iterator, Sequence
from dataclasses import dataclass

__all__ = [
    "GameSlot",
    "PairTask",
    "deal_seed",
    "game_id",
    "round_robin",
    "schedule",
    "total_games",
]


@dataclass(frozen=True)
class GameSlot:
    """One scheduled game."""

    game_id: str
    """A unique, sortable name, e.g. 'r0001-p000003-g2' (round, pair number, game of the pair)."""
    seq: int
    """The game's place in the whole schedule, from 0; ratings are computed in this order."""
    round: int
    """The round, from 1."""
    pair: int
    """The pair's number across the whole tournament, from 0."""
    seed: int
    """The deal seed, shared by both games of the pair."""
    players: tuple[str, ...]
    """Bot names by seat."""


@dataclass(frozen=True)
class PairTask:
    """The games of one pair still to be played: the unit of work given to a worker."""

    pair: int
    """The pair's number across the whole tournament, from 0."""
    round: int
    """The round, from 1."""
    seed: int
    """The deal seed of both games."""
    games: tuple[GameSlot, ...]
    """The games of this pair that are not played yet (one or two)."""


def round_robin(bots: Sequence[str]) -> list[tuple[str, str]]:
    """Every unordered pair of bots once, in a fixed order (the order of `bots`)."""
    if len(set(bots)) != len(bots):
        raise ValueError(f"bot names must be unique, got {list(bots)}")
    return list(itertools.combinations(bots, 2))


def deal_seed(seed: int, pair: int) -> int:
    """The deal seed of pair number `pair` in a tournament seeded with `seed` (63 bits).

    A hash, not a shared random stream, so any pair's seed is known without generating the
    others: the property that makes the schedule resumable from any point.
    """
    digest = hashlib.sha256(f"mandala-arena:{seed}:{pair}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def game_id(round_: int, pair: int, game: int) -> str:
    """The id of game `game` (1 or 2) of pair `pair` in round `round_`: fixed width, sortable."""
    return f"r{round_:04d}-p{pair:06d}-g{game}"


def total_games(num_bots: int, rounds: int) -> int:
    """How many games a tournament of `num_bots` bots and `rounds` rounds plays."""
    return rounds * (num_bots * (num_bots - 1) // 2) * 2


def schedule(
    bots: Sequence[str],
    rounds: int,
    seed: int,
    done: Container[str] = frozenset(),
) -> Iterator[PairTask]:
    """The pairs still to play, in schedule order, skipping every game whose id is in `done`.

    Both games of a pair are dealt from one seed; game 1 seats the pair as listed in the
    round robin, game 2 swaps the seats. The generator holds nothing but counters, so its
    memory does not depend on the size of the tournament.
    """
    if rounds < 0:
        raise ValueError(f"rounds must be at least 0, got {rounds}")
    pairings = round_robin(bots)
    pair = 0
    for round_ in range(1, rounds + 1):
        for first, second in pairings:
            seed_of_pair = deal_seed(seed, pair)
            slots = []
            for game, players in ((1, (first, second)), (2, (second, first))):
                gid = game_id(round_, pair, game)
                if gid not in done:
                    slots.append(
                        GameSlot(
                            game_id=gid,
                            seq=2 * pair + game - 1,
                            round=round_,
                            pair=pair,
                            seed=seed_of_pair,
                            players=players,
                        )
                    )
            if slots:
                yield PairTask(pair=pair, round=round_, seed=seed_of_pair, games=tuple(slots))
            pair += 1
