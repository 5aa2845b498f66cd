"""`arena bench league`: a league's games per second beside a batch run's, load tests, and
its plain leaderboard at a million games.

1. The same two bots (default: greedy and random) play `--games` games as a batch
   (`arena run`, 2 workers) and then in a league (`arena serve`'s engine, 2 workers, both
   submitted and checked first), side by side in one run. Target: the league at least 90%
   of the batch's games per second.
2. The load test, on the loopback only: while the league plays, 50 readers each fetch the
   leaderboard `--reads` times and 5 authors submit a bot each; every request is timed.
   Printed: requests, errors, the median and p95 time of a leaderboard read, and whether
   every game the league finished is stored once.
3. The flood, on the loopback only: FLOOD_READERS readers of the plain leaderboard for
   `--flood-seconds` while the league plays, then as long again with hostile clients in a
   process of their own, from other loopback addresses (127.0.1.N, 127.0.0.2 and .3):
   FLOOD_ASKERS askers of custom leaderboards without a token (each query another, one
   every ASK_EVERY_S at most), FLOOD_SLOW connections whose headers never finish (a header
   line now and then) and FLOOD_IDLE connections that say nothing, each reopened when the
   server closes it (at most FLOOD_OPENS_PER_S a second of each kind). Printed: the plain
   leaderboard's median and p95 and the games per second without and with the flood, their
   ratios, and what the flood got.
4. The synthetic league (`--synthetic-games`, SYNTHETIC_GAMES unless told; 1,000,000 is
   `--synthetic-games 1000000`; `--synthetic-only` plays no bots): synthetic games of
   `--bots` bots (SYNTHETIC_BOTS unless told) grown in bulk (league_grow.py: no bot
   processes; the games stored and rated by a process of their own, the standings counted
   beside); then, while ARRIVE_PER_S games a second keep arriving, a reader of the plain
   leaderboard. Printed: the cost of one game (grown in bulk, recorded by `League.record`,
   and the standings' own update), how long after being stored a game is on the plain
   leaderboard, the background Elo fit's time and how far it is behind, and at each
   checkpoint the league opened again as a restart does (reopening, its memory, a bot's
   page, the fit, matchmaking's choice of a table).

The flood (3.) is in `league_flood.py`, the synthetic league (4.) in `league_synthetic.py`;
here are the command, the batch-beside-league run, the load test and the printing.
"""

from __future__ import annotations

import json
import statistics
import tempfile
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from arena.bench import league_synthetic
from arena.bench.league_flood import (
    FLOOD_ASKERS,
    FLOOD_IDLE,
    FLOOD_READERS,
    FLOOD_SLOW,
    _timed,
    _under_flood,
)
from arena.bench.league_synthetic import SYNTHETIC_GAMES, _print_synthetic, synthetic
from arena.bench.synthetic_games import SYNTHETIC_BOTS

if TYPE_CHECKING:
    from arena.league.league import League

LEAGUE_TARGET = 0.90
READERS = 50
SUBMITTERS = 5


def _batch(root: Path, names: tuple[str, ...], games: int) -> float:
    from arena import tournament
    from arena.players.manifest import default_bots_dir, resolve_bot

    bots = [resolve_bot(name, default_bots_dir()) for name in names]
    rounds = max(1, games // (len(bots) * (len(bots) - 1)))
    config = tournament.create_run(root / "batch", bots, rounds=rounds, seed=1, limits={})
    return float(tournament.play(root / "batch", config, workers=2).games_per_second)


def _league(root: Path, names: tuple[str, ...], db: str | None) -> League:
    """A league of `names`, each submitted by an author of its own and checked; not started."""
    from arena.league.league import League
    from arena.league.uploads import archive_folder
    from arena.players.manifest import default_bots_dir

    league = League(root / "league", workers=2, db=db)
    for name in names:
        token = league.store.add_author(f"author-{name}")
        author = league.store.author_of(token)
        assert author is not None
        archive = archive_folder(default_bots_dir() / name, root)
        bot = league.submit(author, archive, wait=True)
        if bot.status != "active":
            raise click.ClickException(f"{name} failed its check in the league: {bot.message}")
    return league


def _league_rate(league: League, games: int) -> float:
    league.start()
    deadline = time.monotonic() + 600
    while league.game_count() < 1 and time.monotonic() < deadline:
        time.sleep(0.01)
    start, first = time.perf_counter(), league.game_count()
    while league.game_count() < first + games and time.monotonic() < deadline:
        time.sleep(0.01)
    return (league.game_count() - first) / (time.perf_counter() - start)


def _load(league: League, root: Path, reads: int) -> dict[str, Any]:
    from arena.league.uploads import archive_folder
    from arena.league.web import serving
    from arena.players.manifest import default_bots_dir

    archives = []
    for n in range(SUBMITTERS):
        folder = root / "load" / f"load{n}"
        folder.parent.mkdir(parents=True, exist_ok=True)
        source = default_bots_dir() / "random"
        folder.mkdir()
        (folder / "bot.py").write_bytes((source / "bot.py").read_bytes())
        (folder / "bot.toml").write_text(f'name = "load{n}"\ncommand = ["python3", "bot.py"]\n')
        with league.lock:  # the league is playing: its store is shared
            token = league.store.add_author(f"loader{n}")
        archives.append((archive_folder(folder, root).read_bytes(), token))
    before = league.game_count()

    def reader(url: str) -> list[tuple[float, int]]:
        return [_timed(urllib.request.Request(url + "/api/leaderboard")) for _ in range(reads)]

    def submitter(url: str, item: tuple[bytes, str]) -> tuple[float, int]:
        body, token = item
        headers = {"Authorization": f"Bearer {token}"}
        return _timed(urllib.request.Request(url + "/api/bots", body, headers, method="POST"))

    with serving(league) as url, ThreadPoolExecutor(READERS + SUBMITTERS) as pool:
        sent = [pool.submit(submitter, url, item) for item in archives]
        read = list(pool.map(reader, [url] * READERS))
        submits = [future.result() for future in sent]
    times = sorted(t for rows in read for t, _ in rows)
    statuses = [s for rows in read for _, s in rows] + [s for _, s in submits]
    with league.lock:
        ids = [line.game_id for line in league.store.games()]
    return {
        "requests": len(statuses),
        "errors": sum(s not in (200, 202) for s in statuses),
        "read_median_ms": round(statistics.median(times) * 1000, 1),
        "read_p95_ms": round(times[int(0.95 * (len(times) - 1))] * 1000, 1),
        "games_during_load": len(ids) - before,
        "games_stored_once": len(ids) == len(set(ids)),
    }


def measure(
    names: tuple[str, ...], games: int, reads: int, db: str | None = None, flood_s: float = 15.0
) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="arena-bench-league-") as temporary:
        root = Path(temporary)
        batch = _batch(root, names, games)
        league = _league(root, names, db)
        try:
            rate = _league_rate(league, games)
            load = _load(league, root, reads)
            flood = _under_flood(league, flood_s)
        finally:
            league.close()
    return {
        "bots": list(names),
        "games": games,
        "database": "sqlite" if db is None else "postgresql",
        "batch_games_per_second": round(batch, 2),
        "league_games_per_second": round(rate, 2),
        "league_share": round(rate / batch, 3) if batch else None,
        "league_target": LEAGUE_TARGET,
        "load": load,
        "flood": flood,
    }


@click.command()
@click.argument("bot", nargs=-1)
@click.option("--games", type=click.IntRange(min=10), default=400, show_default=True)
@click.option(
    "--reads",
    type=click.IntRange(min=1),
    default=20,
    show_default=True,
    help="Leaderboard reads by each of the 50 readers of the load test.",
)
@click.option(
    "--db",
    default=None,
    metavar="URL",
    help="The league's store on this empty database (postgresql://...) [a SQLite file].",
)
@click.option(
    "--flood-seconds",
    "flood_s",
    type=click.FloatRange(min=1),
    default=15.0,
    show_default=True,
    help="The flood test's reading without, and then with, the hostile clients.",
)
@click.option(
    "--synthetic-games",
    "synthetic_games",
    type=click.IntRange(min=0),
    default=SYNTHETIC_GAMES,
    show_default=True,
    help="Grow a synthetic league to this many games (1,000,000: --synthetic-games 1000000) "
    "and time its plain leaderboard; 0 skips it.",
)
@click.option(
    "--bots",
    "synthetic_bots",
    type=click.IntRange(min=2, max=100_000),
    default=SYNTHETIC_BOTS,
    show_default=True,
    help="The synthetic league's bots (issue 45's targets: --synthetic-games 10000000 "
    "--bots 1000).",
)
@click.option(
    "--synthetic-only",
    is_flag=True,
    help="Only the synthetic league (no bots are played); its store is then --db if given.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def league_bench(
    bot: tuple[str, ...],
    games: int,
    reads: int,
    db: str | None,
    flood_s: float,
    synthetic_games: int,
    synthetic_bots: int,
    synthetic_only: bool,
    as_json: bool,
) -> None:
    """A league's games per second beside a batch run's, a load test of its web side, and
    its plain leaderboard in a league grown to many games.

    BOTs are names in bots/ (default: greedy and random)."""
    from arena.errors import ArenaError

    try:
        figures = (
            {}
            if synthetic_only
            else measure(bot or ("greedy", "random"), games, reads, db, flood_s)
        )
        if synthetic_games:
            figures["synthetic"] = synthetic(  # --db: the played league's, unless alone
                synthetic_games,
                league_synthetic.ARRIVE_S,
                bots=synthetic_bots,
                db=db if synthetic_only else None,
            )
    except ArenaError as error:
        raise click.ClickException(str(error)) from None
    if as_json:
        click.echo(json.dumps(figures))
        return
    if not synthetic_only:
        _print_played(figures, games, reads, flood_s)
    if synthetic_games:
        _print_synthetic(figures["synthetic"])


def _print_played(figures: dict[str, Any], games: int, reads: int, flood_s: float) -> None:
    load = figures["load"]
    click.echo(
        f"league benchmark: {', '.join(figures['bots'])}; {games} games each way, 2 workers; "
        f"the league's store on {figures['database']}"
    )
    click.echo(
        f"  games per second    batch {figures['batch_games_per_second']:>8.1f}    league "
        f"{figures['league_games_per_second']:>8.1f}    league/batch {figures['league_share']}"
        f" (target >= {LEAGUE_TARGET})"
    )
    click.echo(
        f"  load test  {READERS} readers x {reads} leaderboard reads + {SUBMITTERS} submissions"
        f" while games ran: {load['requests']} requests, {load['errors']} errors; leaderboard "
        f"median {load['read_median_ms']} ms, p95 {load['read_p95_ms']} ms; "
        f"{load['games_during_load']} games meanwhile, stored once: {load['games_stored_once']}"
    )
    flood, quiet, hostile = figures["flood"], figures["flood"]["quiet"], figures["flood"]["flood"]
    click.echo(
        f"  flood test  {FLOOD_READERS} readers of the plain leaderboard, {flood_s:g} s without"
        f" then {flood_s:g} s with {FLOOD_ASKERS} askers of custom leaderboards, {FLOOD_SLOW}"
        f" connections whose headers never finish and {FLOOD_IDLE} idle ones:"
    )
    click.echo(
        f"    plain leaderboard median {quiet['read_median_ms']} -> {hostile['read_median_ms']}"
        f" ms (x{flood['median_ratio']}), p95 {quiet['read_p95_ms']} -> "
        f"{hostile['read_p95_ms']} ms (x{flood['p95_ratio']}); errors {quiet['errors']} -> "
        f"{hostile['errors']}; games per second {quiet['games_per_second']:.1f} -> "
        f"{hostile['games_per_second']:.1f} (x{flood['games_ratio']})"
    )
    got = ", ".join(f"{what} {count}" for what, count in flood["hostile"].items())
    click.echo(f"    the flood got: {got}")
