"""Tables built with pandas from the games log: per-seat results, the leaderboard, head-to-head.

Win rate counts a draw as half a win: win rate = (wins + draws / 2) / games, the usual
"score" of chess tables. Its 95% interval is Wilson's score interval over the tables (deals)
the bot played, as many as their spread is worth (arena/stats/intervals.py; "too few
games" below 6 tables).
A seat *wins* when it alone is ranked first, *draws* when it shares first place, and
*loses* otherwise; between two seats of one game, the better rank wins.

Tournaments of two seats show wins, draws and losses. Tables of more seats show each bot's
mean rank (1 is first) with its 95% interval over the tables it sat at ("too few games"
below 6 tables; arena/stats/intervals.py), how often it finished in each place (tied
places count for each), its mean score and its share of the points at its tables.
Head-to-head (`pairwise`) counts, for every two bots that met at a table, how often each
finished ahead of the other.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Any

import pandas as pd

from arena.outcome import Termination
from arena.results import order_free
from arena.results.log import GameLine
from arena.results.ratings import Ratings, in_schedule_order
from arena.stats.intervals import mean_interval, share_interval, wilson

__all__ = [
    "LEADERBOARD_COLUMNS",
    "ends",
    "multi_seat_columns",
    "table_size",
    "format_markdown",
    "games_frame",
    "leaderboard",
    "pairwise",
    "seats_frame",
    "wilson",
]

LEADERBOARD_COLUMNS = [
    "rank",
    "bot",
    "mu",
    "sigma",
    "conservative",
    "elo",
    "elo_lo",
    "elo_hi",
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
"""The columns of `ratings.csv` for two seats, in order. None of them depends on timing."""


def multi_seat_columns(seats: int) -> list[str]:
    """The columns of `ratings.csv` for tables of `seats` seats, in order."""
    places = [f"place_{place}" for place in range(1, seats + 1)]
    return [
        "rank", "bot", "mu", "sigma", "conservative", "elo", "elo_lo", "elo_hi", "games",
        "mean_rank", "mean_rank_lo", "mean_rank_hi", *places,
        "mean_score", "points_share", "failures",
    ]  # fmt: skip


def games_frame(games: Iterable[GameLine]) -> pd.DataFrame:
    """One row per game, in schedule order (the columns of the games log, lists kept as lists)."""
    frame = pd.DataFrame([line.to_json() for line in in_schedule_order(games)])
    if frame.empty:
        return pd.DataFrame(columns=["seq", "game_id", "players", "scores", "ranks", "turns"])
    return frame


def _deal(line: GameLine) -> str:
    """The table (one deal) a game was played at: the unit the intervals count."""
    return f"{line.round}-{line.table}"


def _result(rank: int, ranks: Sequence[int]) -> str:
    if rank != 0:
        return "loss"
    return "draw" if sum(1 for r in ranks if r == 0) > 1 else "win"


def seats_frame(games: Iterable[GameLine]) -> pd.DataFrame:
    """One row per seat of every game: who played, what they scored, how it went for them."""
    records: list[dict[str, Any]] = []
    for line in in_schedule_order(games):
        players = line.players
        ranks = line.ranks
        think = line.think_ms or (math.nan,) * len(players)
        decisions = line.decisions or (0,) * len(players)
        total = float(sum(line.scores))
        for seat, bot in enumerate(players):
            result = _result(ranks[seat], ranks)
            records.append(
                {
                    "seq": line.seq,
                    "game_id": line.game_id,
                    "deal": _deal(line),
                    "seat": seat,
                    "seats": len(players),
                    "bot": bot,
                    "opponent": players[1 - seat] if len(players) == 2 else "",
                    "score": line.scores[seat],
                    "share": line.scores[seat] / total if total else 1.0 / len(players),
                    "rank": ranks[seat],
                    "result": result,
                    "points": {"win": 1.0, "draw": 0.5, "loss": 0.0}[result],
                    "faulty": line.faulty_seat == seat,
                    "termination": line.termination,
                    "turns": line.turns,
                    "think_ms": think[seat],
                    "decisions": decisions[seat],
                }
            )
    columns = [
        "seq", "game_id", "deal", "seat", "seats", "bot", "opponent", "score", "share", "rank", "result",
        "points", "faulty", "termination", "turns", "think_ms", "decisions",
    ]  # fmt: skip
    return pd.DataFrame.from_records(records, columns=columns)


def _failures(rows: pd.DataFrame) -> str:
    faulty = rows[rows["faulty"]]
    if faulty.empty:
        return ""
    counts = faulty["termination"].value_counts()
    return ", ".join(f"{reason} {int(counts[reason])}" for reason in sorted(counts.index))


def table_size(games: Iterable[GameLine], default: int = 2) -> int:
    """The number of seats of the tournament's games (the largest, if they differ)."""
    return max((line.seats for line in games), default=default)


def _multi_seat_row(mine: pd.DataFrame, seats: int) -> dict[str, Any]:
    """Mean rank, places, mean score and share of points of one bot at tables of `seats`."""
    n = len(mine)
    row: dict[str, Any] = {"mean_rank": float(mine["rank"].mean()) + 1 if n else math.nan}
    # Its 95% interval counts tables, not games (arena/stats/intervals.py); too few: NaN.
    tables = (mine.groupby("deal", sort=False)["rank"].mean() + 1).tolist() if n else []
    interval = mean_interval(tables, n, 1.0, float(seats))
    row["mean_rank_lo"], row["mean_rank_hi"] = interval or (math.nan, math.nan)
    for place in range(1, seats + 1):
        row[f"place_{place}"] = int((mine["rank"] == place - 1).sum())
    row["mean_score"] = float(mine["score"].mean()) if n else math.nan
    row["points_share"] = float(mine["share"].mean()) if n else math.nan
    return row


def leaderboard(
    games: Iterable[GameLine], ratings: Ratings, bots: Iterable[str] = (), seats: int | None = None
) -> pd.DataFrame:
    """See `_leaderboard`; adds the order-free Elo (order_free.py) of each bot."""
    games = list(games)
    board = _leaderboard(games, ratings, bots, seats)
    elo = order_free.rate(games, board["bot"].tolist())
    for column, attribute in (("elo", "elo"), ("elo_lo", "low"), ("elo_hi", "high")):
        board[column] = [getattr(elo[name], attribute) for name in board["bot"]]
    columns = LEADERBOARD_COLUMNS if "wins" in board.columns else multi_seat_columns(_seats(board))
    return board[columns]


def _seats(board: pd.DataFrame) -> int:
    return sum(1 for column in board.columns if str(column).startswith("place_"))


def _leaderboard(
    games: Iterable[GameLine], ratings: Ratings, bots: Iterable[str] = (), seats: int | None = None
) -> pd.DataFrame:
    """The leaderboard: every bot, ranked by mu - 3 sigma (then mu, then name).

    Columns are `LEADERBOARD_COLUMNS` for two seats, `multi_seat_columns(seats)` for more
    (`seats` None: as the games have). `bots` adds bots that have not played yet.
    """
    games = list(games)
    size = table_size(games) if seats is None else seats
    frame = seats_frame(games)
    names = sorted({*ratings.bots, *bots, *frame["bot"].unique().tolist()})
    rows: list[dict[str, Any]] = []
    for name in names:
        rating = ratings.bots.get(name)
        mine = frame[frame["bot"] == name]
        n = len(mine)
        mu = rating.mu if rating else 25.0
        sigma = rating.sigma if rating else 25.0 / 3.0
        common = {"bot": name, "mu": mu, "sigma": sigma, "conservative": mu - 3 * sigma}
        if size > 2:
            rows.append(
                {**common, "games": n, **_multi_seat_row(mine, size), "failures": _failures(mine)}
            )
            continue
        wins = int((mine["result"] == "win").sum())
        draws = int((mine["result"] == "draw").sum())
        losses = int((mine["result"] == "loss").sum())
        points = wins + draws / 2
        # Its 95% interval counts tables (deals), by opponent (arena/stats/intervals.py).
        by_opponent = {
            opponent: group.groupby("deal", sort=False)["points"].mean().tolist()
            for opponent, group in mine.groupby("opponent", sort=False)
        }
        lo, hi = share_interval(by_opponent, n) or (math.nan, math.nan)
        rows.append(
            {
                **common,
                "games": n,
                "wins": wins,
                "draws": draws,
                "losses": losses,
                "win_rate": points / n if n else math.nan,
                "win_rate_lo": lo,
                "win_rate_hi": hi,
                "mean_score": float(mine["score"].mean()) if n else math.nan,
                "failures": _failures(mine),
            }
        )
    rows.sort(key=lambda r: (-r["conservative"], -r["mu"], r["bot"]))
    for place, row in enumerate(rows, start=1):
        row["rank"] = place
    columns = multi_seat_columns(size) if size > 2 else LEADERBOARD_COLUMNS
    return pd.DataFrame.from_records(rows, columns=columns)


def ends(games: Iterable[GameLine]) -> dict[str, int]:
    """How the games ended, by the game's own end reason (or the termination), most first."""
    counts: dict[str, int] = {}
    for line in in_schedule_order(games):
        name = line.end if line.termination == Termination.NORMAL and line.end else line.termination
        counts[name] = counts.get(name, 0) + 1
    return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))


def pairwise(games: Iterable[GameLine]) -> pd.DataFrame:
    """Head-to-head: how each bot fared against each other bot, one row per ordered pair.

    Columns: bot, opponent, games, wins, draws, losses, win_rate, win_rate_lo, win_rate_hi.
    Every two seats of a game count as one meeting: the better rank wins it (finished
    ahead), equal ranks draw it (count half), so it holds for tables of any size.
    """
    tally: dict[tuple[str, str], list[int]] = {}
    # Each pair's points by the rest of the table (its stratum), then by table (deal).
    meetings: dict[tuple[str, str], dict[tuple[str, ...], dict[str, list[float]]]] = {}
    for line in in_schedule_order(games):
        players = line.players
        ranks = line.ranks
        deal = _deal(line)
        for i, bot in enumerate(players):
            for j, opponent in enumerate(players):
                if i == j or bot == opponent:
                    continue
                counts = tally.setdefault((bot, opponent), [0, 0, 0])
                outcome = 0 if ranks[i] < ranks[j] else 1 if ranks[i] == ranks[j] else 2
                counts[outcome] += 1  # ahead, level, behind
                points = (1.0, 0.5, 0.0)[outcome]
                rest = tuple(sorted(p for k, p in enumerate(players) if k not in (i, j)))
                pair = meetings.setdefault((bot, opponent), {})
                pair.setdefault(rest, {}).setdefault(deal, []).append(points)
    rows = []
    for (bot, opponent), (wins, draws, losses) in sorted(tally.items()):
        n = wins + draws + losses
        strata = {
            rest: [sum(points) / len(points) for points in deals.values()]
            for rest, deals in meetings[bot, opponent].items()
        }
        lo, hi = share_interval(strata, n) or (math.nan, math.nan)
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


def _rating_cells(row: Mapping[Hashable, Any]) -> list[str]:
    """The cells every leaderboard starts with: place, bot, rating, games."""
    return [
        _cell(row["rank"], 0),
        _cell(row["bot"], 0),
        _cell(row["mu"], 2),
        _cell(row["sigma"], 2),
        _cell(row["conservative"], 2),
        f"{row['elo']:+.0f} (too few games)"
        if math.isnan(row["elo_lo"])
        else f"{row['elo']:+.0f} ({row['elo_lo']:+.0f} to {row['elo_hi']:+.0f})",
        _cell(row["games"], 0),
    ]


def _format_multi_seat(board: pd.DataFrame) -> str:
    """The leaderboard of tables of more than two seats as a Markdown table."""
    places = [c for c in board.columns if c.startswith("place_")]
    header = ["#", "bot", "mu", "sigma", "mu-3σ", "Elo (95%)", "games", "mean rank (95%)"]
    header += [_ordinal(int(c.removeprefix("place_"))) for c in places]
    header += ["mean score", "points share", "failures"]
    align = ["---:", ":---"] + ["---:"] * (len(header) - 3) + [":---"]
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(align) + "|"]
    for row in board.to_dict("records"):
        share = row["points_share"]
        cells = [
            *_rating_cells(row),
            _mean_rank_cell(row),
            *[_cell(row[c], 0) for c in places],
            _cell(row["mean_score"], 2),
            "-" if math.isnan(share) else f"{100 * share:.1f}%",
            _cell(row["failures"], 0),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def _mean_rank_cell(row: Mapping[Hashable, Any]) -> str:
    """'1.15 (1.00-1.32)': the mean rank and its 95% interval."""
    if math.isnan(row["mean_rank_lo"]):
        if math.isnan(row["mean_rank"]):
            return _cell(row["mean_rank"], 2)
        return f"{row['mean_rank']:.2f} (too few games)"
    return f"{row['mean_rank']:.2f} ({row['mean_rank_lo']:.2f}-{row['mean_rank_hi']:.2f})"


def _ordinal(place: int) -> str:
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


def format_markdown(board: pd.DataFrame) -> str:
    """The leaderboard as a Markdown table (rates in percent with their 95% interval)."""
    if "mean_rank" in board.columns:
        return _format_multi_seat(board)
    header = [
        "#", "bot", "mu", "sigma", "mu-3σ", "Elo (95%)", "games", "W", "D", "L",
        "win rate (95% CI)", "mean score", "failures",
    ]  # fmt: skip
    lines = [
        "| " + " | ".join(header) + " |",
        "|" + "|".join(["---:", ":---", "---:", "---:", "---:", "---:", "---:", "---:", "---:",
                        "---:", "---:", "---:", ":---"]) + "|",
    ]  # fmt: skip
    for row in board.to_dict("records"):
        rate = row["win_rate"]
        if isinstance(rate, float) and not math.isnan(rate) and math.isnan(row["win_rate_lo"]):
            rate_text = f"{100 * rate:.1f}% (too few games)"
        elif isinstance(rate, float) and not math.isnan(rate):
            rate_text = (
                f"{100 * rate:.1f}% ({100 * row['win_rate_lo']:.1f}–{100 * row['win_rate_hi']:.1f})"
            )
        else:
            rate_text = "-"
        cells = [
            *_rating_cells(row),
            _cell(row["wins"], 0),
            _cell(row["draws"], 0),
            _cell(row["losses"], 0),
            rate_text,
            _cell(row["mean_score"], 2),
            _cell(row["failures"], 0),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def gauntlet_lines(games: Iterable[GameLine], candidate: str) -> list[str]:
    """A gauntlet's candidate against each opponent, as Markdown lines, at any table size:
    at 2 seats the Elo `arena play` gives (arena/results/gauntlet.py); at more, how often it
    finished ahead of each opponent (level counts half), its 95% interval as in `pairwise`,
    and the Elo of that share with its interval (ahead 64% of the time is +100)."""
    from arena.results.gauntlet import markdown

    games = list(games)
    if table_size(games) == 2:
        return markdown(games, candidate)
    board = pairwise(games)
    lines = [
        f"## Gauntlet: {candidate} against each opponent",
        "",
        "| opponent | meetings | ahead | level | behind | finished ahead (95%) | Elo (95%) |",
        "|:---|---:|---:|---:|---:|---:|---:|",
    ]
    for row in board[board["bot"] == candidate].to_dict("records"):
        share, low, high = row["win_rate"], row["win_rate_lo"], row["win_rate_hi"]
        if math.isnan(low):
            ahead = f"{100 * share:.1f}% (too few games)"
        else:
            ahead = f"{100 * share:.1f}% ({100 * low:.1f}–{100 * high:.1f})"
        shown = _elo_of(share)
        if not math.isnan(low):
            shown += f" ({_elo_of(low)} to {_elo_of(high)})"
        lines.append(
            f"| {row['opponent']} | {row['games']} | {row['wins']} | {row['draws']} | "
            f"{row['losses']} | {ahead} | {shown} |"
        )
    return lines


def _elo_of(share: float) -> str:
    """The Elo of finishing ahead `share` of the time: +inf always ahead, -inf never."""
    from arena.stats.ahead import elo_of_share

    elo = elo_of_share(share)
    if elo is None:
        return "+inf" if share >= 1.0 else "-inf"
    return f"{elo + 0.0:+.0f}"
