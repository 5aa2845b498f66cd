"""The tournament schedule: a pure, resumable generator of tables of k seats on shared deals.

One round: every k-subset of the field sits at a *table* once (or, with `tables_per_round`,
a seeded, balanced sample of them). A table plays one deal (one deal seed) k times with the
seats rotated, or once for each of the k! seatings, so no bot profits from a lucky deal or
from its seat. For k = 2 a table is the seat-swapped pair of games of a round robin.

Tables are numbered across the whole tournament, round by round; the deal seed of a table
derives from the tournament seed and that number only. So the schedule is a function of
(bots, rounds, seed, seats, all_seatings, tables_per_round): it can be regenerated at any
time, and a resumed tournament skips exactly the games already played.
"""

from __future__ import annotations

import hashlib
import itertools
import math
import random
from collections.abc import Container, Iterator, Sequence
from dataclasses import dataclass
from typing import TypeVar

__all__ = [
    "GameSlot",
    "TableTask",
    "deal_seed",
    "game_id",
    "games_per_table",
    "round_robin",
    "round_size",
    "schedule",
    "seatings",
    "tables",
    "total_games",
]

T = TypeVar("T")

REDRAWS = 20
"""How often a sampled table already sat this round is drawn again before it is kept."""


@dataclass(frozen=True)
class GameSlot:
    """One scheduled game."""

    game_id: str
    """A unique, sortable name, e.g. 'r0001-p000003-g2' (round, table, game of the table)."""
    seq: int
    """The game's place in the whole schedule, from 0; ratings are computed in this order."""
    round: int
    """The round, from 1."""
    table: int
    """The table's number across the whole tournament, from 0."""
    game: int
    """The game's number at its table, from 1."""
    seed: int
    """The deal seed, shared by every game of the table."""
    players: tuple[str, ...]
    """Bot names by seat."""


@dataclass(frozen=True)
class TableTask:
    """The games of one table still to be played: the unit of work given to a worker."""

    table: int
    """The table's number across the whole tournament, from 0."""
    round: int
    """The round, from 1."""
    seed: int
    """The deal seed of every game of the table."""
    games: tuple[GameSlot, ...]
    """The games of this table that are not played yet."""


def seatings(players: Sequence[T], all_seatings: bool = False) -> list[tuple[T, ...]]:
    """The seatings one table plays on its deal: `players` rotated (k games), or all k! orders.

    Both start with `players` as given; for two players both are [(a, b), (b, a)].
    """
    if all_seatings:
        return list(itertools.permutations(players))
    return [tuple(players[i:]) + tuple(players[:i]) for i in range(len(players))]


def games_per_table(seats: int, all_seatings: bool = False) -> int:
    """How many games one table of `seats` seats plays."""
    return math.factorial(seats) if all_seatings else seats


def round_robin(bots: Sequence[str], seats: int = 2) -> list[tuple[str, ...]]:
    """Every k-subset of the bots once, in a fixed order (the order of `bots`)."""
    if len(set(bots)) != len(bots):
        raise ValueError(f"bot names must be unique, got {list(bots)}")
    return list(itertools.combinations(bots, seats))


def round_size(
    num_bots: int, seats: int = 2, sample: int | None = None, gauntlet: bool = False
) -> int:
    """Tables in one round: every `seats`-subset of the field (with the candidate, in a
    gauntlet), or `sample` of them if fewer."""
    every = math.comb(num_bots - 1, seats - 1) if gauntlet else math.comb(num_bots, seats)
    return every if sample is None else min(every, sample)


def deal_seed(seed: int, table: int) -> int:
    """The deal seed of table number `table` in a tournament seeded with `seed` (63 bits).

    A hash, not a shared random stream, so any table's seed is known without generating the
    others: the property that makes the schedule resumable from any point. The hashed text
    is the one of the 2-seat pairs before tables, so their runs keep their deals.
    """
    digest = hashlib.sha256(f"mandala-arena:{seed}:{table}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def game_id(round_: int, table: int, game: int, seats: int = 2, width: int = 1) -> str:
    """The id of game `game` of table `table` in round `round_`: fixed width, sortable.

    Two-seat tables keep the pair ids of earlier runs ('r0001-p000003-g2'), so those runs
    resume; larger tables read 'r0001-t000003-g02' (`width` digits of game number).
    """
    kind = "p" if seats == 2 else "t"
    return f"r{round_:04d}-{kind}{table:06d}-g{game:0{width}d}"


def total_games(
    num_bots: int,
    rounds: int,
    seats: int = 2,
    all_seatings: bool = False,
    sample: int | None = None,
    gauntlet: bool = False,
) -> int:
    """How many games a tournament plays (`sample`: its tables per round, if sampled;
    `gauntlet`: only the tables of one candidate)."""
    per_round = round_size(num_bots, seats, sample, gauntlet)
    return rounds * per_round * games_per_table(seats, all_seatings)


def _rng(seed: int, round_: int) -> random.Random:
    digest = hashlib.sha256(f"mandala-arena-sample:{seed}:{round_}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def _sampled_round(
    bots: Sequence[str], seats: int, count: int, rng: random.Random, sat: dict[str, int]
) -> Iterator[tuple[str, ...]]:
    """`count` tables of one round: each seats the bots that have sat least so far.

    Ties are broken by a seeded draw per table, so tables mix; taking the least-seated bots
    keeps every bot within one table of every other (`sat` carries across rounds). A table
    already sat this round is drawn again, a few times at most, so a round rarely repeats one.
    """
    place = {bot: i for i, bot in enumerate(bots)}
    seen: set[frozenset[str]] = set()
    for _ in range(count):
        for _ in range(REDRAWS):
            draw = {bot: rng.random() for bot in bots}
            chosen = sorted(bots, key=lambda bot: (sat[bot], draw[bot]))[:seats]
            if frozenset(chosen) not in seen:
                break
        seen.add(frozenset(chosen))
        for bot in chosen:
            sat[bot] += 1
        yield tuple(sorted(chosen, key=place.__getitem__))


def tables(
    bots: Sequence[str],
    rounds: int,
    seed: int,
    seats: int = 2,
    sample: int | None = None,
    gauntlet: str | None = None,
) -> Iterator[tuple[int, tuple[str, ...]]]:
    """(round, players) of every table in schedule order: all k-subsets, or a balanced sample;
    in a gauntlet, only the subsets with the candidate `gauntlet` (its seat still rotates)."""
    if rounds < 0:
        raise ValueError(f"rounds must be at least 0, got {rounds}")
    if not 1 <= seats <= len(bots):
        raise ValueError(f"a table of {seats} seats needs 1 to {len(bots)} seats")
    if sample is not None and sample < 1:
        raise ValueError(f"tables per round must be at least 1, got {sample}")
    if gauntlet is not None:
        if gauntlet not in bots:
            raise ValueError(f"the gauntlet's candidate {gauntlet!r} is not in the field")
        every = [table for table in round_robin(bots, seats) if gauntlet in table]
        for round_ in range(1, rounds + 1):
            for players in every:
                yield round_, players
        return
    if sample is None or sample >= math.comb(len(bots), seats):
        every = round_robin(bots, seats)
        for round_ in range(1, rounds + 1):
            for players in every:
                yield round_, players
        return
    round_robin(bots, seats)  # checks the names
    sat = dict.fromkeys(bots, 0)
    for round_ in range(1, rounds + 1):
        for players in _sampled_round(bots, seats, sample, _rng(seed, round_), sat):
            yield round_, players


def schedule(
    bots: Sequence[str],
    rounds: int,
    seed: int,
    done: Container[str] = frozenset(),
    *,
    seats: int = 2,
    all_seatings: bool = False,
    tables_per_round: int | None = None,
    gauntlet: str | None = None,
) -> Iterator[TableTask]:
    """The tables still to play, in schedule order, skipping every game whose id is in `done`.

    Every game of a table is dealt from one seed; game 1 seats the table as listed, the others
    follow `seatings`. The generator holds nothing but counters (and, for a sample, one count
    per bot), so its memory does not depend on the size of the tournament.
    """
    per_table = games_per_table(seats, all_seatings)
    width = len(str(per_table))
    chosen = tables(bots, rounds, seed, seats, tables_per_round, gauntlet)
    for table, (round_, players) in enumerate(chosen):
        seed_of_table = deal_seed(seed, table)
        slots = []
        for game, seated in enumerate(seatings(players, all_seatings), start=1):
            gid = game_id(round_, table, game, seats, width)
            if gid not in done:
                slots.append(
                    GameSlot(
                        game_id=gid,
                        seq=per_table * table + game - 1,
                        round=round_,
                        table=table,
                        game=game,
                        seed=seed_of_table,
                        players=seated,
                    )
                )
        if slots:
            yield TableTask(table=table, round=round_, seed=seed_of_table, games=tuple(slots))
