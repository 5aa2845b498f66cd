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
import tempfile
import tracemalloc
from pathlib import Path
from typing import Any

import click

SPEEDUP_TARGET = 1.6


def _tournament(
    folder: Path, bots: list[Any], rounds: int, workers: int, seed: int
) -> tuple[float, int, int]:
    """Play one tournament; returns (games per second, games, scheduler's peak traced bytes)."""
    from arena import tournament

    config = tournament.create_run(folder, bots, rounds=rounds, seed=seed, limits={})
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
    from arena.players.manifest import build_bot, default_bots_dir, resolve_bot

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
@click.option("--json", "as_json", is_flag=True, help="Print the figures as one JSON object.")
def tournament_bench(bot: tuple[str, ...], games: int, memory_games: int, as_json: bool) -> None:
    """Games per second with 1 and 2 workers, and the scheduler's memory, small vs 10x larger.

    BOTs are names in bots/ or folders (default: random and greedy).
    """
    from arena.errors import ArenaError

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
