"""`arena bench tournament`: games per second with 1 and 2 workers, and the scheduler's memory.

Real tournaments of real bot processes in a temporary folder: the same field and seed with
one worker, then two, side by side; then a small tournament and one ten times larger, with
the scheduler's peak of Python memory (tracemalloc, in the scheduler process only, during
play) and its peak RSS (getrusage). Targets: two workers at least 1.6 times one worker; the
scheduler's memory does not grow with the number of games.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import tempfile
import tracemalloc
from pathlib import Path
from typing import Any

import click

SPEEDUP_TARGET = 1.6
CLUSTER_SPEEDUP_TARGET = 1.8
"""Issue 12: two workers at least 1.8 times one, on the pool and on a LocalCluster."""
CLUSTER_OVERHEAD_TARGET = 0.10
"""Issue 12: a LocalCluster within 10% of the pool at the same number of workers."""


def _tournament(
    folder: Path, bots: list[Any], rounds: int, workers: int, seed: int, executor: Any = None
) -> tuple[float, int, int]:
    """Play one tournament; returns (games per second, games, scheduler's peak traced bytes).

    With an `executor` (Dask, whose scheduler runs in this process), memory is not traced:
    tracing would slow the scheduler, not measure the arena."""
    from arena import tournament

    config = tournament.create_run(folder, bots, rounds=rounds, seed=seed, limits={})
    if executor is not None:
        summary = tournament.play(folder, config, workers=workers, executor=executor)
        return summary.games_per_second, summary.played, 0
    tracemalloc.start()
    tracemalloc.reset_peak()
    try:
        summary = tournament.play(folder, config, workers=workers)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return summary.games_per_second, summary.played, peak


def measure(names: tuple[str, ...], games: int, memory_games: int, seed: int = 1) -> dict[str, Any]:
    """Run the benchmark tournaments and return the figures."""
    from arena.players.build import build_bot
    from arena.players.manifest import default_bots_dir, resolve_bot

    directory = default_bots_dir()
    bots = [resolve_bot(name, directory) for name in names]
    for bot in bots:
        build_bot(bot)
    games_per_round = len(bots) * (len(bots) - 1)
    rounds = max(1, games // games_per_round)
    small_rounds = max(1, memory_games // games_per_round)
    figures: dict[str, Any] = {
        "bots": [bot.name for bot in bots],
        "cores": os.cpu_count(),
    }
    with tempfile.TemporaryDirectory(prefix="arena-bench-") as temporary:
        root = Path(temporary)
        rate_1, played, _ = _tournament(root / "w1", bots, rounds, 1, seed)
        rate_2, _, _ = _tournament(root / "w2", bots, rounds, 2, seed)
        _, small_games, small_peak = _tournament(root / "small", bots, small_rounds, 2, seed)
        _, large_games, large_peak = _tournament(root / "large", bots, 10 * small_rounds, 2, seed)
    figures.update(
        {
            "games_per_measurement": played,
            "games_per_second_1_worker": round(rate_1, 2),
            "games_per_second_2_workers": round(rate_2, 2),
            "speedup": round(rate_2 / rate_1, 2) if rate_1 else None,
            "speedup_target": SPEEDUP_TARGET,
            "small_games": small_games,
            "large_games": large_games,
            "scheduler_peak_kib_small": round(small_peak / 1024, 1),
            "scheduler_peak_kib_large": round(large_peak / 1024, 1),
            "memory_growth": round(large_peak / small_peak, 2) if small_peak else None,
            "scheduler_max_rss_mib": round(
                resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1
            ),
        }
    )
    return figures


def _pair(root: Path, bot: Any) -> list[Any]:
    """Two copies of `bot` in folders of their own (a bot sees only its own folder)."""
    from arena.players.manifest import load_manifest

    pair = []
    for n in (1, 2):
        folder = root / f"{bot.name}-{n}"
        shutil.copytree(bot.folder, folder)
        (folder / "bot.toml").write_text(
            f'name = "{bot.name}-{n}"\ncommand = {json.dumps(list(bot.command))}\n'
        )
        pair.append(load_manifest(folder))
    return pair


def measure_cluster(workers: int, games: int, seed: int = 1) -> list[dict[str, Any]]:
    """Games per second of two fields (a trivial C bot, `random`), side by side: the local
    pool and a Dask LocalCluster, with 1 and `workers` workers."""
    from arena.bench.protocol import trivial_bot
    from arena.cluster import DaskExecutor
    from arena.players.build import build_bot
    from arena.players.manifest import default_bots_dir, resolve_bot

    rows = []
    with tempfile.TemporaryDirectory(prefix="arena-bench-cluster-") as temporary:
        root = Path(temporary)
        (root / "zero").mkdir()
        zero, language = trivial_bot(root / "zero")
        fields = {
            f"trivial {language} bot": _pair(root, zero),
            "random": _pair(root, resolve_bot("random", default_bots_dir())),
        }
        for label, bots in fields.items():
            for bot in bots:
                build_bot(bot)
            rounds = max(1, games // 2)
            row: dict[str, Any] = {"field": label, "games": 2 * rounds}
            for n in (1, workers):
                rate, _, _ = _tournament(root / f"{label}-pool-{n}", bots, rounds, n, seed)
                row[f"pool_{n}"] = round(rate, 2)
                executor = DaskExecutor(local=n)
                rate, _, _ = _tournament(
                    root / f"{label}-dask-{n}", bots, rounds, n, seed, executor
                )
                row[f"dask_{n}"] = round(rate, 2)
            rows.append(row)
    return rows


def _print_cluster(rows: list[dict[str, Any]], workers: int) -> None:
    click.echo(
        f"cluster benchmark: games per second, the local pool beside a Dask LocalCluster "
        f"({rows[0]['games']} games each, {os.cpu_count()} cores)"
    )
    click.echo(
        f"  {'field':<18}{'pool 1':>9}{f'pool {workers}':>9}{'dask 1':>9}{f'dask {workers}':>9}"
        f"{'dask/pool':>22}{f'{workers} vs 1 worker':>24}"
    )
    for row in rows:
        p1, pn, d1, dn = (
            row[k] for k in ("pool_1", f"pool_{workers}", "dask_1", f"dask_{workers}")
        )
        ratio = f"{d1 / p1:.2f} / {dn / pn:.2f}" if p1 and pn else "-"
        speed = f"{pn / p1:.2f}x / {dn / d1:.2f}x" if p1 and d1 else "-"
        click.echo(
            f"  {row['field']:<18}{p1:>9.1f}{pn:>9.1f}{d1:>9.1f}{dn:>9.1f}{ratio:>22}{speed:>24}"
        )
    click.echo(
        f"  targets: dask/pool >= {1 - CLUSTER_OVERHEAD_TARGET:.2f} at the same workers; "
        f"{workers} workers >= {CLUSTER_SPEEDUP_TARGET}x one (pool / dask)"
    )


@click.command()
@click.argument("bot", nargs=-1)
@click.option(
    "--games",
    default=120,
    show_default=True,
    help="Games per throughput measurement (rounded down to whole rounds).",
)
@click.option(
    "--memory-games",
    default=40,
    show_default=True,
    help="Games of the small memory tournament; the large one has ten times more.",
)
@click.option(
    "--cluster",
    metavar="local:N",
    help="Instead: the local pool beside a Dask LocalCluster, with 1 and N workers.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the figures as one JSON object.")
def tournament_bench(
    bot: tuple[str, ...], games: int, memory_games: int, cluster: str | None, as_json: bool
) -> None:
    """Games per second with 1 and 2 workers, and the scheduler's memory, small vs 10x larger.

    BOTs are names in bots/ or folders (default: random and greedy). With --cluster local:N,
    games per second of a trivial C bot and of random on the pool and on Dask, side by side.
    """
    from arena.errors import ArenaError

    if cluster is not None:
        from arena.cluster import local_workers

        try:
            workers = local_workers(cluster)
            rows = measure_cluster(workers, games)
        except ArenaError as error:
            raise click.ClickException(str(error)) from None
        if as_json:
            click.echo(json.dumps(rows))
        else:
            _print_cluster(rows, workers)
        return
    try:
        figures = measure(bot or ("greedy", "random"), games, memory_games)
    except ArenaError as error:
        raise click.ClickException(str(error)) from None
    if as_json:
        click.echo(json.dumps(figures))
        return
    speedup = figures["speedup"]
    click.echo(
        f"tournament benchmark: {', '.join(figures['bots'])}; "
        f"{figures['games_per_measurement']} games per measurement, {figures['cores']} cores"
    )
    click.echo(
        f"  games per second    1 worker {figures['games_per_second_1_worker']:>8.1f}"
        f"    2 workers {figures['games_per_second_2_workers']:>8.1f}"
        f"    speed-up {speedup}x (target >= {SPEEDUP_TARGET}x)"
    )
    click.echo(
        f"  scheduler peak memory (tracemalloc)  {figures['small_games']} games "
        f"{figures['scheduler_peak_kib_small']:>8.1f} KiB    {figures['large_games']} games "
        f"{figures['scheduler_peak_kib_large']:>8.1f} KiB    growth {figures['memory_growth']}x "
        "(target: none)"
    )
    click.echo(f"  scheduler max RSS   {figures['scheduler_max_rss_mib']} MiB")
