"""A new version is a candidate judged by an SPRT against its previous one
(arena/league/candidates.py; issue 24)."""

from __future__ import annotations

import dataclasses
import logging
import time
from pathlib import Path

import pytest

from arena.execution import TableResult
from arena.league.candidates import UNTESTED, CandidateTests, judge, opponent, verdict_for
from arena.league.league import League
from arena.league.store import Bot
from arena.players.limits import Limits
from arena.results.log import GameLine
from arena.stats.sprt import H0, H1, Sprt
from tests.league_support import bot_archive


def _game(table: int, players: tuple[str, ...], ranks: tuple[int, ...]) -> GameLine:
    return GameLine.from_json(
        {
            "seq": table, "game_id": f"L{table:07d}-g{len(players)}", "round": 1, "table": table,
            "game": 1, "seed": 1, "players": list(players), "scores": [0] * len(players),
            "ranks": list(ranks), "winner": None, "termination": "normal", "end": None,
            "reason": "r", "faulty_seat": None, "turns": 1, "decisions": [1] * len(players),
            "think_ms": [0.0] * len(players), "cpu_ms": [None] * len(players),
            "think_max_ms": [0.0] * len(players), "think_hist": [{}] * len(players),
            "duration_ms": 1.0, "worker": "w", "finished_at": "2026-11-25T00:00:00+00:00",
        }
    )  # fmt: skip


def test_two_seat_pairs_of_wins_accept_the_candidate_and_losses_reject_it() -> None:
    wins = [_game(t, seating, (0, 1) if seating[0] == "b.v2" else (1, 0))
            for t in range(100) for seating in (("b.v2", "b"), ("b", "b.v2"))]  # fmt: skip
    verdict = judge("b.v2", "b", wins, seats=2)
    assert verdict.verdict == H1 and verdict.llr >= verdict.upper
    assert verdict.games < 200 and verdict.wins == verdict.games  # final at the verdict
    losses = [_game(t, seating, (1, 0) if seating[0] == "b.v2" else (0, 1))
              for t in range(100) for seating in (("b.v2", "b"), ("b", "b.v2"))]  # fmt: skip
    assert judge("b.v2", "b", losses, seats=2).verdict == H0
    assert judge("b.v2", "b", wins[:1], seats=2).llr == 0.0  # half a pair is no evidence


def test_at_more_seats_each_game_counts_by_which_version_ranked_better() -> None:
    games = [_game(t, ("x", "b", "b.v2"), (0, 2, 1)) for t in range(120)]
    verdict = judge("b.v2", "b", games, seats=3)
    assert verdict.verdict == H1 and verdict.games < 120 and verdict.wins == verdict.games


def _bot(version: int, status: str, name: str = "b") -> Bot:
    return Bot(version, name, version, "ada", f"bots/{name}.v{version}", status, "")


def test_the_previous_version_is_the_latest_earlier_active_one() -> None:
    bots = [_bot(1, "active"), _bot(2, "active"), _bot(3, "building"), _bot(1, "active", "c")]
    assert opponent(bots[2], bots, {}) == bots[1]
    bots = [_bot(1, "active"), _bot(2, "failed"), _bot(3, "active")]
    assert opponent(bots[2], bots, {}) == bots[0]  # never a failed one
    bots = [_bot(1, "retired"), _bot(2, "active")]
    assert opponent(bots[1], bots, {}) is None  # retired before they met
    met = {("b", "b.v2"): 1}  # the games each pair met (the league's pair tallies)
    assert opponent(bots[1], bots, met) == bots[0]  # retired after: its test ran against it
    verdict = verdict_for(bots[1], bots[1:], {}, CandidateTests(seats=2))
    assert verdict is not None and verdict.verdict == UNTESTED and verdict.decided
    assert verdict.words == "v2 is untested: no earlier version is active"


def test_a_stronger_new_version_is_accepted_in_a_running_league(tmp_path: Path) -> None:
    test = Sprt(0.0, 200.0)  # a wide test: decided in a few pairs
    league = League(tmp_path / "league", workers=0, limits=Limits(move_ms=5000), test=test)
    ada = league.store.author_of(league.store.add_author("ada"))
    assert ada is not None
    league.submit(ada, bot_archive(tmp_path / "1", "random", "mine"), wait=True)
    league.submit(ada, bot_archive(tmp_path / "2", "random", "other"), wait=True)
    candidate = league.submit(ada, bot_archive(tmp_path / "3", "greedy", "mine"), wait=True)
    assert candidate.label == "mine.v2" and candidate.status == "active"
    league.start()
    deadline = time.monotonic() + 240
    verdict = league.verdict(candidate)
    while time.monotonic() < deadline:
        with league.lock:
            verdict = league.verdict(candidate)
        if verdict is not None and verdict.decided:
            break
        time.sleep(0.3)
    league.close()
    assert verdict is not None and verdict.verdict == H1 and verdict.previous == "mine"


def _pairs(tables: range, candidate_wins: bool) -> list[GameLine]:
    """At 2 seats, each table's two games (seats swapped) won by the candidate or lost."""
    return [
        dataclasses.replace(
            _game(t, seating, (0, 1) if (seating[0] == "b.v2") == candidate_wins else (1, 0)),
            game_id=f"L{t:07d}-g{n}",
            seq=2 * t + n,
        )
        for t in tables
        for n, seating in enumerate((("b.v2", "b"), ("b", "b.v2")), 1)
    ]


def test_a_verdict_is_final_its_figures_those_at_the_verdict() -> None:
    """Issue 42, point 7: H0 at 732 games (LLR -2.97) went on to -3.38 at 888 on the page;
    the games after a verdict change neither it nor its figures, even games that would
    have turned it round."""
    losses = _pairs(range(100), candidate_wins=False)
    first = next(  # the shortest list of games that decides it
        n for n in range(2, len(losses) + 1, 2) if judge("b.v2", "b", losses[:n], seats=2).decided
    )
    at_verdict = judge("b.v2", "b", losses[:first], seats=2)
    assert at_verdict.verdict == H0 and at_verdict.llr <= at_verdict.lower
    assert (at_verdict.games, at_verdict.losses, at_verdict.wins) == (first, first, 0)
    later = losses + _pairs(range(100, 400), candidate_wins=True)
    assert judge("b.v2", "b", later, seats=2) == at_verdict
    tests = CandidateTests(Sprt(0.0, 10.0), seats=2)  # kept up to date as games arrive
    for line in later:
        tests.add(line)
        verdict = tests.verdict("b.v2", "b")
    assert verdict == at_verdict and verdict.to_json()["losses"] == first


def test_after_its_verdict_a_candidate_is_no_longer_tested_and_page_and_log_agree(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    league = League(tmp_path / "league", workers=0, test=Sprt(0.0, 200.0))
    try:
        ada = league.store.author_of(league.store.add_author("ada"))
        assert ada is not None
        with league.lock:
            old = league.store.set_status(league.store.add_bot("b", ada, "1"), "active")
            new = league.store.set_status(league.store.add_bot("b", ada, "2"), "active")
        assert new.label == "b.v2"
        assert league._open_test([old, new]) == ("b.v2", "b")  # tested while undecided
        caplog.set_level(logging.INFO, logger="arena.league")
        table = 0
        while not caplog.records and table < 50:
            league.record(TableResult(_pairs(range(table, table + 1), candidate_wins=True)))
            table += 1
        (told,) = [record.getMessage() for record in caplog.records]
        verdict = league.verdict(new)
        assert verdict is not None and verdict.verdict == H1
        assert told == (
            f"SPRT of b.v2 against b: H1 after {verdict.games} games (LLR {verdict.llr:.2f})"
        )
        assert league._open_test([old, new]) is None  # no longer tested
        league.record(TableResult(_pairs(range(table, table + 20), candidate_wins=False)))
        assert league.verdict(new) == verdict  # the page's figures stay the verdict's
    finally:
        league.close()
