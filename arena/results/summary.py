"""A run's report as data (`Report`: its tables, with a line on progress) and the names of
the files a report writes. The report's writers (report.py), its charts (charts.py) and its
page (arena/html/report_page.py) all read them from here."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "CHART_FILES",
    "LEADERBOARD_NAME",
    "RATINGS_NAME",
    "Report",
    "chart_files",
]

RATINGS_NAME = "ratings.csv"
LEADERBOARD_NAME = "leaderboard.md"
CHART_FILES = {
    "ratings": "ratings.png",
    "elo": "elo.png",
    "pairwise": "pairwise.png",
    "scores": "scores.png",
    "seats": "seat_advantage.png",
    "lengths": "game_lengths.png",
}
"""The chart files a report of two seats writes, by chart name (drawn by arena.results.charts)."""


def chart_files(seats: int) -> dict[str, str]:
    """The chart files of a report of `seats` seats: the places chart replaces the seats chart."""
    if seats <= 2:
        return dict(CHART_FILES)
    return {**CHART_FILES, "seats": "places_by_seat.png"}


@dataclass
class Report:
    """The tables of one run, made from its games log."""

    run_dir: Path
    games_played: int
    games_total: int | None
    leaderboard: pd.DataFrame
    pairwise: pd.DataFrame
    seats: int = 2
    """Seats per table."""
    ends: dict[str, int] = field(default_factory=dict)
    """How the games ended: the game's own end reason or the termination, with counts."""
    files: list[Path] = field(default_factory=list)
    html: Path | None = None
    """The run's report.html, once written (`make_report(..., html=True)`)."""

    def text(self) -> str:
        """The leaderboard as Markdown, with a line on progress."""
        from arena.results.tables import format_markdown

        text = self.progress_line() + "\n\n" + format_markdown(self.leaderboard)
        return text + (f"\n{self.ends_line()}\n" if self.ends else "")

    def ends_line(self) -> str:
        """How the games ended, e.g. 'Games ended: deck_exhausted 40, timeout 1.'"""
        return "Games ended: " + ", ".join(f"{end} {n}" for end, n in self.ends.items()) + "."

    def progress_line(self) -> str:
        """How many games are played, of how many when the total is known."""
        if self.games_total is None:
            return f"{self.games_played} games played"
        return f"{self.games_played} of {self.games_total} games played"
