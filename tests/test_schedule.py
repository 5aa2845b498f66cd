"""The schedule: a pure generator of tables of k seats on shared deals, resumable."""

from __future__ import annotations

import itertools
import math
import tracemalloc
from collections import Counter
from collections.abc import Iterable

import pytest

from arena.schedule import (
    GameSlot,
    TableTask,
    deal_seed,
    game_id,
    round_robin,
    schedule,
    seatings,
    total_games,
)

BOTS = ["ant", "bee", "cat", "dog"]


def games(tasks: Iterable[TableTask]) -> list[GameSlot]:
    return [slot for task in tasks for slot in task.games]


def test_every_pair_meets_once_per_round_in_two_seat_swapped_games() -> None:
    slots = games(schedule(BOTS, rounds=3, seed=7))
    assert len(slots) == total_games(len(BOTS), 3) == 3 * 6 * 2
    for round_ in (1, 2, 3):
        pairs = {frozenset(s.players) for s in slots if s.round == round_}
        assert pairs == {frozenset(p) for p in itertools.combinations(BOTS, 2)}
    for first, second in zip(slots[::2], slots[1::2], strict=True):
        assert first.table == second.table
        assert first.seed == second.seed  # one deal for both games
        assert first.players == tuple(reversed(second.players))  # seats swapped
        assert (first.game_id[-2:], second.game_id[-2:]) == ("g1", "g2")


def test_ids_and_seqs_are_unique_and_in_schedule_order() -> None:
    slots = games(schedule(BOTS, rounds=4, seed=1))
    assert [s.seq for s in slots] == list(range(len(slots)))
    ids = [s.game_id for s in slots]
    assert len(set(ids)) == len(ids)
    assert ids == sorted(ids)  # fixed-width ids sort in schedule order


def test_deal_seeds_depend_on_seed_and_pair_only() -> None:
    a = games(schedule(BOTS, rounds=2, seed=5))
    b = games(schedule(BOTS, rounds=2, seed=5))
    c = games(schedule(BOTS, rounds=2, seed=6))
    assert a == b
    assert [s.seed for s in a] != [s.seed for s in c]
    assert len({s.seed for s in a}) == len(a) // 2
    assert all(s.seed == deal_seed(5, s.table) for s in a)
    assert all(0 <= s.seed < 2**63 for s in a)


def test_resume_skips_exactly_the_games_done() -> None:
    everything = games(schedule(BOTS, rounds=2, seed=3))
    done = {s.game_id for s in everything[:7]}  # ends in the middle of a pair
    rest = games(schedule(BOTS, rounds=2, seed=3, done=done))
    assert rest == everything[7:]
    tasks = list(schedule(BOTS, rounds=2, seed=3, done=done))
    assert len(tasks[0].games) == 1  # the half-played pair gives one game


def test_more_rounds_extend_the_same_schedule() -> None:
    short = games(schedule(BOTS, rounds=2, seed=9))
    long = games(schedule(BOTS, rounds=5, seed=9))
    assert long[: len(short)] == short


def test_round_robin_rejects_duplicate_names() -> None:
    with pytest.raises(ValueError, match="unique"):
        round_robin(["a", "a"])


def test_game_id_format() -> None:
    assert game_id(1, 3, 2) == "r0001-p000003-g2"


# --- tables of more than two seats -----------------------------------------------------------

SIX = ["ant", "bee", "cat", "dog", "eel", "fox"]


def test_two_seat_tables_are_the_pairs_of_before() -> None:
    # Pinned from the schedule before tables: ids, seqs, seats and deal seeds of 2-seat runs.
    slots = games(schedule(BOTS, rounds=2, seed=7))
    assert slots[:2] == [
        GameSlot("r0001-p000000-g1", 0, 1, 0, 1, deal_seed(7, 0), ("ant", "bee")),
        GameSlot("r0001-p000000-g2", 1, 1, 0, 2, deal_seed(7, 0), ("bee", "ant")),
    ]
    assert slots[-1].game_id == "r0002-p000011-g2" and slots[-1].seq == 23
    assert deal_seed(7, 0) == 7679952628969360520  # the hash text is unchanged
    assert games(schedule(BOTS, 2, 7, all_seatings=True)) == slots  # 2! = 2 rotations


@pytest.mark.parametrize(
    ("seats", "all_seatings", "per_table"),
    [(3, False, 3), (3, True, 6), (4, False, 4), (4, True, 24)],
)
def test_every_k_subset_sits_once_per_round(seats: int, all_seatings: bool, per_table: int) -> None:
    tasks = list(schedule(SIX, 2, 3, seats=seats, all_seatings=all_seatings))
    slots = games(tasks)
    assert (
        len(slots) == total_games(6, 2, seats, all_seatings) == 2 * math.comb(6, seats) * per_table
    )
    for round_ in (1, 2):
        met = [frozenset(t.games[0].players) for t in tasks if t.round == round_]
        assert sorted(met, key=sorted) == sorted(
            map(frozenset, itertools.combinations(SIX, seats)), key=sorted
        )
    for task in tasks:
        assert len(task.games) == per_table
        assert {s.seed for s in task.games} == {deal_seed(3, task.table)}  # one deal per table
        assert [s.players for s in task.games] == seatings(task.games[0].players, all_seatings)
    ids = [s.game_id for s in slots]
    assert ids == sorted(ids) and len(set(ids)) == len(ids)
    assert [s.seq for s in slots] == list(range(len(slots)))


def test_rotations_put_every_bot_in_every_seat_once() -> None:
    table = seatings(("a", "b", "c", "d"))
    assert table[0] == ("a", "b", "c", "d") and table[1] == ("b", "c", "d", "a")
    for seat in range(4):
        assert sorted(seated[seat] for seated in table) == ["a", "b", "c", "d"]
    assert len(set(seatings(("a", "b", "c"), all_seatings=True))) == 6


def test_a_sample_of_tables_is_balanced_seeded_and_resumable() -> None:
    field = [f"bot{i:02d}" for i in range(10)]

    def sample(rounds: int, seed: int, done: frozenset[str] = frozenset()) -> list[GameSlot]:
        return games(schedule(field, rounds, seed, done, seats=4, tables_per_round=7))

    slots = sample(5, 11)
    assert len(slots) == total_games(10, 5, 4, sample=7) == 5 * 7 * 4
    for rounds in range(1, 6):  # balanced after every round, not just at the end
        sat = Counter(b for s in slots if s.round <= rounds and s.game == 1 for b in s.players)
        assert max(sat.values()) - min(sat.values()) <= 1 and set(sat) == set(field)
    assert slots == sample(5, 11)
    assert slots != sample(5, 12)
    assert len({frozenset(s.players) for s in slots}) > 20  # tables mix the field
    for round_ in range(1, 6):  # and a round does not sit one table twice
        assert len({frozenset(s.players) for s in slots if s.round == round_}) == 7
    assert sample(5, 11, frozenset(s.game_id for s in slots[:30])) == slots[30:]
    assert sample(2, 11) == slots[:56]  # more rounds extend the same schedule


def test_a_sample_as_large_as_the_round_is_the_whole_round() -> None:
    assert games(schedule(SIX, 1, 2, seats=3, tables_per_round=99)) == games(
        schedule(SIX, 1, 2, seats=3)
    )


def test_resume_skips_the_done_games_of_a_table() -> None:
    everything = games(schedule(SIX, 1, 3, seats=3))
    done = {s.game_id for s in everything[:10]}
    tasks = list(schedule(SIX, 1, 3, done, seats=3))
    assert games(tasks) == everything[10:]
    assert [s.game for s in tasks[0].games] == [2, 3]


def test_the_generator_holds_no_list_of_games() -> None:
    field = [f"b{i}" for i in range(12)]

    def peak(rounds: int) -> int:
        tracemalloc.start()
        for _ in schedule(field, rounds, 1, seats=3):
            pass
        size = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        return size

    small, large = peak(2), peak(40)  # 440 against 8,800 tables
    assert large < small + 20_000


def test_ids_of_larger_tables() -> None:
    assert game_id(2, 5, 3, seats=3) == "r0002-t000005-g3"
    assert game_id(2, 5, 3, seats=4, width=2) == "r0002-t000005-g03"
    assert games(schedule(SIX, 1, 0, seats=4, all_seatings=True))[9].game_id == "r0001-t000000-g10"


def test_a_table_larger_than_the_field_is_refused() -> None:
    with pytest.raises(ValueError, match="seats"):
        list(schedule(["a", "b"], 1, 0, seats=3))


def test_a_gauntlet_schedules_only_the_candidates_tables() -> None:
    from arena.schedule import schedule, total_games

    bots = ["a", "b", "c", "d"]
    for seats in (2, 3):
        tasks = list(schedule(bots, 2, 1, seats=seats, gauntlet="c"))
        assert all("c" in slot.players for task in tasks for slot in task.games)
        games = sum(len(task.games) for task in tasks)
        assert games == total_games(4, 2, seats, gauntlet=True)
    assert total_games(4, 1, 2, gauntlet=True) == 3 * 2
