"""Coverage simulations: do the arena's 95% intervals contain the truth 95% of the time?

A simulated tournament is played by bots of known strengths (Plackett–Luce: a seat is
placed first with probability proportional to its strength, then the next among the rest,
and so on), with draws (every seat ties), an advantage for the seat that moves first, and
a deal that favours one seat of each table (the same seat in every game of the table, so
the games of a table are not independent: the reason the arena's intervals count tables).
Every table plays its deal once per seat rotation, as the arena does.

The truth each interval aims at is worked out exactly from the same model (every rotation,
every favoured seat, every order of the seats), and the simulated games go through the
arena's own tables and fits, so what is measured is what a user reads.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from arena.results.log import GameLine
from arena.stats.elo import score_elo

NAMES = ("ant", "bee", "cat", "dog", "eel")
BOTS = 4
"""The simulated field's size."""


@dataclass(frozen=True)
class World:
    """What the simulated bots are like."""

    seats: int
    elos: dict[str, float]
    """Each bot's strength on the Elo scale (Plackett–Luce weight 10^(elo/400))."""
    draw: float = 0.0
    """The chance that a game is drawn: every seat ties."""
    first_seat: float = 1.0
    """The strength multiplier of the seat that moves first (1: no advantage)."""
    favoured: float = 1.0
    """The strength multiplier the deal gives one seat of each table (1: no deal luck)."""

    @property
    def bots(self) -> list[str]:
        return sorted(self.elos)


def random_world(rng: random.Random, seats: int, bots: int = BOTS) -> World:
    """A field of `bots` with strengths from -300 to +300 Elo, draws, seat and deal luck."""
    return World(
        seats=seats,
        elos={name: rng.uniform(-300.0, 300.0) for name in NAMES[:bots]},
        draw=rng.choice((0.0, 0.1, 0.3)),
        first_seat=rng.choice((1.0, 1.3)),
        favoured=rng.choice((1.0, 2.0)),
    )


def _weights(world: World, players: Sequence[str], favoured: int) -> list[float]:
    weights = []
    for seat, name in enumerate(players):
        weight = 10.0 ** (world.elos[name] / 400.0)
        if seat == 0:
            weight *= world.first_seat
        if seat == favoured:
            weight *= world.favoured
        weights.append(weight)
    return weights


def _orders(weights: Sequence[float]) -> Iterable[tuple[tuple[int, ...], float]]:
    """Every finishing order of the seats (first place first) with its probability."""
    for order in itertools.permutations(range(len(weights))):
        chance, left = 1.0, sum(weights)
        for seat in order:
            chance *= weights[seat] / left
            left -= weights[seat]
        yield order, chance


def _rotations(table: Sequence[str]) -> list[tuple[str, ...]]:
    k = len(table)
    return [tuple(table[(seat + game) % k] for seat in range(k)) for game in range(k)]


def play(world: World, rounds: int, rng: random.Random) -> list[GameLine]:
    """A round robin of `rounds` rounds: every `seats`-subset of the field, a table each,
    playing its deal once per seat rotation."""
    lines: list[GameLine] = []
    table_number = 0
    for round_ in range(1, rounds + 1):
        for table in itertools.combinations(world.bots, world.seats):
            favoured = rng.randrange(world.seats)
            for game, players in enumerate(_rotations(table), start=1):
                if rng.random() < world.draw:
                    ranks = [0] * world.seats
                else:
                    weights = _weights(world, players, favoured)
                    ranks = [0] * world.seats
                    seats = list(range(world.seats))
                    for place in range(world.seats):
                        pick = rng.random() * sum(weights[s] for s in seats)
                        for seat in seats:
                            pick -= weights[seat]
                            if pick <= 0 or seat == seats[-1]:
                                break
                        ranks[seat] = place
                        seats.remove(seat)
                lines.append(
                    GameLine(
                        seq=len(lines),
                        game_id=f"r{round_:04d}-t{table_number:06d}-g{game}",
                        players=players,
                        scores=tuple(float(world.seats - r) for r in ranks),
                        ranks=tuple(ranks),
                        termination="normal",
                        round=round_,
                        table=table_number,
                        game=game,
                    )
                )
            table_number += 1
    return lines


@dataclass(frozen=True)
class Truth:
    """What the intervals estimate, worked out exactly for a world."""

    points: dict[str, float]
    """Two seats: a bot's expected points a game (a win 1, a draw 1/2) against the field."""
    mean_rank: dict[str, float]
    """A bot's expected place (1 is first) at the tables of a round robin."""
    meeting: dict[tuple[str, str], float]
    """The expected points of the first bot in a meeting with the second (ahead 1, level 1/2)."""
    elo: dict[str, float]
    """The order-free Elo (mean 0) the arena's fit converges to on endless games."""


Fit = Callable[[dict[tuple[str, str], float], list[str]], dict[str, float]]
"""The order-free fit: points of each ordered pair of bots -> each bot's Elo."""
Check = Callable[[World, list[GameLine], "Truth"], list[tuple[Any, float]]]
"""A method's checks of one simulated tournament: (its interval or None, the truth) each."""


def truth(world: World, fit: Fit) -> Truth:
    """The exact expectations of `world` (`fit` is the arena's order-free fit, applied to
    the expected meetings of a million rounds, where its prior weighs nothing)."""
    k = world.seats
    rank_sum: dict[str, float] = defaultdict(float)
    rank_count: dict[str, int] = defaultdict(int)
    meet_sum: dict[tuple[str, str], float] = defaultdict(float)
    meet_count: dict[tuple[str, str], int] = defaultdict(int)
    for table in itertools.combinations(world.bots, k):
        for players in _rotations(table):
            for favoured in range(k):
                weights = _weights(world, players, favoured)
                expected_rank = [0.0] * k
                ahead = [[0.0] * k for _ in range(k)]
                for order, chance in _orders(weights):
                    for place, seat in enumerate(order):
                        expected_rank[seat] += chance * place
                        for later in order[place + 1 :]:
                            ahead[seat][later] += chance
                for seat, name in enumerate(players):
                    rank_sum[name] += (1.0 - world.draw) * expected_rank[seat]
                    rank_count[name] += 1
                    for other, rival in enumerate(players):
                        if other != seat:
                            share = (1.0 - world.draw) * ahead[seat][other] + world.draw / 2
                            meet_sum[name, rival] += share
                            meet_count[name, rival] += 1
    meeting = {pair: meet_sum[pair] / meet_count[pair] for pair in meet_sum}
    mean_rank = {name: 1.0 + rank_sum[name] / rank_count[name] for name in world.bots}
    points = {}
    if k == 2:
        points = {
            name: _mean([meeting[name, o] for o in world.bots if o != name]) for name in world.bots
        }
    endless = {pair: share * meet_count[pair] * 1e6 for pair, share in meeting.items()}
    return Truth(points, mean_rank, meeting, fit(endless, world.bots))


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else math.nan


@dataclass(frozen=True)
class Coverage:
    """How often one method's 95% interval held the truth, at one table size and length."""

    method: str
    seats: int
    rounds: int
    tables: int
    """Tables each bot sat at (the unit the intervals count)."""
    given: int
    """Intervals given (each bot of each simulated tournament, or each pair of bots)."""
    refused: int
    """Intervals refused ("too few games")."""
    held: int

    @property
    def rate(self) -> float:
        return self.held / self.given if self.given else math.nan


def _board_checks(column: str, truths: Callable[[Truth], dict[str, float]]) -> Check:
    """Checks of the leaderboard's `column` interval, as the arena makes the leaderboard
    (without the order-free fit, checked on its own)."""

    def checks(world: World, lines: list[GameLine], exact: Truth) -> list[tuple[Any, float]]:
        from arena.results.ratings import Ratings
        from arena.results.tables import _leaderboard

        board = _leaderboard(lines, Ratings({}, 0), world.bots).set_index("bot")
        true = truths(exact)
        return [
            (_interval(board.loc[name, f"{column}_lo"], board.loc[name, f"{column}_hi"]),
             true[name])
            for name in world.bots
        ]  # fmt: skip

    return checks


def _gauntlet_checks(which: int) -> Check:
    """Checks of the Elo `arena play` and a gauntlet print for two bots (0: from games,
    1: from seat-swapped pairs), each bot against each other bot."""

    def checks(world: World, lines: list[GameLine], exact: Truth) -> list[tuple[Any, float]]:
        from arena.results.gauntlet import per_opponent

        found: list[tuple[Any, float]] = []
        for name in world.bots:
            for opponent, estimates in per_opponent(lines, name).items():
                estimate = estimates[which]
                true = score_elo(exact.meeting[name, opponent])
                assert true is not None  # every bot has a chance: a share strictly in (0, 1)
                if estimate.elo is None or estimate.error is None:
                    found.append((None, true))
                else:
                    found.append(
                        ((estimate.elo - estimate.error, estimate.elo + estimate.error), true)
                    )
        return found

    return checks


def _interval(low: Any, high: Any) -> tuple[float, float] | None:
    return None if math.isnan(float(low)) else (float(low), float(high))


def _pairwise_checks(world: World, lines: list[GameLine], exact: Truth) -> list[tuple[Any, float]]:
    from arena.results.tables import pairwise

    cells = pairwise(lines).set_index(["bot", "opponent"])
    return [
        (_interval(cells.loc[pair, "win_rate_lo"], cells.loc[pair, "win_rate_hi"]),
         exact.meeting[pair])
        for pair in itertools.permutations(world.bots, 2)
    ]  # fmt: skip


def _elo_checks(world: World, lines: list[GameLine], exact: Truth) -> list[tuple[Any, float]]:
    from arena.results.order_free import rate

    rated = rate(lines, world.bots)
    return [(_interval(rated[name].low, rated[name].high), exact.elo[name]) for name in world.bots]


METHODS: dict[str, tuple[str, Check]] = {
    "mean rank": (
        "Student t over tables, >= 6 tables",
        _board_checks("mean_rank", lambda exact: exact.mean_rank),
    ),
    "win rate": (
        "Wilson over tables, >= 6 tables",
        _board_checks("win_rate", lambda exact: exact.points),
    ),
    "head-to-head": ("Wilson over tables, >= 6 tables", _pairwise_checks),
    "order-free Elo": ("sandwich over tables, t, >= 100 meetings", _elo_checks),
    "Elo (pairs)": ("pentanomial, normal, >= 10 pairs", _gauntlet_checks(1)),
    "Elo (games)": ("W/D/L, normal, >= 20 games", _gauntlet_checks(0)),
}
"""Every interval the simulations check: its name, how it is made, its checks (each made by
the arena's own tables from the simulated games log)."""


def coverage(method: str, seats: int, rounds: int, sims: int, seed: int = 0) -> Coverage:
    """Play `sims` seeded tournaments of `rounds` rounds at tables of `seats` among 4 bots of
    random strengths, and count how often `method`'s intervals held the truth."""
    from arena.results.order_free import fit

    rng = random.Random(f"{method}/{seats}/{rounds}/{seed}")
    check = METHODS[method][1]
    given = refused = held = 0
    tables = rounds * math.comb(BOTS - 1, seats - 1)  # each bot's tables in a round robin
    for _ in range(sims):
        world = random_world(rng, seats)
        exact = truth(world, fit)
        lines = play(world, rounds, rng)
        for interval, true in check(world, lines, exact):
            if interval is None:
                refused += 1
                continue
            given += 1
            held += interval[0] - 1e-9 <= true <= interval[1] + 1e-9
    return Coverage(method, seats, rounds, tables, given, refused, held)
