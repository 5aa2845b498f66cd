"""A gauntlet's figures: the candidate against each opponent, as `arena play` gives them for
two bots (Elo from games and from seat-swapped pairs, LOS), from the games log."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from arena.results.log import GameLine
from arena.stats.elo import (
    MIN_PAIRS,
    EloEstimate,
    Pentanomial,
    from_games,
    from_pairs,
    game_points,
)


def per_opponent(
    games: Iterable[GameLine], candidate: str
) -> dict[str, tuple[EloEstimate, EloEstimate]]:
    """For each opponent of `candidate` at 2-seat tables: (Elo from games, Elo from pairs)."""
    results: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])  # wins, draws, losses
    tables: dict[tuple[str, int], list[float]] = defaultdict(list)
    for line in sorted(games, key=lambda g: (g.seq, g.game_id)):
        if candidate not in line.players or len(line.players) != 2:
            continue
        opponent = line.players[1 - line.players.index(candidate)]
        points = game_points(line.ranks, line.players.index(candidate))
        results[opponent][0 if points == 1.0 else 1 if points == 0.5 else 2] += 1
        tables[opponent, line.table].append(points)
    pairs: dict[str, Pentanomial] = defaultdict(Pentanomial)
    for (opponent, _), scores in tables.items():
        if len(scores) == 2:
            pairs[opponent] = pairs[opponent].add(*scores)
    return {
        opponent: (from_games(*counts), from_pairs(pairs[opponent]))
        for opponent, counts in sorted(results.items())
    }


def markdown(games: Iterable[GameLine], candidate: str) -> list[str]:
    """The gauntlet section of a leaderboard."""
    rows = per_opponent(games, candidate)
    lines = [
        f"## Gauntlet: {candidate} against each opponent",
        "",
        "| opponent | games | score | Elo (95%) | Elo from pairs (95%) | LOS |",
        "|:---|---:|---:|---:|---:|---:|",
    ]
    for opponent, (games_elo, pairs_elo) in rows.items():
        lines.append(
            f"| {opponent} | {games_elo.units} | {_percent(games_elo.score)} | "
            f"{_elo(games_elo, games_elo.units < 2 * MIN_PAIRS)} | "
            f"{_elo(pairs_elo, pairs_elo.units < MIN_PAIRS)} | {_percent(games_elo.los)} |"
        )
    return lines


def _elo(estimate: EloEstimate, too_few: bool) -> str:
    if estimate.elo is None:
        return "-"
    if estimate.error is None:  # too few deals, or an interval that reaches 0% or 100%
        return f"{estimate.elo + 0.0:+.1f}" + (" (too few games)" if too_few else "")
    return f"{estimate.elo + 0.0:+.1f} ± {estimate.error:.1f}"


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"
