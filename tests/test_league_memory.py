"""Issue 45: a league's memory does not grow with its games. A process grows a league of
synthetic games (12 bots, tables of two) through `League.record`, many tables a transaction,
and reads its resident memory at GROWN_FIRST games and at GROWN_LAST (ten times as many);
then a new process opens it, as a restart does. Both within 10%: the server holds its
bots and pairs, never its games. Its own processes, so no other test's memory counts.

GROWN_LAST is 500,000 games unless ARENA_MEMORY_GAMES says (the issue's figures:
ARENA_MEMORY_GAMES=1000000, 100,000 against 1,000,000; `-s` prints them): about 50 s on a
quiet machine, 100 µs a game stored (the state's update, TrueSkill's, the store's)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

GROWN_LAST = int(os.environ.get("ARENA_MEMORY_GAMES", "500000"))
GROWN_FIRST = GROWN_LAST // 10

_GROW = textwrap.dedent(
    """
    import gc, json, random, sys, time
    from pathlib import Path
    from arena.bench.league_probe import rss_mib
    from arena.execution import TableResult
    from arena.league.league import League
    from arena.results.log import GameLine

    folder, first, last = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    league = League(folder, seats=2, workers=0)
    league.store.db.db.execute("PRAGMA synchronous=OFF")  # its disk is not what is measured
    rng, names = random.Random(1), [f"bot{n:02d}" for n in range(12)]
    deals = [(rng.sample(names, 2), rng.random() < 0.5, rng.random() < 0.5) for _ in range(997)]
    start, seen, table = time.perf_counter(), {}, 0
    while league.standings.count < last:
        lines = []
        for number in range(table, table + 2500):  # a deal of two games, seats swapped
            (a, b), first_won, second_won = deals[number % len(deals)]
            for game, players, won in ((1, (a, b), first_won), (2, (b, a), second_won)):
                lines.append(GameLine(
                    seq=2 * number + game, game_id=f"L{number:07d}-g{game}", players=players,
                    scores=(1.0, 0.0) if won else (0.0, 1.0), ranks=(0, 1) if won else (1, 0),
                    termination="normal", table=number, game=game,
                ))
        league.record(TableResult(lines))
        table += 2500
        if league.standings.count in (first, last):
            gc.collect()
            seen[league.standings.count] = rss_mib()[0]
    league.close()
    print(json.dumps({"rss": seen, "seconds": time.perf_counter() - start}))
    """
)
_OPEN = textwrap.dedent(
    """
    import gc, json, sys, time
    from pathlib import Path
    from arena.bench.league_probe import rss_mib
    from arena.league.league import League

    start = time.perf_counter()
    league = League(Path(sys.argv[1]), workers=0)
    took = time.perf_counter() - start
    league.standings.rows()
    gc.collect()
    print(json.dumps({"rss": rss_mib()[0], "games": league.standings.count, "seconds": took}))
    league.close()
    """
)


def _run(script: str, *args: object) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", script, *map(str, args)],
        capture_output=True, text=True, timeout=540, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.splitlines()[-1])  # type: ignore[no-any-return]


def test_a_leagues_memory_does_not_grow_with_its_games(tmp_path: Path) -> None:
    grown = _run(_GROW, tmp_path / "league", GROWN_FIRST, GROWN_LAST)
    rss = {int(games): float(mib) for games, mib in grown["rss"].items()}  # type: ignore[attr-defined]
    assert set(rss) == {GROWN_FIRST, GROWN_LAST}, grown
    assert rss[GROWN_LAST] <= 1.1 * rss[GROWN_FIRST], grown
    opened = _run(_OPEN, tmp_path / "league")
    print(f"grown in {grown['seconds']:.0f} s: {rss} MiB; opened again: {opened}")  # with -s
    assert opened["games"] == GROWN_LAST
    assert float(opened["rss"]) <= 1.1 * rss[GROWN_FIRST], (opened, grown)  # type: ignore[arg-type]
