"""Charts of a tournament as PNG files, drawn with matplotlib's Agg backend from the games log.

Each chart is written atomically (a temporary file in the same folder, then `os.replace`),
so a reader never sees half a PNG. matplotlib is imported here only, when a chart is drawn.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from arena.atomic import atomic_file  # noqa: E402
from arena.results.ratings import Ratings  # noqa: E402
from arena.results.summary import CHART_FILES, chart_files  # noqa: E402
from arena.results.tables import wilson  # noqa: E402

__all__ = ["CHART_FILES", "draw_all"]


_DPI = 110


def _save(figure: Any, path: Path) -> None:
    """Save `figure` to `path` atomically and close it."""
    try:
        with atomic_file(path) as file:
            figure.savefig(file, format="png", dpi=_DPI, bbox_inches="tight")
    finally:
        plt.close(figure)


def _no_data(axes: Any, text: str = "no games yet") -> None:
    axes.text(0.5, 0.5, text, ha="center", va="center", transform=axes.transAxes)
    axes.set_xticks([])
    axes.set_yticks([])


def ratings_chart(ratings: Ratings, order: Sequence[str], path: Path) -> None:
    """TrueSkill mu of every bot over the games of the tournament, with a band of ± sigma."""
    figure, axes = plt.subplots(figsize=(8, 4.5))
    if not ratings.history:
        _no_data(axes)
    else:
        history = pd.DataFrame(
            [(p.index, p.bot, p.mu, p.sigma) for p in ratings.history],
            columns=["index", "bot", "mu", "sigma"],
        )
        for bot in order:
            mine = history[history["bot"] == bot]
            if mine.empty:
                continue
            games = len(mine)  # a point per game the bot played: the games behind its line
            # Thin very long histories: a few thousand points draw the same picture.
            step = max(1, games // 4000)
            mine = mine.iloc[::step]
            label = f"{bot} ({games:,} game{'s' if games != 1 else ''})"
            line = axes.plot(mine["index"], mine["mu"], label=label, linewidth=1.2)[0]
            axes.fill_between(
                mine["index"],
                mine["mu"] - mine["sigma"],
                mine["mu"] + mine["sigma"],
                color=line.get_color(),
                alpha=0.2,
                linewidth=0,
            )
        axes.set_xlabel("games rated (schedule order)")
        axes.set_ylabel("TrueSkill mu (band: ± sigma)")
        axes.legend(loc="best", fontsize="small")
        axes.grid(alpha=0.3)
    axes.set_title("Ratings over the tournament")
    _save(figure, path)


def elo_chart(board: pd.DataFrame | None, path: Path) -> None:
    """A forest plot of the order-free Elo of every bot with its 95% interval."""
    figure, axes = plt.subplots(figsize=(8, 1.2 + 0.45 * (0 if board is None else len(board))))
    if board is None or board.empty or "elo" not in board.columns:
        _no_data(axes)
    else:
        ordered = board.sort_values("elo")
        y = list(range(len(ordered)))
        # No bar where there are too few games for an interval (NaN, issue 23).
        low = (ordered["elo"] - ordered["elo_lo"]).fillna(0.0)
        high = (ordered["elo_hi"] - ordered["elo"]).fillna(0.0)
        axes.errorbar(ordered["elo"], y, xerr=[low, high], fmt="o", capsize=4, color="tab:blue")
        axes.set_yticks(y, ordered["bot"].tolist())
        axes.axvline(0, color="grey", linewidth=0.8)
        axes.set_xlabel("Elo (Bradley-Terry on all games; mean 0), with its 95% interval")
        axes.grid(axis="x", alpha=0.3)
    axes.set_title("Order-free ratings")
    _save(figure, path)


def pairwise_chart(pairs: pd.DataFrame, order: Sequence[str], path: Path, seats: int = 2) -> None:
    """Heatmap of the win rate of each row bot against each column bot, with count and 95% CI.

    At tables of more seats, the share of meetings the row bot finished ahead (ties half).
    """
    size = max(4.0, 1.6 * len(order) + 1.5)
    figure, axes = plt.subplots(figsize=(size + 1.0, size))
    if pairs.empty:
        _no_data(axes)
    else:
        index = {bot: i for i, bot in enumerate(order)}
        grid = [[math.nan] * len(order) for _ in order]
        for row in pairs.to_dict("records"):
            if row["bot"] in index and row["opponent"] in index:
                grid[index[row["bot"]]][index[row["opponent"]]] = row["win_rate"]
        image = axes.imshow(grid, cmap="RdYlGn", vmin=0.0, vmax=1.0)
        for row in pairs.to_dict("records"):
            if row["bot"] not in index or row["opponent"] not in index:
                continue
            low, high = row["win_rate_lo"], row["win_rate_hi"]
            span = "too few" if math.isnan(low) else f"{100 * low:.0f}–{100 * high:.0f}"
            text = f"{100 * row['win_rate']:.0f}%\n[{span}]\nn={row['games']}"
            axes.text(
                index[row["opponent"]],
                index[row["bot"]],
                text,
                ha="center",
                va="center",
                fontsize=8,
            )
        axes.set_xticks(range(len(order)), labels=list(order), rotation=30, ha="right")
        axes.set_yticks(range(len(order)), labels=list(order))
        axes.set_xlabel("opponent")
        axes.set_ylabel("bot")
        label = "win rate (draw = ½)" if seats <= 2 else "finished ahead (tie = ½)"
        figure.colorbar(image, ax=axes, label=f"{label}, 95% interval over tables")
    if seats <= 2:
        axes.set_title("Win rate of row against column")
    else:
        axes.set_title(f"Row finished ahead of column (tables of {seats})")
    _save(figure, path)


def scores_chart(seats: pd.DataFrame, order: Sequence[str], path: Path) -> None:
    """The distribution of each bot's final scores (box plot, mean marked)."""
    figure, axes = plt.subplots(figsize=(max(5.0, 1.2 * len(order) + 2), 4.5))
    present = [bot for bot in order if (seats["bot"] == bot).any()]
    if not present:
        _no_data(axes)
    else:
        data = [seats.loc[seats["bot"] == bot, "score"].astype(float).tolist() for bot in present]
        axes.boxplot(data, showmeans=True)
        axes.set_xticks(range(1, len(present) + 1), labels=present, rotation=20, ha="right")
        axes.set_ylabel("final score")
        axes.grid(axis="y", alpha=0.3)
    axes.set_title("Score distributions")
    _save(figure, path)


def seats_chart(seats: pd.DataFrame, order: Sequence[str], path: Path) -> None:
    """The first seat's advantage: win rate by seat, overall and for each bot, with 95% CI."""
    figure, axes = plt.subplots(figsize=(max(6.0, 1.4 * len(order) + 3), 4.5))
    if seats.empty:
        _no_data(axes)
    else:
        groups = ["all", *[bot for bot in order if (seats["bot"] == bot).any()]]
        seat_numbers = sorted(int(s) for s in seats["seat"].unique())
        width = 0.8 / max(1, len(seat_numbers))
        for k, seat in enumerate(seat_numbers):
            rates, lows, highs = [], [], []
            for group in groups:
                rows = seats[seats["seat"] == seat]
                if group != "all":
                    rows = rows[rows["bot"] == group]
                n = len(rows)
                points = float(rows["points"].sum())
                lo, hi = wilson(points, n)
                rate = points / n if n else math.nan
                rates.append(rate)
                lows.append(max(0.0, rate - lo) if n else 0.0)
                highs.append(max(0.0, hi - rate) if n else 0.0)
            positions = [i + (k - (len(seat_numbers) - 1) / 2) * width for i in range(len(groups))]
            axes.bar(
                positions,
                rates,
                width=width,
                yerr=[lows, highs],
                capsize=3,
                label=f"seat {seat}" + (" (moves first)" if seat == 0 else ""),
            )
        axes.axhline(0.5, color="grey", linewidth=0.8, linestyle="--")
        axes.set_xticks(range(len(groups)), labels=groups, rotation=20, ha="right")
        axes.set_ylim(0, 1)
        axes.set_ylabel("win rate (draw = ½), 95% interval")
        axes.legend(loc="best", fontsize="small")
    axes.set_title("First seat's advantage")
    _save(figure, path)


def places_chart(seats: pd.DataFrame, size: int, path: Path) -> None:
    """Each seat position's advantage at tables of `size` seats: how often it took each place."""
    figure, axes = plt.subplots(figsize=(max(6.0, 1.2 * size + 3), 4.5))
    if seats.empty:
        _no_data(axes)
    else:
        positions = list(range(size))
        bottom = [0.0] * size
        for place in range(size):
            shares = []
            for seat in positions:
                ranks = seats.loc[seats["seat"] == seat, "rank"]
                shares.append(float((ranks == place).mean()) if len(ranks) else 0.0)
            axes.bar(positions, shares, bottom=bottom, label=f"place {place + 1}")
            bottom = [b + s for b, s in zip(bottom, shares, strict=True)]
        axes.axhline(1 / size, color="grey", linewidth=0.8, linestyle="--")
        labels = [f"seat {seat}" + (" (first)" if seat == 0 else "") for seat in positions]
        axes.set_xticks(positions, labels=labels)
        axes.set_ylim(0, 1.0)
        axes.set_ylabel("share of the seat's games (dashed: 1 / seats)")
        axes.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize="small")
    axes.set_title("Places by seat position")
    _save(figure, path)


def lengths_chart(games: pd.DataFrame, path: Path) -> None:
    """Game lengths in turns, stacked by how the game ended (the game's own end reason)."""
    figure, axes = plt.subplots(figsize=(7, 4.5))
    if games.empty or "turns" not in games:
        _no_data(axes)
    else:
        ended = games["termination"].astype(str)
        if "end" in games:
            ended = games["end"].where(games["end"].notna(), ended).astype(str)
        terminations = sorted(ended.unique())
        data = [games.loc[ended == t, "turns"].astype(float).tolist() for t in terminations]
        low = float(games["turns"].min())
        high = float(games["turns"].max())
        bins = max(1, min(50, int(high - low) + 1))
        axes.hist(data, bins=bins, stacked=True, label=terminations)
        axes.set_xlabel("turns")
        axes.set_ylabel("games")
        axes.legend(loc="best", fontsize="small", title="ended by")
        axes.grid(axis="y", alpha=0.3)
    axes.set_title("Game lengths")
    _save(figure, path)


def draw_all(
    folder: Path,
    games: pd.DataFrame,
    seats: pd.DataFrame,
    pairs: pd.DataFrame,
    ratings: Ratings,
    order: Sequence[str],
    size: int = 2,
    board: pd.DataFrame | None = None,
) -> list[Path]:
    """Draw every chart into `folder` for tables of `size` seats; returns the files written."""
    paths = {name: folder / file for name, file in chart_files(size).items()}
    ratings_chart(ratings, order, paths["ratings"])
    elo_chart(board, paths["elo"])
    pairwise_chart(pairs, order, paths["pairwise"], size)
    scores_chart(seats, order, paths["scores"])
    if size > 2:
        places_chart(seats, size, paths["seats"])
    else:
        seats_chart(seats, order, paths["seats"])
    lengths_chart(games, paths["lengths"])
    return list(paths.values())
