"""Tables built with pandas from the games log: per-seat results, the leaderboard, pairwise rates.

Win rate counts a draw as half a win: win rate = (wins + draws / 2) / games, the usual
"score" of chess tables. Its 95% interval is Wilson's score interval, applied to that
fractional count (a close and conservative approximation when draws are few).
A seat *wins* when it alone is ranked first, *draws* when it shares first place, and
*loses* otherwise; between two seats of one game, the better rank wins.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pandas as pd

from arena.results.ratings import Ratings, in_schedule_order

__all__ = [
    "LEADERBOARD_COLUMNS",
    "format_markdown",
    "games_frame",
    "leaderboard",
    "pairwise",
    "seats_frame",
    "wilson",
]

GameLine = Mapping[str, Any]

Z95 = 1.959963984540054
"""The 97.5% quantile of the standard normal distribution."""

LEADERBOARD_COLUMNS = [
    "rank",
    "bot",
    "mu",
    "sigma",
    "conservative",
    "games",
    "wins",
    "draws",
    "losses",
    "win_rate",
    "win_rate_lo",
    "win_rate_hi",
    "mean_score",
    "failures",
]
"""The columns of `ratings.csv`, in order. None of them depends on timing."""


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a proportion of `successes` in `n` trials ((0, 1) if n = 0)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(max(p * (1 - p) / n + z2 / (4 * n * n), 0.0)) / (1 + z2 / n)
    lo = 0.0 if successes <= 0 else max(0.0, centre - half)
    hi = 1.0 if successes >= n else min(1.0, centre + half)
    return (lo, hi)


def games_frame(games: Iterable[GameLine]) -> pd.DataFrame:
    """One row per game, in schedule order (the columns of the games log, lists kept as lists)."""
    frame = pd.DataFrame(in_schedule_order(games))
    if frame.empty:
        return pd.DataFrame(columns=["seq", "game_id", "players", "scores", "ranks", "turns"])
    return frame


def _result(rank: int, ranks: Sequence[int]) -> str:
    if rank != 0:
        return "loss"
    return "draw" if sum(1 for r in ranks if r == 0) > 1 else "win"


def seats_frame(games: Iterable[GameLine]) -> pd.DataFrame:
    """One row per seat of every game: who played, what they scored, how it went for them."""
    records: list[dict[str, Any]] = []
    for line in in_schedule_order(games):
        gid = str(line["game_id"])
        players = list(line["players"])
        ranks = [int(r) for r in line["ranks"]]
        scores = list(line["scores"])
        think = list(line.get("think_ms") or [math.nan] * len(players))
        decisions = list(line.get("decisions") or [0] * len(players))
        for seat, bot in enumerate(players):
            result = _result(ranks[seat], ranks)
            records.append(
                {
                    "seq": int(line.get("seq", 0)),
                    "game_id": gid,
                    "seat": seat,
                    "bot": bot,
                    "opponent": players[1 - seat] if len(players) == 2 else "",
                    "score": scores[seat],
                    "rank": ranks[seat],
                    "result": result,
                    "points": {"win": 1.0, "draw": 0.5, "loss": 0.0}[result],
                    "faulty": line.get("faulty_seat") == seat,
                    "termination": line.get("termination", ""),
                    "turns": int(line.get("turns", 0)),
                    "think_ms": think[seat],
                    "decisions": decisions[seat],
                }
            )
    columns = [
        "seq", "game_id", "seat", "bot", "opponent", "score", "rank", "result", "points",
        "faulty", "termination", "turns", "think_ms", "decisions",
    ]  # fmt: skip
    return pd.DataFrame.from_records(records, columns=columns)


def _failures(rows: pd.DataFrame) -> str:
    faulty = rows[rows["faulty"]]
    if faulty.empty:
        return ""
    counts = faulty["termination"].value_counts()
    return ", ".join(f"{reason} {int(counts[reason])}" for reason in sorted(counts.index))


def leaderboard(
    games: Iterable[GameLine], ratings: Ratings, bots: Iterable[str] = ()
) -> pd.DataFrame:
    """The leaderboard: every bot, ranked by mu - 3 sigma (then mu, then name).

    Columns are `LEADERBOARD_COLUMNS`. `bots` adds bots that have not played yet.
    """
    seats = seats_frame(games)
    names = sorted({*ratings.bots, *bots, *seats["bot"].unique().tolist()})
    rows: list[dict[str, Any]] = []
    for name in names:
        rating = ratings.bots.get(name)
        mine = seats[seats["bot"] == name]
        n = len(mine)
        wins = int((mine["result"] == "win").sum())
        draws = int((mine["result"] == "draw").sum())
        losses = int((mine["result"] == "loss").sum())
        points = wins + draws / 2
        lo, hi = wilson(points, n)
        mu = rating.mu if rating else 25.0
        sigma = rating.sigma if rating else 25.0 / 3.0
        rows.append(
            {
                "bot": name,
                "mu": mu,
                "sigma": sigma,
                "conservative": mu - 3 * sigma,
                "games": n,
                "wins": wins,
                "draws": draws,
                "losses": losses,
                "win_rate": points / n if n else math.nan,
                "win_rate_lo": lo if n else math.nan,
                "win_rate_hi": hi if n else math.nan,
                "mean_score": float(mine["score"].mean()) if n else math.nan,
                "failures": _failures(mine),
            }
        )
    rows.sort(key=lambda r: (-r["conservative"], -r["mu"], r["bot"]))
    for place, row in enumerate(rows, start=1):
        row["rank"] = place
    return pd.DataFrame.from_records(rows, columns=LEADERBOARD_COLUMNS)


def pairwise(games: Iterable[GameLine]) -> pd.DataFrame:
    """How each bot fared against each other bot: one row per ordered pair (bot, opponent).

    Columns: bot, opponent, games, wins, draws, losses, win_rate, win_rate_lo, win_rate_hi.
    In games of more than two seats, every two seats of a game count as one meeting.
    """
    tally: dict[tuple[str, str], list[int]] = {}
    for line in in_schedule_order(games):
        players = list(line["players"])
        ranks = [int(r) for r in line["ranks"]]
        for i, bot in enumerate(players):
            for j, opponent in enumerate(players):
                if i == j or bot == opponent:
                    continue
                counts = tally.setdefault((bot, opponent), [0, 0, 0])
                if ranks[i] < ranks[j]:
                    counts[0] += 1
                elif ranks[i] == ranks[j]:
                    counts[1] += 1
                else:
                    counts[2] += 1
    rows = []
    for (bot, opponent), (wins, draws, losses) in sorted(tally.items()):
        n = wins + draws + losses
        lo, hi = wilson(wins + draws / 2, n)
        rows.append(
            {
                "bot": bot,
                "opponent": opponent,
                "games": n,
                "wins": wins,
                "draws": draws,
                "losses": losses,
                "win_rate": (wins + draws / 2) / n,
                "win_rate_lo": lo,
                "win_rate_hi": hi,
            }
        )
    columns = [
        "bot", "opponent", "games", "wins", "draws", "losses",
        "win_rate", "win_rate_lo", "win_rate_hi",
    ]  # fmt: skip
    return pd.DataFrame.from_records(rows, columns=columns)


def _cell(value: Any, decimals: int) -> str:
    if isinstance(value, float):
        return "-" if math.isnan(value) else f"{value:.{decimals}f}"
    text = str(value)
    return text if text else "-"


def format_markdown(board: pd.DataFrame) -> str:
    """The leaderboard as a Markdown table (rates in percent with their 95% interval)."""
    header = [
        "#", "bot", "mu", "sigma", "mu-3σ", "games", "W", "D", "L",
        "win rate (95% CI)", "mean score", "failures",
    ]  # fmt: skip
    lines = [
        "| " + " | ".join(header) + " |",
        "|" + "|".join(["---:", ":---", "---:", "---:", "---:", "---:", "---:", "---:", "---:",
                        "---:", "---:", ":---"]) + "|",
    ]  # fmt: skip
    for row in board.to_dict("records"):
        rate = row["win_rate"]
        if isinstance(rate, float) and not math.isnan(rate):
            rate_text = (
                f"{100 * rate:.1f}% ({100 * row['win_rate_lo']:.1f}–{100 * row['win_rate_hi']:.1f})"
            )
        else:
            rate_text = "-"
        cells = [
            _cell(row["rank"], 0),
            _cell(row["bot"], 0),
            _cell(row["mu"], 2),
            _cell(row["sigma"], 2),
            _cell(row["conservative"], 2),
            _cell(row["games"], 0),
            _cell(row["wins"], 0),
            _cell(row["draws"], 0),
            _cell(row["losses"], 0),
            rate_text,
            _cell(row["mean_score"], 2),
            _cell(row["failures"], 0),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"
