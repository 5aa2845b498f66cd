"""Mandala Arena: a referee, tournaments and ratings for bots that play Mandala.

The code is in layers, and every import points down (ARCHITECTURE.md tells why; the test
tests/test_architecture.py walks every import, lazy and type-only ones included, and fails
on an arrow up or a circle). From the bottom up, as `LAYERS` names them:

1. foundation: errors, atomic files, large freed blocks handed back, numpy on one thread,
   bounded reading, compact JSON, names, outcomes, the schedule, the statistics' maths;
2. games: the rules only (no file formats, no adaptors);
3. game sources: games found by name, and the adaptors to and from OpenSpiel and PettingZoo;
4. protocol and records: the JSON lines a bot reads and writes, game records, the games log;
5. players: a bot folder made into a process, in its sandbox;
6. referee: one game between processes, and the checks of a bot;
7. execution: many games at once (the pool, Dask) and a match;
8. ratings, tables and game pages: what the games log says, a game's replay page;
9. tournament, league and human play;
10. reports: a run's report, its charts and its page;
11. commands: the CLI and the benchmarks.
"""

__version__ = "0.1.0"

LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "foundation",
        (
            "errors",
            "allocator",
            "atomic",
            "blas",
            "bounded",
            "compact_json",
            "names",
            "outcome",
            "schedule",
            "stats",
        ),
    ),
    ("games", ("games",)),
    ("game sources", ("game_sources", "ecosystem")),
    ("protocol and records", ("protocol", "record", "narration", "results.log")),
    ("players", ("players",)),
    ("referee", ("referee", "check_games", "conformance")),
    ("execution", ("execution", "cluster", "match")),
    (
        "ratings, tables and game pages",
        (
            "results.ratings",
            "results.tables",
            "results.order_free",
            "results.pair_fit",
            "results.gauntlet",
            "results.summary",
            "pairing_tests",
            "stats.coverage",
            "html",
        ),
    ),
    (
        "tournament, league and human play",
        ("tournament", "run_config", "run_folder", "run_setup", "startup_watch", "league", "human"),
    ),
    ("reports", ("results", "html.report_page")),
    ("commands", ("cli", "bench")),
)
"""Each layer, bottom first, with the modules and packages it holds (under `arena.`). A
module belongs to the longest name that holds it: `stats` is the foundation, but
`stats.coverage` is in the layer of ratings and tables. `arena` itself is the foundation."""
