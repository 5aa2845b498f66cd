"""Elo, LOS, pentanomial pairs and the SPRT against fastchess's own test vectors.

The vectors are copied from fastchess (github.com/Disservin/fastchess, commit 74deac2):
app/tests/elo_test.cpp and app/tests/sprt_test.cpp, which check to 1% (doctest's
Approx(...).epsilon(0.01)); so do these. fastchess's trinomial Stats take (wins, losses,
draws) and its pentanomial Stats (LL, LD, WL, DD, WD, WW).
"""

from __future__ import annotations

import math
import random

import pytest

from arena.stats.elo import Pentanomial, from_games, from_pairs
from arena.stats.sprt import CONTINUE, H0, H1, Sprt


def close(value: float | None, expected: float) -> bool:
    return value is not None and math.isclose(value, expected, rel_tol=0.01, abs_tol=0.005)


@pytest.mark.parametrize(
    ("wins", "losses", "draws", "nelo", "nelo_error", "los", "score"),
    [
        (76, 89, 123, -20.76, 40.13, 0.1553, 0.477),  # EloWDL 1
        (136, 96, 111, 49.77, 36.77, 0.9960, 0.558),  # EloWDL 2
        (34, 356, 0, -508.44, 34.48, None, 0.087),  # EloWDL 3
    ],
)
def test_elo_from_games_matches_fastchess(
    wins: int, losses: int, draws: int, nelo: float, nelo_error: float, los: float | None,
    score: float,
) -> None:  # fmt: skip
    estimate = from_games(wins, draws, losses)
    assert close(estimate.nelo, nelo) and close(estimate.nelo_error, nelo_error)
    assert close(estimate.score, score)
    if los is not None:
        assert estimate.los is not None and round(estimate.los, 4) == los
    if (wins, losses) == (136, 96):
        assert close(estimate.elo, 40.70) and close(estimate.error, 30.43)


@pytest.mark.parametrize(
    ("counts", "nelo", "nelo_error", "elo", "error", "los", "score"),
    [
        ((34, 54, 31, 32, 64, 75), 57.94, 28.28, 55.58, 27.65, 1.0, 0.579),
        ((332, 433, 457, 41, 333, 334), -9.17, 10.96, -8.64, 10.33, 0.0505, 0.488),
        ((7895, 8757, 5485, 200, 568, 9999), -19.01, 2.65, -21.04, 2.95, 0.0, 0.470),
    ],
)
def test_elo_from_pairs_matches_fastchess(
    counts: tuple[int, ...], nelo: float, nelo_error: float, elo: float, error: float,
    los: float, score: float,
) -> None:  # fmt: skip
    estimate = from_pairs(Pentanomial(*counts))
    assert close(estimate.nelo, nelo) and close(estimate.nelo_error, nelo_error)
    assert close(estimate.elo, elo) and close(estimate.error, error)
    assert estimate.los is not None and round(estimate.los, 4) == los
    assert close(estimate.score, score)


@pytest.mark.parametrize(
    ("wins", "losses", "draws", "elo0", "elo1", "model", "llr"),
    [
        (36433, 36027, 68692, 0, 2, "normalized", 0.92),
        (10871, 10650, 20431, -1.75, 0.25, "normalized", 2.30),
        (4250, 0, 0, 0, 10, "normalized", 120.56),
        (21404, 21184, 40708, 0.5, 2.5, "logistic", -1.57),
        (57433, 57030, 106593, 0, 2, "logistic", -2.59),
    ],
)
def test_trinomial_llr_matches_fastchess(
    wins: int, losses: int, draws: int, elo0: float, elo1: float, model: str, llr: float
) -> None:
    assert close(Sprt(elo0, elo1, model=model).llr_games(wins, draws, losses), llr)


@pytest.mark.parametrize(
    ("counts", "elo0", "elo1", "model", "llr"),
    [
        ((365, 16618, 36029, 200, 16974, 390), 0, 2, "normalized", 2.25),
        ((127, 4883, 10311, 401, 5150, 104), -1.75, 0.25, "normalized", 3.01),
        ((0, 0, 0, 0, 0, 5550), 0, 5, "normalized", 111.82),
        ((223, 9863, 20279, 1000, 10037, 246), 0.5, 2.5, "logistic", -3.07),
        ((871, 26175, 55003, 980, 26678, 821), 0, 2, "logistic", -4.98),
    ],
)
def test_pentanomial_llr_matches_fastchess(
    counts: tuple[int, ...], elo0: float, elo1: float, model: str, llr: float
) -> None:
    assert close(Sprt(elo0, elo1, model=model).llr(Pentanomial(*counts)), llr)


def test_the_bounds_and_the_verdicts() -> None:
    test = Sprt(0, 10)
    assert math.isclose(test.lower, math.log(0.05 / 0.95))
    assert math.isclose(test.upper, math.log(0.95 / 0.05))
    assert test.verdict(3.0) == H1 and test.verdict(-3.0) == H0 and test.verdict(0.0) == CONTINUE


@pytest.mark.parametrize(
    "counts",
    [
        Pentanomial(),  # no games
        Pentanomial(ww=40),  # all won
        Pentanomial(ll=40),  # all lost
        Pentanomial(dd=40),  # all drawn
        Pentanomial(wl=1),  # a single pair, no variance
    ],
)
def test_degenerate_samples_give_defined_figures_never_nan(counts: Pentanomial) -> None:
    """The cases that broke other tools: the estimate is None where there is none."""
    estimate = from_pairs(counts)
    for value in (estimate.score, estimate.elo, estimate.error, estimate.nelo, estimate.los):
        assert value is None or math.isfinite(value)
    for model in ("logistic", "normalized"):
        assert math.isfinite(Sprt(0, 10, model=model).llr(counts))
    if counts.ww:
        assert estimate.elo is None and estimate.los == 1.0
        assert Sprt(0, 10).llr(counts) > 0
    if counts.pairs == 0:
        assert estimate.score is None and Sprt(0, 10).llr(counts) == 0.0


@pytest.mark.parametrize(
    "bad", [(10, 0), (0, 10, 0.0), (0, 10, 0.6, 0.6), (0, 10, 0.05, 0.05, "x")]
)
def test_a_test_that_cannot_decide_is_refused(bad: tuple[object, ...]) -> None:
    with pytest.raises(ValueError):
        Sprt(*bad)  # type: ignore[arg-type]


def _pair_result(rng: random.Random, elo: float, draw: float) -> tuple[float, float]:
    """Two games of a bot `elo` stronger, each a draw with probability `draw`."""
    expected = 1.0 / (1.0 + 10.0 ** (-elo / 400.0))
    win = expected - draw / 2.0
    return tuple(  # type: ignore[return-value]
        1.0 if (r := rng.random()) < win else 0.5 if r < win + draw else 0.0 for _ in range(2)
    )


def _run(rng: random.Random, test: Sprt, elo: float) -> str:
    counts = Pentanomial()
    while True:
        counts = counts.add(*_pair_result(rng, elo, draw=0.2))
        verdict = test.verdict(test.llr(counts))
        if verdict != CONTINUE:
            return verdict


@pytest.mark.parametrize("model", ["logistic", "normalized"])
def test_simulated_error_rates_are_near_alpha_and_beta(model: str) -> None:
    """Simulated pairs (not real games): under H0 the test wrongly accepts H1 about alpha of
    the time, under H1 it wrongly accepts H0 about beta of the time (seeded, 200 runs each)."""
    rng = random.Random(7)
    test = Sprt(0, 60, alpha=0.1, beta=0.1, model=model)
    runs = 200
    elo1 = 60.0 if model == "logistic" else 76.0  # nElo 60 is ~76 Elo at this draw rate
    false_h1 = sum(_run(rng, test, 0.0) == H1 for _ in range(runs)) / runs
    false_h0 = sum(_run(rng, test, elo1) == H0 for _ in range(runs)) / runs
    assert false_h1 < 0.2 and false_h0 < 0.2, (false_h1, false_h0)
    assert false_h1 > 0.01 or false_h0 > 0.01  # the test is not trivially conservative


def test_think_time_histograms_give_p95_within_a_quarter() -> None:
    """Issue 14: the games log keeps think times as log-scale histograms; p95 over a whole
    tournament is read from their sum, at most 25% above the exact value."""
    from arena.stats.think import histogram, merge, percentile

    rng = random.Random(5)
    games = [[rng.lognormvariate(0, 1.5) for _ in range(rng.randrange(1, 60))] for _ in range(300)]
    every = sorted(t for game in games for t in game)
    exact = every[math.ceil(0.95 * len(every)) - 1]
    estimate = percentile(merge(histogram(game) for game in games), 0.95)
    assert estimate is not None and exact <= estimate <= exact * 1.25
    assert percentile({}, 0.95) is None
