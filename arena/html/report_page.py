"""`report.html`: a run's results in one self-contained page, with replays of its games.

The page is built from what the run folder holds (config.json, games.jsonl, the tables of
`make_report`, the charts, the records): the leaderboard (sortable), the head-to-head
matrix with 95% intervals, the failures with their games, the charts, the games worth a
look, and the configuration. Charts are the run's own PNG charts, inlined as data URIs:
they are already drawn for the folder, and a PNG stays small however many games a rating
trajectory has (an SVG of 10,000 games' ratings would not). Replays are pages of their own
(`replays/<game-id>.html`), made for the games the report lists, so the report stays small.
"""

from __future__ import annotations

import base64
import html
import json
import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena.atomic import write_atomic
from arena.errors import ArenaError
from arena.game_sources import game_notes
from arena.html.embed import asset
from arena.results.log import GameLine
from arena.results.summary import chart_files

if TYPE_CHECKING:
    from arena.results.summary import Report

REPORT_NAME = "report.html"
REPLAYS = "replays"
MOST_FAILURES_LISTED = 100
WORST_GAMES_PER_BOT = 3
MOST_REPLAYS = 80

_LABELS = {
    "rank": "#", "bot": "bot", "mu": "mu", "sigma": "sigma", "conservative": "mu−3σ",
    "elo": "Elo (95%)", "games": "games", "wins": "W", "draws": "D", "losses": "L",
    "win_rate": "win rate (95%)", "mean_rank": "mean rank (95%)", "mean_score": "mean score",
    "points_share": "points share", "failures": "failures",
}  # fmt: skip
_PERCENT = {"win_rate", "points_share"}


def write_html_report(
    run_dir: Path, report: Report, config: dict[str, Any], games: Sequence[GameLine]
) -> Path:
    """Write `report.html` and the replays it links to; the path of the report."""
    picked = _games_to_show(games, [str(b) for b in report.leaderboard["bot"]], report.seats)
    replays = _write_replays(run_dir, list(picked)[:MOST_REPLAYS])
    path = run_dir / REPORT_NAME
    write_atomic(path, report_html(run_dir, report, config, games, replays, picked))
    return path


def report_html(
    run_dir: Path,
    report: Report,
    config: dict[str, Any],
    games: Sequence[GameLine],
    replays: dict[str, str],
    why: Mapping[str, str] | None = None,
) -> str:
    """The whole page; `replays` maps a game id to its replay page (relative path), `why`
    to why the game is listed among the games to look at (whose worst game it is...)."""
    e = html.escape
    title = f"{config.get('game', 'mandala')} tournament: {run_dir.name}"
    played = f"{report.games_played}" + (
        f" of {report.games_total}" if report.games_total is not None else ""
    )
    ends = ", ".join(f"{e(str(end))} {n}" for end, n in report.ends.items())
    sections = [
        _section("leaderboard", "Leaderboard", _leaderboard(report)),
        _section("head-to-head", "Head to head", _head_to_head(report)),
        *_gauntlet(config, games),
        _section("failures", "Failures", _failures(games, replays)),
        _section("charts", "Charts", _charts(run_dir, chart_files(report.seats))),
        _section("games", "Games to look at", _games(games, replays, why or {})),
        _section("configuration", "Configuration", _configuration(config)),
    ]
    nav = " ".join(
        f'<a href="#{key}">{label}</a>'
        for key, label in (
            ("leaderboard", "Leaderboard"), ("head-to-head", "Head to head"),
            ("failures", "Failures"), ("charts", "Charts"), ("games", "Games"),
            ("configuration", "Configuration"),
        )
    )  # fmt: skip
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{e(title)}</title>
<style>{asset("report.css")}</style>
</head><body>
<header><h1>{e(title)}</h1>
<div class="sub">{played} games played, tables of {report.seats} seats, seed
{e(str(config.get("seed", "?")))}. Games ended: {ends or "-"}.</div></header>
<nav>{nav}</nav>
{"".join(sections)}
<script>{asset("report.js")}</script>
</body></html>
"""


def _section(key: str, title: str, body: str) -> str:
    return f'<section id="{key}"><h2>{html.escape(title)}</h2>{body}</section>\n'


def _number(value: Any, decimals: int = 2) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    if isinstance(value, float) and not value.is_integer():
        return f"{value:.{decimals}f}"
    return str(int(value)) if isinstance(value, float) else html.escape(str(value))


def _leaderboard(report: Report) -> str:
    """The leaderboard as a sortable table: the columns of ratings.csv, intervals joined."""
    board = report.leaderboard
    columns = [c for c in board.columns if not c.endswith(("_lo", "_hi"))]
    head = "".join(
        f'<th class="{"name" if c == "bot" else ""}">'
        f"{html.escape(_LABELS.get(c, c.replace('place_', 'place ')))}</th>"
        for c in columns
    )
    rows = []
    for row in board.to_dict("records"):
        cells = []
        for column in columns:
            value = row[column]
            if column == "bot":
                cells.append(f'<td class="name">{html.escape(str(value))}</td>')
                continue
            if column == "elo" and isinstance(value, float) and not math.isnan(value):
                shown = f"{value:+.0f}"
            elif column in _PERCENT and isinstance(value, float) and not math.isnan(value):
                shown = f"{100 * value:.1f}%"
            else:
                shown = _number(value)
            low, high = row.get(f"{column}_lo"), row.get(f"{column}_hi")
            if isinstance(low, float) and math.isnan(low) and value == value and value is not None:
                shown += " (too few games)"  # no honest interval (issue 23)
            elif isinstance(low, float) and isinstance(high, float) and not math.isnan(low):
                if column == "elo":
                    shown += f" ({low:+.0f} to {high:+.0f})"
                else:
                    scale, unit = (100, "%") if column in _PERCENT else (1, "")
                    digits = 1 if unit else 2
                    shown += f" ({scale * low:.{digits}f}–{scale * high:.{digits}f}{unit})"
            sort = "" if value is None else f' data-sort="{html.escape(str(value))}"'
            cells.append(f"<td{sort}>{shown}</td>")
        rows.append(f'<tr data-bot="{html.escape(str(row["bot"]))}">{"".join(cells)}</tr>')
    return (
        '<p class="muted">Ranked by TrueSkill mu − 3σ. Click a column to sort by it.</p>'
        f'<table id="leaderboard-table" class="sortable"><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table>"
    )


def _head_to_head(report: Report) -> str:
    """Each row bot against each column bot: the share of meetings it finished ahead (ties
    half), its 95% Wilson interval and the meetings; shaded where the interval excludes 50%."""
    pairs = report.pairwise
    bots = [str(bot) for bot in report.leaderboard["bot"]]
    cells: dict[tuple[str, str], Any] = {
        (str(row["bot"]), str(row["opponent"])): row for row in pairs.to_dict("records")
    }
    head = "".join(f"<th>{html.escape(bot)}</th>" for bot in bots)
    rows = []
    for bot in bots:
        tds = []
        for opponent in bots:
            cell = cells.get((bot, opponent))
            if bot == opponent or cell is None:
                tds.append('<td class="self">-</td>' if bot == opponent else "<td>-</td>")
                continue
            rate, low, high = cell["win_rate"], cell["win_rate_lo"], cell["win_rate_hi"]
            colour = "transparent"
            if low > 0.5:
                colour = f"rgba(46,125,50,{min(0.6, 0.15 + rate - 0.5):.2f})"
            elif high < 0.5:
                colour = f"rgba(198,40,40,{min(0.6, 0.15 + 0.5 - rate):.2f})"
            tip = (
                f"{bot} vs {opponent}: {cell['wins']} ahead, {cell['draws']} tied, "
                f"{cell['losses']} behind in {cell['games']} meetings"
            )
            tds.append(
                f'<td style="background:{colour}" title="{html.escape(tip)}">'
                f'{100 * rate:.0f}%<br><span class="muted">{_span(low, high)}, '
                f"n={cell['games']}</span></td>"
            )
        rows.append(f'<tr><th class="name">{html.escape(bot)}</th>{"".join(tds)}</tr>')
    return (
        '<p class="muted">Row against column: how often the row bot finished ahead (ties '
        "count half), its 95% interval and the number of meetings. Green: ahead, red: "
        "behind, where the interval excludes 50%.</p>"
        f'<table class="h2h"><thead><tr><th></th>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table>"
    )


def _gauntlet(config: dict[str, Any], games: Sequence[GameLine]) -> list[str]:
    """A gauntlet's candidate against each opponent, the table `arena leaderboard` prints
    (arena/results/tables.py, `gauntlet_lines`), at any table size; none for other runs."""
    from arena.results.tables import gauntlet_lines

    candidate = config.get("gauntlet")
    if not candidate:
        return []
    rows = [line for line in gauntlet_lines(games, str(candidate)) if line.startswith("|")]
    cells = [[html.escape(cell.strip()) for cell in row.strip("|").split("|")] for row in rows]
    head = "".join(f"<th>{cell}</th>" for cell in cells[0])
    body = "".join(
        "<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in cells[2:]
    )
    body = body or f'<tr><td colspan="{len(cells[0])}">no games yet</td></tr>'
    return [
        _section(
            "gauntlet",
            f"Gauntlet: {candidate} against each opponent",
            f'<table id="gauntlet-table"><thead><tr>{head}</tr></thead>'
            f"<tbody>{body}</tbody></table>",
        )
    ]


def _game_link(game_id: str, replays: dict[str, str]) -> str:
    text = html.escape(game_id)
    page = replays.get(game_id)
    return f'<a href="{html.escape(page)}">{text}</a>' if page else text


def _failures(games: Sequence[GameLine], replays: dict[str, str]) -> str:
    failed = [line for line in games if line.faulty_seat is not None]
    if not failed:
        return "<p>No bot failed: every game ended by the rules.</p>"
    counts = Counter((line.players[line.faulty_seat or 0], line.termination) for line in failed)
    reasons = sorted({reason for _, reason in counts})
    bots = sorted({bot for bot, _ in counts})
    head = "".join(f"<th>{html.escape(reason)}</th>" for reason in reasons)
    body = "".join(
        f'<tr><td class="name">{html.escape(bot)}</td>'
        + "".join(f"<td>{counts.get((bot, reason), 0)}</td>" for reason in reasons)
        + "</tr>"
        for bot in bots
    )
    listed = []
    for line in failed[:MOST_FAILURES_LISTED]:
        bot = line.players[line.faulty_seat or 0]
        listed.append(
            f'<tr><td class="name">{_game_link(line.game_id, replays)}</td>'
            f'<td class="name">{html.escape(bot)}</td><td class="name">'
            f'{html.escape(line.termination)}</td><td class="name">'
            f"{html.escape(line.reason)}</td></tr>"
        )
    more = len(failed) - len(listed)
    return (
        f'<table class="sortable"><thead><tr><th class="name">bot</th>{head}</tr></thead>'
        f"<tbody>{body}</tbody></table><h3>Failed games</h3>"
        '<table class="sortable failed"><thead><tr><th class="name">game</th>'
        '<th class="name">bot</th><th class="name">failure</th><th class="name">reason</th>'
        f"</tr></thead><tbody>{''.join(listed)}</tbody></table>"
        + (f'<p class="muted">and {more} more (games.jsonl has them all).</p>' if more else "")
    )


def _charts(run_dir: Path, files: dict[str, str]) -> str:
    images = []
    for name in ("ratings", "elo", "scores", "lengths", "seats", "pairwise"):
        path = run_dir / files.get(name, "")
        if name in files and path.is_file():
            data = base64.b64encode(path.read_bytes()).decode("ascii")
            images.append(f'<img alt="{name} chart" src="data:image/png;base64,{data}">')
    if not images:
        return '<p class="muted">No charts (the run was made with --no-charts).</p>'
    return f'<div class="charts">{"".join(images)}</div>'


def _games_to_show(games: Sequence[GameLine], bots: Sequence[str], seats: int) -> dict[str, str]:
    """The game ids the report lists, each with why: failures first, then each bot's worst
    games, then the first table's games."""
    why: dict[str, list[str]] = {}
    failed = [(line, seat) for line in games if (seat := line.faulty_seat) is not None]
    for line, seat in failed[:MOST_FAILURES_LISTED]:
        why.setdefault(line.game_id, []).append(f"{line.players[seat]} failed ({line.termination})")
    for bot in bots:
        own = [
            (line.ranks[line.players.index(bot)], -line.scores[line.players.index(bot)], line)
            for line in games
            if bot in line.players and line.faulty_seat is None
        ]
        own.sort(key=lambda item: (-item[0], -item[1], item[2].seq))
        for rank, score, line in own[:WORST_GAMES_PER_BOT]:
            points = _number(float(-score))
            place = f"place {rank + 1} of {len(line.players)}, {points} point" + (
                "" if points == "1" else "s"
            )
            worst = f"one of {bot}'s {WORST_GAMES_PER_BOT} worst ({place})"
            why.setdefault(line.game_id, []).append(worst)
    for line in sorted(games, key=lambda g: g.seq)[:seats]:
        why.setdefault(line.game_id, []).append("the first table")
    return {game_id: "; ".join(reasons) for game_id, reasons in why.items()}


def _games(games: Sequence[GameLine], replays: dict[str, str], why: Mapping[str, str]) -> str:
    by_id = {line.game_id: line for line in games}
    rows = []
    for game_id in replays:
        line = by_id.get(game_id)
        if line is None:
            continue
        result = ", ".join(
            f"{html.escape(name)} {_number(float(score))}"
            for name, score in zip(line.players, line.scores, strict=False)
        )
        rows.append(
            f'<tr><td class="name">{_game_link(game_id, replays)}</td>'
            f'<td class="name">{html.escape(why.get(game_id, ""))}</td>'
            f'<td class="name">{result}</td><td class="name">'
            f"{html.escape(line.end or line.termination)}</td><td>{line.turns}</td></tr>"
        )
    return (
        '<p class="muted">Each bot\'s worst games (its lowest places, then its lowest scores), '
        "the failed games and the first table, with their replays; <em>listed as</em> says "
        "which each one is. Any other game: <code>arena replay records/GAME.json.gz --html "
        "GAME.html</code>."
        "</p>"
        '<table class="sortable"><thead><tr><th class="name">game</th><th class="name">'
        'listed as</th><th class="name">scores</th><th class="name">end</th><th>turns</th>'
        f"</tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )


def _configuration(config: dict[str, Any]) -> str:
    e = html.escape
    bots = "".join(
        f'<tr><td class="name">{e(str(bot.get("name")))}</td>'
        f'<td class="name">{e(str(bot.get("language") or "-"))}</td>'
        f'<td class="name">{e(" ".join(map(str, bot.get("command") or [])))}</td>'
        f'<td class="name"><code>{e(str(bot.get("hash", ""))[:16])}</code></td></tr>'
        for bot in config.get("bots", [])
    )
    settings = {
        key: config.get(key)
        for key in ("game", "game_config", "seats", "rounds", "seed", "total_games",
                    "all_seatings", "tables_per_round", "gauntlet", "created")
    }  # fmt: skip
    command = " ".join(map(str, config.get("command_line") or []))
    notes = "".join(
        f'<p class="note">{e(note)}</p>'
        for note in game_notes(str(config.get("game")), config.get("game_config"))
    )
    return (
        '<table><thead><tr><th class="name">bot</th><th class="name">language</th>'
        '<th class="name">command</th><th class="name">hash (sha-256 of its files)</th>'
        f"</tr></thead><tbody>{bots}</tbody></table>"
        f"<h3>Run</h3>{notes}<pre>{e(json.dumps(settings, indent=2))}</pre>"
        f"<p>Command line: <code>{e(command)}</code></p>"
        f"<h3>Limits</h3><pre>{e(json.dumps(config.get('limits', {}), indent=2))}</pre>"
        f"<h3>Sandbox</h3><pre>{e(json.dumps(config.get('sandbox', {}), indent=2))}</pre>"
        f"<h3>Versions</h3><pre>{e(json.dumps(config.get('versions', {}), indent=2))}</pre>"
    )


def _write_replays(run_dir: Path, game_ids: Iterable[str]) -> dict[str, str]:
    """Write the replay page of each game whose record replays; game id -> relative path."""
    from arena.html.replay_page import replay_html
    from arena.record import load_record

    written = {}
    folder = run_dir / REPLAYS
    for game_id in game_ids:
        source = run_dir / "records" / f"{game_id}.json.gz"
        try:
            page = replay_html(load_record(source))
        except (OSError, ValueError, ArenaError):
            continue  # no record, or one that does not replay: listed without a link
        folder.mkdir(exist_ok=True)
        write_atomic(folder / f"{game_id}.html", page)
        written[game_id] = f"{REPLAYS}/{game_id}.html"
    return written


def _span(low: float, high: float) -> str:
    """A head-to-head cell's 95% interval in percent, or "too few games" (NaN, issue 23)."""
    if math.isnan(low):
        return "too few games"
    return f"{100 * low:.0f}–{100 * high:.0f}%"
