"""Issue 23: the arena's fits against independent implementations, on a real games log.

A tournament of the bundled default field (real bot processes, 480 games) is rated by
the arena and by the libraries themselves: `trueskill` called game by game in log order
(the arena's two-player update is a closed form of it), and `choix`'s Bradley-Terry fit
(ILSR, another algorithm than the arena's Newton steps) on the decisive games, given the
arena's prior as whole wins: same ranking, rating gaps within 1%; and on every game as its
dense matrix of points, half points included (issue 45): the same maximum, to 1e-6 Elo.
"""

from __future__ import annotations

import math

import choix
import numpy as np
import pytest
import trueskill
from click.testing import CliRunner

from arena.cli.main import main
from arena.results.log import GameLine, read_games
from arena.results.order_free import fit, meetings
from arena.results.pair_fit import SCALE
from arena.results.ratings import environment, in_schedule_order, rate_games
from tests.bundled_bots import bundled_folder


@pytest.fixture(scope="module")
def real_log(tmp_path_factory: pytest.TempPathFactory) -> list[GameLine]:
    root = tmp_path_factory.mktemp("cross")
    out = root / "run"
    args = ["run", "--bots", str(bundled_folder(root)), "--rounds", "40", "--seed", "3"]
    args += ["--no-charts", "--out", str(out)]
    result = CliRunner().invoke(main, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return list(read_games(out / "games.jsonl"))


def test_trueskill_called_directly_in_log_order_gives_the_same_ratings(
    real_log: list[GameLine],
) -> None:
    env: trueskill.TrueSkill = environment()
    current: dict[str, trueskill.Rating] = {}
    for line in in_schedule_order(real_log):
        before = [(current.get(name, env.create_rating()),) for name in line.players]
        after = env.rate(before, ranks=list(line.ranks))
        for name, (rating,) in zip(line.players, after, strict=True):
            current[name] = rating
    ours = rate_games(real_log).bots
    assert len(real_log) == 480 and set(ours) == set(current)
    for name, rating in current.items():
        assert ours[name].mu == pytest.approx(rating.mu, rel=0.01)
        assert ours[name].sigma == pytest.approx(rating.sigma, rel=0.01)


def test_choix_bradley_terry_gives_the_same_ranking_and_gaps(real_log: list[GameLine]) -> None:
    decisive = [line for line in real_log if len(set(line.ranks)) == len(line.ranks)]
    names = sorted({name for line in decisive for name in line.players})
    index = {name: i for i, name in enumerate(names)}
    wins = [
        (index[line.players[line.ranks.index(0)]], index[line.players[line.ranks.index(1)]])
        for line in decisive
    ]
    # The arena's prior is one drawn game between every two bots (half a win each way):
    # counted in whole wins, every win twice and one win each way per pair.
    prior = [(i, j) for i in range(len(names)) for j in range(len(names)) if i != j]
    theirs = choix.ilsr_pairwise(len(names), wins + wins + prior, alpha=0.0)
    theirs_elo = {name: 400.0 / math.log(10.0) * theirs[index[name]] for name in names}
    ours = fit(meetings(decisive), names)
    assert sorted(names, key=ours.__getitem__) == sorted(names, key=theirs_elo.__getitem__)
    for a in names:
        for b in names:
            gap, their_gap = ours[a] - ours[b], theirs_elo[a] - theirs_elo[b]
            assert gap == pytest.approx(their_gap, rel=0.01, abs=1.0), (a, b)


def test_choix_dense_fit_with_half_points_finds_the_same_maximum(real_log: list[GameLine]) -> None:
    """Issue 45: every game, ties and k seats included, as choix's dense matrix of points
    (half points and the prior in it): its ILSR finds the maximum pair_fit.py finds."""
    names = sorted({name for line in real_log for name in line.players})
    won = np.full((len(names), len(names)), 0.5)  # the prior: half a point each way
    np.fill_diagonal(won, 0.0)
    for (a, b), points in meetings(real_log).items():
        won[names.index(a), names.index(b)] += points
    theirs = choix.ilsr_pairwise_dense(won, tol=1e-12, max_iter=1000)
    ours = fit(meetings(real_log), names)
    for i, name in enumerate(names):
        assert ours[name] == pytest.approx(SCALE * (theirs[i] - theirs.mean()), abs=1e-6)
