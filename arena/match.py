"""A match between two bots: games in seat-swapped pairs on the same deals, records, a summary."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from arena.players.manifest import BotManifest, build_bot
from arena.players.sandbox import check_command
from arena.referee import GameReport, GameSpec, Limits, Player, play_game


@dataclass
class BotTally:
    """One bot's totals over a match."""

    name: str
    wins: int = 0
    losses: int = 0
    score: int = 0
    think_ms: float = 0.0
    decisions: int = 0
    failures: Counter[str] = field(default_factory=Counter)
    """Games this bot lost by its own fault, by termination."""

    @property
    def mean_think_ms(self) -> float:
        """Think time per decision."""
        return self.think_ms / self.decisions if self.decisions else 0.0


@dataclass
class MatchSummary:
    """The result of a match, from the point of view of each bot."""

    tallies: list[BotTally]
    """Bot A's tally, then bot B's."""
    games: int = 0
    draws: int = 0
    terminations: Counter[str] = field(default_factory=Counter)
    out_dir: Path | None = None

    def mean_score(self, index: int) -> float:
        return self.tallies[index].score / self.games if self.games else 0.0

    def to_json(self) -> dict[str, object]:
        return {
            "games": self.games,
            "draws": self.draws,
            "terminations": dict(self.terminations),
            "bots": [
                {
                    "name": t.name,
                    "wins": t.wins,
                    "losses": t.losses,
                    "mean_score": self.mean_score(i),
                    "think_ms_per_decision": t.mean_think_ms,
                    "decisions": t.decisions,
                    "failures": dict(t.failures),
                }
                for i, t in enumerate(self.tallies)
            ],
        }


def pair_seats(games: int, seed: int) -> list[tuple[int, int, bool]]:
    """(game index, seed, swapped) for each game: games 2k and 2k+1 share seed + k."""
    return [(index, seed + index // 2, index % 2 == 1) for index in range(games)]


def play_match(
    bot_a: BotManifest,
    bot_b: BotManifest,
    games: int,
    seed: int,
    limits: Limits,
    out_dir: Path,
    on_game: Callable[[int, GameReport], None] | None = None,
) -> MatchSummary:
    """Play `games` games of A against B in seat-swapped pairs; write each record to `out_dir`."""
    for bot in (bot_a, bot_b):
        build_bot(bot)
        check_command(bot)  # a missing program is the user's error, not a game result
    out_dir.mkdir(parents=True, exist_ok=True)
    same = bot_a.name == bot_b.name
    players = [
        Player(bot_a, limits, out_dir / "logs", log_name=f"{bot_a.name}-a" if same else None),
        Player(bot_b, limits, out_dir / "logs", log_name=f"{bot_b.name}-b" if same else None),
    ]
    summary = MatchSummary([BotTally(bot_a.name), BotTally(bot_b.name)], out_dir=out_dir)
    try:
        for index, game_seed, swapped in pair_seats(games, seed):
            seats = [1, 0] if swapped else [0, 1]  # seats[i]: the seat of bot i
            spec = GameSpec(game_id=f"g{index + 1:04d}", seed=game_seed)
            by_seat = [players[0], players[1]][:: -1 if swapped else 1]
            report = play_game(spec, by_seat)
            (out_dir / f"{spec.game_id}.json").write_text(json.dumps(report.record(), indent=1))
            _tally(summary, report, seats)
            if on_game is not None:
                on_game(index, report)
    finally:
        for player in players:
            player.close()
    (out_dir / "summary.json").write_text(json.dumps(summary.to_json(), indent=1))
    return summary


def _tally(summary: MatchSummary, report: GameReport, seats: list[int]) -> None:
    outcome = report.outcome
    summary.games += 1
    summary.terminations[outcome.termination.value] += 1
    if outcome.is_draw:
        summary.draws += 1
    for bot, seat in enumerate(seats):
        tally = summary.tallies[bot]
        tally.score += outcome.scores[seat]
        tally.think_ms += report.think_ms[seat]
        tally.decisions += report.decisions[seat]
        if not outcome.is_draw:
            if outcome.ranks[seat] == 0:
                tally.wins += 1
            else:
                tally.losses += 1
        if outcome.faulty_seat == seat:
            tally.failures[outcome.termination.value] += 1
