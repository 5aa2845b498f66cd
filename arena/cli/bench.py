"""`arena bench ...`: benchmarks that print figures (never tests that assert times)."""

from __future__ import annotations

import click

from arena.cli.lazy import LazyGroup

# Each benchmark registers here with one line: name -> "module:attribute".
BENCHMARKS: dict[str, str] = {
    "engine": "arena.bench.engine:engine",
    "tournament": "arena.bench.tournament:tournament_bench",
    "sandbox": "arena.bench.sandbox:sandbox_bench",
    "protocol": "arena.bench.protocol:protocol_bench",
    "stats": "arena.bench.stats:stats_bench",
    "league": "arena.bench.league:league_bench",
    "openspiel": "arena.bench.openspiel:openspiel_bench",
    "fit": "arena.bench.fit:fit_bench",
}


@click.group(cls=LazyGroup, lazy=BENCHMARKS)
def bench() -> None:
    """Measure the engine, the protocol and tournaments on this machine."""
