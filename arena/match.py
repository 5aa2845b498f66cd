"""A match: one table of k bots plays deals with the seats rotated, records, a summary."""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from arena.games import DEFAULT_GAME
from arena.players.limits import Limits
from arena.players.manifest import BotManifest
from arena.players.player import Player
from arena.players.ready import make_ready
from arena.referee import GameReport, GameSpec, play_game
from arena.schedule import seatings
from arena.stats.elo import EloEstimate, Pentanomial, from_games, from_pairs, game_points


@dataclass
class BotTally:
    """One seat-holder's totals over a match (a bot given twice has two tallies)."""

    name: str
    """The bot's label in this match: its name, or name#n when the same bot sits twice."""
    wins: int = 0
    """Games it finished first alone."""
    losses: int = 0
    """Games it did not finish first."""
    score: int = 0
    think_ms: float = 0.0
    decisions: int = 0
    thinks: list[float] = field(default_factory=list)
    """Each decision's think time in ms (wall clock, as the referee measures it)."""
    cpu_ms: float | None = 0.0
    """CPU time of its processes over the match (its cgroup's); None where not measured."""
    places: Counter[int] = field(default_factory=Counter)
    """How often it finished in each place (1 = first; tied seats share the better place)."""
    failures: Counter[str] = field(default_factory=Counter)
    """Games this bot lost by its own fault, by termination."""

    @property
    def mean_think_ms(self) -> float:
        """Think time per decision."""
        return self.think_ms / self.decisions if self.decisions else 0.0

    def think_percentile(self, share: float) -> float:
        """The think time under which `share` of the decisions stayed (0 with none)."""
        if not self.thinks:
            return 0.0
        ordered = sorted(self.thinks)
        return ordered[min(len(ordered) - 1, math.ceil(share * len(ordered)) - 1)]

    @property
    def cpu_ms_per_decision(self) -> float | None:
        return None if self.cpu_ms is None or not self.decisions else self.cpu_ms / self.decisions

    @property
    def mean_place(self) -> float:
        played = sum(self.places.values())
        return sum(place * n for place, n in self.places.items()) / played if played else 0.0


@dataclass
class MatchSummary:
    """The result of a match, from the point of view of each bot."""

    tallies: list[BotTally]
    """One tally per bot given, in the order given."""
    game: str = DEFAULT_GAME
    games: int = 0
    draws: int = 0
    """Games in which every seat shared first place."""
    terminations: Counter[str] = field(default_factory=Counter)
    out_dir: Path | None = None
    pairs: Pentanomial = field(default_factory=Pentanomial)
    """Two seats: the seat-swapped pairs of one deal, from the first bot's side."""
    _pair_first: float | None = field(default=None, repr=False)
    """The first bot's score in the first game of the pair being played."""

    @property
    def first_bot_points(self) -> tuple[int, int, int]:
        """Two seats: the first bot's (wins, draws, losses)."""
        first = self.tallies[0]
        return first.wins, self.games - first.wins - first.losses, first.losses

    def elo_from_games(self) -> EloEstimate:
        return from_games(*self.first_bot_points)

    def elo_from_pairs(self) -> EloEstimate:
        return from_pairs(self.pairs)

    def mean_score(self, index: int) -> float:
        return self.tallies[index].score / self.games if self.games else 0.0

    def to_json(self) -> dict[str, object]:
        return {
            "game": self.game,
            "seats": len(self.tallies),
            "games": self.games,
            "draws": self.draws,
            "terminations": dict(self.terminations),
            **(self._elo_json() if len(self.tallies) == 2 else {}),
            "bots": [
                {
                    "name": t.name,
                    "wins": t.wins,
                    "losses": t.losses,
                    "places": {str(place): n for place, n in sorted(t.places.items())},
                    "mean_place": t.mean_place,
                    "mean_score": self.mean_score(i),
                    "think_ms_per_decision": t.mean_think_ms,
                    "think_ms_p95": t.think_percentile(0.95),
                    "think_ms_max": max(t.thinks, default=0.0),
                    "cpu_ms_per_decision": t.cpu_ms_per_decision,
                    "decisions": t.decisions,
                    "failures": dict(t.failures),
                }
                for i, t in enumerate(self.tallies)
            ],
        }

    def _elo_json(self) -> dict[str, object]:
        pairs = self.pairs
        return {
            "elo_games": asdict(self.elo_from_games()),
            "elo_pairs": asdict(self.elo_from_pairs()),
            "pentanomial": {
                "LL": pairs.ll, "LD": pairs.ld, "WL": pairs.wl, "DD": pairs.dd,
                "WD": pairs.wd, "WW": pairs.ww,
            },
        }  # fmt: skip


def seat_labels(bots: Sequence[BotManifest]) -> list[str]:
    """Each bot's label: its name, or name#1, name#2, ... when one name sits more than once."""
    counts = Counter(bot.name for bot in bots)
    seen: Counter[str] = Counter()
    labels = []
    for bot in bots:
        seen[bot.name] += 1
        labels.append(f"{bot.name}#{seen[bot.name]}" if counts[bot.name] > 1 else bot.name)
    return labels


def deal_games(games: int, seed: int, seats: int) -> list[tuple[int, int, tuple[int, ...]]]:
    """(game index, deal seed, the bot index of each seat) per game: deal k (from `seed` + k)
    is played once per rotation of the seats (`arena.schedule.seatings`)."""
    rotations = seatings(range(seats))
    return [(index, seed + index // seats, rotations[index % seats]) for index in range(games)]


def play_match(
    bots: Sequence[BotManifest],
    games: int,
    seed: int,
    limits: Limits,
    out_dir: Path,
    on_game: Callable[[int, GameReport], None] | None = None,
    *,
    game: str = DEFAULT_GAME,
    game_config: Mapping[str, Any] | None = None,
    stop: Callable[[MatchSummary], bool] | None = None,
) -> MatchSummary:
    """Play `games` games of `bots` (one per seat) on rotated seats; write each record.

    `stop` is asked after every complete deal (all its seatings played): True ends the
    match there (an SPRT that has decided).
    """
    for bot in {bot.folder: bot for bot in bots}.values():
        make_ready(bot)  # a failed build or a missing program is the user's error here
    out_dir.mkdir(parents=True, exist_ok=True)
    limits = limits.hiding(out_dir, *(bot.folder for bot in bots))  # records, logs, the others
    labels = seat_labels(bots)
    players = [
        Player(bot, limits, out_dir / "logs", log_name=label)
        for bot, label in zip(bots, labels, strict=True)
    ]
    summary = MatchSummary([BotTally(label) for label in labels], game=game, out_dir=out_dir)
    try:
        for index, deal_seed, by_seat in deal_games(games, seed, len(bots)):
            spec = GameSpec(
                game_id=f"g{index + 1:04d}", seed=deal_seed, game=game, config=game_config or {}
            )
            report = play_game(spec, [players[bot] for bot in by_seat])
            report.players = [labels[bot] for bot in by_seat]
            (out_dir / f"{spec.game_id}.json").write_text(json.dumps(report.record(), indent=1))
            _tally(summary, report, by_seat)
            if on_game is not None:
                on_game(index, report)
            if stop is not None and (index + 1) % len(bots) == 0 and stop(summary):
                break
    finally:
        for player in players:
            player.close()
    (out_dir / "summary.json").write_text(json.dumps(summary.to_json(), indent=1))
    return summary


def _tally(summary: MatchSummary, report: GameReport, by_seat: Sequence[int]) -> None:
    outcome = report.outcome
    summary.games += 1
    summary.terminations[outcome.end or outcome.termination.value] += 1
    if outcome.is_draw:
        summary.draws += 1
    if len(by_seat) == 2:
        first = game_points(outcome.ranks, by_seat.index(0))
        if summary._pair_first is None:
            summary._pair_first = first
        else:
            summary.pairs = summary.pairs.add(summary._pair_first, first)
            summary._pair_first = None
    for seat, bot in enumerate(by_seat):
        tally = summary.tallies[bot]
        tally.score += outcome.scores[seat]
        tally.think_ms += report.think_ms[seat]
        tally.decisions += report.decisions[seat]
        tally.thinks += [move["think_ms"] for move in report.moves if move["seat"] == seat]
        cpu = report.cpu_ms[seat] if seat < len(report.cpu_ms) else None
        tally.cpu_ms = None if cpu is None or tally.cpu_ms is None else tally.cpu_ms + cpu
        tally.places[1 + sum(rank < outcome.ranks[seat] for rank in outcome.ranks)] += 1
        if not outcome.is_draw:
            if outcome.ranks[seat] == 0 and outcome.winners == (seat,):
                tally.wins += 1
            elif outcome.ranks[seat] != 0:
                tally.losses += 1
        if outcome.faulty_seat == seat:
            tally.failures[outcome.termination.value] += 1
