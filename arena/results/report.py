"""The report of a run folder: `ratings.csv`, `leaderboard.md` and the charts, from the games log.

Every summary is written atomically (a temporary file in the same folder, then `os.replace`),
so a reader sees the old file or the new one, never half of one. pandas and matplotlib are
imported only when a report is made.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena.atomic import write_atomic
from arena.errors import TournamentError
from arena.game_sources import game_notes
from arena.results.log import LOG_NAME, GameLine, read_games
from arena.results.summary import (
    CHART_FILES,
    LEADERBOARD_NAME,
    RATINGS_NAME,
    Report,
    chart_files,
)
from arena.run_folder import CONFIG_NAME, load_config
from arena.stats import think

if TYPE_CHECKING:
    from arena.results.ratings import Ratings

__all__ = [
    "CHART_FILES",
    "CONFIG_NAME",
    "LEADERBOARD_NAME",
    "RATINGS_NAME",
    "Report",
    "chart_files",
    "leaderboard_text",
    "load_config",
    "make_report",
    "newest_run",
    "write_atomic",
]


def newest_run(results_dir: Path) -> Path:
    """The most recently started run folder under `results_dir`."""
    runs = [p for p in results_dir.glob("*") if (p / CONFIG_NAME).is_file()]
    if not runs:
        raise TournamentError(
            f"No tournament found in {results_dir}; run `arena run` first or name a run folder."
        )
    return max(runs, key=lambda p: ((p / CONFIG_NAME).stat().st_mtime, p.name))


Step = Callable[[str], None]
"""Told the name of each step of writing a report as it starts (e.g. to show progress)."""


def make_report(
    run_dir: Path,
    *,
    write: bool = True,
    charts: bool = True,
    html: bool = False,
    step: Step | None = None,
) -> Report:
    """Read the games log of `run_dir`, build the tables, and (if `write`) write the files;
    with `html`, also report.html and the replays it links to (arena.html.report_page).
    `step` is told each step as it starts: "ratings", "charts", "leaderboard.md",
    "report.html"."""
    from arena.results import tables
    from arena.results.ratings import rate_games

    tell = step if step is not None else _quiet
    config = load_config(run_dir)
    bots = [str(bot["name"]) for bot in config.get("bots", [])]
    tell("ratings")
    games = list(read_games(run_dir / LOG_NAME))
    seats = int(config.get("seats", tables.table_size(games)))
    ratings = rate_games(games, bots, history=write and charts)
    board = tables.leaderboard(games, ratings, bots, seats)
    pairs = tables.pairwise(games)
    total = config.get("total_games")
    report = Report(
        run_dir=run_dir,
        games_played=ratings.games,
        games_total=int(total) if total is not None else None,
        leaderboard=board,
        pairwise=pairs,
        seats=seats,
        ends=tables.ends(games),
    )
    if not write:
        return report

    csv_path = run_dir / RATINGS_NAME
    write_atomic(csv_path, board.to_csv(index=False, float_format="%.6f", lineterminator="\n"))
    report.files.append(csv_path)
    if charts:
        tell("charts")
        report.files.extend(_charts(report, games, ratings))
    tell(LEADERBOARD_NAME)
    md_path = run_dir / LEADERBOARD_NAME
    write_atomic(md_path, _leaderboard_markdown(report, config, games))
    report.files.append(md_path)
    if html:
        from arena.html.report_page import REPORT_NAME, write_html_report

        tell(REPORT_NAME)
        report.html = write_html_report(run_dir, report, config, games)
        report.files.append(report.html)
    return report


def _quiet(step: str) -> None:
    """A report's steps, told to nobody."""


def _charts(report: Report, games: list[GameLine], ratings: Ratings) -> list[Path]:
    """The PNG charts of the report's tables; the paths written."""
    from arena.results import tables
    from arena.results.charts import draw_all

    board = report.leaderboard
    return draw_all(
        report.run_dir,
        tables.games_frame(games),
        tables.seats_frame(games),
        report.pairwise,
        ratings,
        board["bot"].tolist(),
        report.seats,
        board,
    )


def _leaderboard_markdown(report: Report, config: dict[str, Any], games: list[GameLine]) -> str:
    from arena.results.tables import format_markdown

    lines = [f"# Leaderboard: {report.run_dir.name}", ""]
    if config:
        limits = config.get("limits", {})
        lines.append(
            f"{report.progress_line()}; {config.get('rounds')} rounds, seed {config.get('seed')}, "
            f"{limits.get('move_ms')} ms per move."
        )
    else:
        lines.append(report.progress_line() + ".")
    for note in game_notes(str(config.get("game")), config.get("game_config")) if config else []:
        lines += ["", f"Note: {note}"]
    if report.seats > 2:
        explained = (
            f"Tables of {report.seats} seats. Ranked by TrueSkill mu − 3σ (free-for-all). "
            "Mean rank: 1 is first; places count tied places for each bot; points share: "
            "the bot's share of the points scored at its tables. "
            "Failures: games lost by the bot's own fault, by reason."
        )
        pair_header = "| bot | opponent | met | ahead | tied | behind | ahead (95% CI) |"
    else:
        explained = (
            "Ranked by TrueSkill mu − 3σ. Win rate = (wins + draws/2) / games, "
            "with its 95% Wilson interval. Failures: games lost by the bot's own fault, by reason."
        )
        pair_header = "| bot | opponent | games | W | D | L | win rate (95% CI) |"
    lines += [
        "",
        explained,
        "",
        format_markdown(report.leaderboard).rstrip("\n"),
        "",
        "## Pairwise",
        "",
        pair_header,
        "|:---|:---|---:|---:|---:|---:|---:|",
    ]
    for row in report.pairwise.to_dict("records"):
        lines.append(
            f"| {row['bot']} | {row['opponent']} | {row['games']} | {row['wins']} | "
            f"{row['draws']} | {row['losses']} | {100 * row['win_rate']:.1f}% "
            f"({100 * row['win_rate_lo']:.1f}–{100 * row['win_rate_hi']:.1f}) |"
        )
    if config.get("gauntlet"):  # at every table size (at 3-4 seats: finished ahead)
        from arena.results.tables import gauntlet_lines

        lines += ["", *gauntlet_lines(games, str(config["gauntlet"]))]
    lines += ["", *_time_lines(games)]
    if config.get("until_decided") and report.seats == 2:
        lines += ["", *_sprt_lines(games, config["until_decided"])]
    if report.ends:
        lines += ["", "## Notes", "", report.ends_line()]
    files = chart_files(report.seats)
    if any((report.run_dir / file).exists() for file in files.values()):
        lines += ["", "## Charts", ""]
        lines += [f"![{name}]({file})" for name, file in files.items()]
    return "\n".join(lines) + "\n"


def _time_lines(games: Iterable[GameLine]) -> list[str]:
    """Each bot's think time per decision (wall clock: mean, p95, max) beside its CPU time
    (its cgroup's), and a note when the machine, not the bots, was slow. Timing, so it is
    not in ratings.csv."""
    wall: dict[str, float] = defaultdict(float)
    cpu: dict[str, float | None] = {}
    decisions: dict[str, int] = defaultdict(int)
    slowest: dict[str, float] = defaultdict(float)
    hists: dict[str, list[Mapping[str, int]]] = defaultdict(list)
    for line in games:
        for seat, name in enumerate(line.players):
            wall[name] += line.think_ms[seat] if seat < len(line.think_ms) else 0.0
            decisions[name] += line.decisions[seat] if seat < len(line.decisions) else 0
            used = line.cpu_ms[seat] if seat < len(line.cpu_ms) else None
            known = cpu.get(name, 0.0)
            cpu[name] = None if used is None or known is None else known + used
            if seat < len(line.think_max_ms):
                slowest[name] = max(slowest[name], line.think_max_ms[seat])
            if seat < len(line.think_hist):
                hists[name].append(line.think_hist[seat])
    lines = [
        "## Time per decision",
        "",
        "Wall clock as the referee measures it, and CPU time of the bot's processes. p95 is the "
        "time 95% of decisions took at most; it is read from rounded times, so it may be up to "
        "25% above the exact figure.",
        "",
        "| bot | decisions | mean ms | p95 ms | max ms | CPU ms |",
        "|:---|---:|---:|---:|---:|---:|",
    ]
    busy = bool(decisions)
    for name in sorted(decisions):
        n = decisions[name] or 1
        mean, used = wall[name] / n, cpu.get(name)
        p95 = think.percentile(think.merge(hists[name]), 0.95)
        cells = [
            name,
            str(decisions[name]),
            f"{mean:.3f}",
            "n/a" if p95 is None else f"{p95:.3f}",
            f"{slowest[name]:.3f}" if name in slowest else "n/a",
            "n/a" if used is None else f"{used / n:.3f}",
        ]
        lines.append("| " + " | ".join(cells) + " |")
        busy = busy and used is not None and mean >= 2.0 and mean > 2 * used / n
    if busy:
        lines += [
            "",
            "Every bot's wall time is far above its CPU time: the machine was busy, so time "
            "losses may be its fault, not the bots'.",
        ]
    return lines


def _sprt_lines(games: list[GameLine], bounds: list[float]) -> list[str]:
    """Each pairing's SPRT (--until-decided): pairs played, LLR, verdict."""
    from arena.pairing_tests import PairingTests
    from arena.stats.sprt import CONTINUE, Sprt

    tests = PairingTests(Sprt(bounds[0], bounds[1]), games)
    lines = [
        f"## SPRT per pairing: [{bounds[0]:g}, {bounds[1]:g}] nElo, alpha = beta = 0.05",
        "",
        "| bot | opponent | pairs | LLR | verdict |",
        "|:---|:---|---:|---:|:---|",
    ]
    for (first, second), counts in sorted(tests.pairs.items()):
        llr = tests.test.llr(counts)
        verdict = tests.verdicts.get((first, second), CONTINUE)
        lines.append(f"| {first} | {second} | {counts.pairs} | {llr:+.2f} | {verdict} |")
    return lines


def leaderboard_text(run_dir: Path) -> str:
    """The leaderboard of a finished or running tournament, as printed by `arena leaderboard`."""
    return make_report(run_dir, write=False).text()
