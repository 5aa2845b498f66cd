"""`arena bench openspiel`: our games through pyspiel beside the engine, in one process (issue 44).

Three figures, each printed beside its target, each in this process's CPU time (`CLOCK`:
what an idle core would take; wall time on a shared machine counts the others' work):

- random play: decisions a second through pyspiel (every chance node answered by its
  probabilities, every decision uniform among the legal actions) against the engine's own
  random play (`arena bench engine`'s loop), per game and table size, measured in turns in
  one process so that a noisy machine slows both alike; the target is pyspiel within 3x.
  Beside them, what bounds the ratio from below: the same random play on the chance
  engine with each draw a chance node answered at once where it is drawn (no pyspiel, no
  state, no greenlet: what the chance model costs by itself), and pyspiel's floor, the
  same loop over the same games recorded and replayed by a state that does nothing
  (spiel_floor.py); their times a decision added are the least any Python game stepping
  our chance model through pyspiel could take, printed as the best ratio reachable;
- `resample_from_infostate` for the seat to move at several points of random games
  (the first decision, then each fifth of the game), its mean time at each point against
  1 ms (Mandala, Flowers) or 5 ms (Takenoko); the seat's record (its information state,
  written when first read) is read first, as a search reads it before it samples;
- OpenSpiel's own Python ISMCTS (`open_spiel.python.algorithms.ismcts`, random rollouts)
  at `--simulations` a move on Mandala: seconds a move against 2 s at 1,000 simulations
  (a smaller `--simulations` is scaled to 1,000 and says so), twice: with OpenSpiel's
  `RandomRolloutEvaluator`, whose `numpy.random.choice` at every rollout step costs more
  than the target by itself, and with ours (`arena.ecosystem.rollouts.RandomRollouts`,
  which bots/openspiel-ismcts uses): the search over our game.
"""

from __future__ import annotations

import json
import random
import time
from typing import Any

import click

from arena.bench.engine import measure
from arena.games.chance import by_probability, drawing

CLOCK = time.process_time
"""Every figure is this process's CPU time: on a shared machine wall time counts the other
work's share of the core, and the targets are for an idle core."""
RATIO_TARGET = 3.0
"""Random play through pyspiel within this factor of the engine's decisions/s."""
RESAMPLE_TARGET_MS = {"mandala": 1.0, "flowers": 1.0, "takenoko": 5.0}
"""`resample_from_infostate` at most this many milliseconds at every point of a game."""
ISMCTS_TARGET_SECONDS = 2.0
"""OpenSpiel's Python ISMCTS on Mandala: seconds a move at 1,000 simulations."""
ISMCTS_SIMULATIONS = 1000
TABLES: tuple[tuple[str, int], ...] = (
    *(("mandala", 2), ("flowers", 2), ("flowers", 3), ("flowers", 4)),
    *(("takenoko", 2), ("takenoko", 3), ("takenoko", 4)),
)
"""Every game at every table size, with its default options."""
POINTS = 5
"""Points of a game (after the first decision) where a resample is timed: each fifth."""
TURNS = 3


def chance_random_play(name: str, seats: int, games: int, seed: int = 1) -> dict[str, Any]:
    """`games` random games of the chance engine (arena/games/<game>/chance.py), each draw
    a chance node answered at once by its probabilities: decisions a second."""
    from arena.ecosystem.rollouts import DrawnInPlace
    from arena.game_sources import get_game

    game = get_game(name)
    coding = game.learning()
    rules = None if coding is None else coding.chance()
    assert rules is not None
    config = game.config({})
    rng = random.Random(seed)
    uniform = rng.random
    decisions = 0
    start = CLOCK()
    with drawing(DrawnInPlace(rng)):
        for _ in range(games):
            position = rules.deal(config, seats)
            while not position.is_over():
                actions = position.legal_actions()
                position.apply_action(actions[int(uniform() * len(actions))])
                decisions += 1
    return {"seconds": CLOCK() - start, "decisions": decisions}


def pyspiel_random_play(name: str, seats: int, games: int, seed: int = 1) -> dict[str, Any]:
    """`games` random games through pyspiel: decisions (not chance nodes) a second."""
    import pyspiel

    import arena.ecosystem.openspiel_games  # noqa: F401  (registers the games)
    from arena.bench.spiel_floor import timed_random_play

    return timed_random_play(pyspiel.load_game(f"arena_{name}", {"players": seats}), games, seed)


_LOOPS = ("native", "chance", "pyspiel", "floor")
"""The random-play loops a table's row times: the engine, the chance engine drawing in
place, our games through pyspiel, pyspiel's floor."""


def _rate(figures: dict[str, Any]) -> float:
    return float(figures["decisions"] / figures["seconds"])


def random_play_rows(games: int, tables: tuple[tuple[str, int], ...]) -> list[dict[str, Any]]:
    """Each table's decisions/s natively and through pyspiel, best of `TURNS` turns."""
    from arena.bench.spiel_floor import floor_random_play, recorded_games

    best: dict[tuple[str, int], dict[str, float]] = {}
    share = max(1, games // TURNS)
    records = {table: recorded_games(*table, games=share, seed=0) for table in tables}
    for turn in range(TURNS):
        for name, seats in tables:
            native = measure(name, share, copies=1, seats=seats, clock=CLOCK)
            drawn = chance_random_play(name, seats, share, seed=turn + 1)
            spiel = pyspiel_random_play(name, seats, share, seed=turn + 1)
            floor = floor_random_play(records[(name, seats)], seed=turn + 1)
            row = best.setdefault((name, seats), dict.fromkeys(_LOOPS, 0.0))
            rates = (native["decisions_per_second"], *map(_rate, (drawn, spiel, floor)))
            for loop, rate in zip(_LOOPS, rates, strict=True):
                row[loop] = max(row[loop], rate)
    rows = []
    for (name, seats), row in best.items():
        ratio = row["native"] / row["pyspiel"]
        reachable = row["native"] / row["chance"] + row["native"] / row["floor"]
        rows.append(
            {
                "figure": "random play",
                "game": name,
                "seats": seats,
                "engine_decisions_per_second": round(row["native"]),
                "chance_engine_decisions_per_second": round(row["chance"]),
                "chance_engine_ratio": round(row["native"] / row["chance"], 2),
                "floor_decisions_per_second": round(row["floor"]),
                "best_reachable_ratio": round(reachable, 2),
                "pyspiel_decisions_per_second": round(row["pyspiel"]),
                "ratio": round(ratio, 2),
                "target": RATIO_TARGET,
                "met": ratio <= RATIO_TARGET,
            }
        )
    return rows


def resample_rows(
    games: int, samples: int, tables: tuple[tuple[str, int], ...]
) -> list[dict[str, Any]]:
    """Mean milliseconds of a resample at each point of `games` random games per table."""
    import pyspiel

    import arena.ecosystem.openspiel_games  # noqa: F401

    rows = []
    for name, seats in tables:
        game = pyspiel.load_game(f"arena_{name}", {"players": seats})
        sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
        times: list[list[float]] = [[] for _ in range(POINTS + 1)]
        for seed in range(games):
            for point, state in enumerate(_points(game, seed)):
                seat = state.current_player()
                state.information_state_string(seat)  # its record, written before timing
                start = CLOCK()
                for _ in range(samples):
                    state.resample_from_infostate(seat, sampler)
                times[point].append((CLOCK() - start) / samples)
        means = [1000 * sum(point) / len(point) for point in times if point]
        worst = max(means)
        rows.append(
            {
                "figure": "resample",
                "game": name,
                "seats": seats,
                "milliseconds_by_point": [round(mean, 3) for mean in means],
                "worst_milliseconds": round(worst, 3),
                "target": RESAMPLE_TARGET_MS[name],
                "met": worst <= RESAMPLE_TARGET_MS[name],
            }
        )
    return rows


def _points(game: Any, seed: int) -> list[Any]:
    """Clones of a random game at its first decision and at each fifth of its decisions
    (the game is played twice from one seed: first to count them, then to clone there)."""
    decisions = _decisions(game, seed, ())
    picked = {min(decisions - 1, decisions * k // POINTS) for k in range(POINTS)}
    points: list[Any] = []
    _decisions(game, seed, picked, points)
    return points


def _decisions(game: Any, seed: int, picked: Any, clones: list[Any] | None = None) -> int:
    """Play a random game from `seed`; clone it into `clones` at the decisions `picked`."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(by_probability(state.chance_outcomes(), rng.random()))
            continue
        if clones is not None and decisions in picked:
            clones.append(state.clone())
        decisions += 1
        actions = state.legal_actions()
        state.apply_action(actions[int(rng.random() * len(actions))])
    return decisions


def ismcts_rows(simulations: int, moves: int) -> list[dict[str, Any]]:
    """Seconds a move of OpenSpiel's Python ISMCTS on Mandala, scaled to 1,000 simulations:
    with OpenSpiel's own `RandomRolloutEvaluator`, and with ours (`RandomRollouts`, the
    same random rollouts drawn by Python's `random`, on the engine's position): OpenSpiel's
    evaluator draws every rollout step with `numpy.random.choice` (about 20 us a call, some
    150 calls a rollout from the opening), which alone exceeds the target; the second row
    is the search over our game."""
    import numpy as np
    from open_spiel.python.algorithms import mcts

    from arena.ecosystem.rollouts import RandomRollouts

    rows = []
    for name, evaluator in (
        ("openspiel-rollouts", mcts.RandomRolloutEvaluator(1, np.random.RandomState(5))),
        ("our-rollouts", RandomRollouts(1, seed=5)),
    ):
        per_move, searched = _ismcts_seconds(evaluator, simulations, moves)
        rows.append(
            {
                "figure": "ismcts",
                "game": "mandala",
                "seats": 2,
                "rollouts": name,
                "simulations": simulations,
                "moves": searched,
                "seconds_per_move_at_1000": round(per_move, 3),
                "target": ISMCTS_TARGET_SECONDS,
                "met": per_move <= ISMCTS_TARGET_SECONDS,
            }
        )
    return rows


def _ismcts_seconds(evaluator: Any, simulations: int, moves: int) -> tuple[float, int]:
    """ISMCTS with `evaluator` on the first `moves` decisions of a random Mandala game:
    seconds a move, scaled to 1,000 simulations, and the moves searched."""
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts

    import arena.ecosystem.openspiel_games  # noqa: F401

    game = pyspiel.load_game("arena_mandala")
    rng = np.random.RandomState(3)
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, simulations, random_state=rng)
    state = game.new_initial_state()
    chooser = random.Random(4)
    elapsed, searched = 0.0, 0
    while not state.is_terminal() and searched < moves:
        if state.is_chance_node():
            state.apply_action(by_probability(state.chance_outcomes(), chooser.random()))
            continue
        start = CLOCK()
        action = bot.step(state)
        elapsed += CLOCK() - start
        searched += 1
        state.apply_action(int(action))
    return elapsed / max(1, searched) * ISMCTS_SIMULATIONS / simulations, searched


@click.command()
@click.option("--games", default=60, show_default=True, help="Random games per table (3 turns).")
@click.option("--resample-games", default=4, show_default=True, help="Games whose points resample.")
@click.option("--samples", default=20, show_default=True, help="Resamples timed at each point.")
@click.option("--simulations", default=ISMCTS_SIMULATIONS, show_default=True, help="ISMCTS's.")
@click.option("--moves", default=3, show_default=True, help="Mandala moves ISMCTS searches.")
@click.option("--game", "only", default=None, help="Only this game (mandala, flowers, takenoko).")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON, a row a line.")
def openspiel_bench(
    games: int,
    resample_games: int,
    samples: int,
    simulations: int,
    moves: int,
    only: str | None,
    as_json: bool,
) -> None:
    """Our games through pyspiel beside the engine: random play, resampling, ISMCTS."""
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        raise click.ClickException(
            "OpenSpiel is not installed: `pip install -e '.[ecosystem]'` (make install does)."
        ) from None
    tables = tuple(table for table in TABLES if only in (None, table[0]))
    if not tables:
        raise click.UsageError(f"No game {only!r}: mandala, flowers or takenoko.")
    rows = random_play_rows(games, tables) + resample_rows(resample_games, samples, tables)
    if only in (None, "mandala") and simulations > 0:
        rows += ismcts_rows(simulations, moves)
    for row in rows:
        click.echo(json.dumps(row) if as_json else _line(row))


def _line(row: dict[str, Any]) -> str:
    verdict = "met" if row["met"] else "NOT met"
    table = f"{row['game']:<9}{row['seats']} seats"
    if row["figure"] == "random play":
        return (
            f"random play  {table}: engine {row['engine_decisions_per_second']:>8,} decisions "
            f"a CPU second, pyspiel {row['pyspiel_decisions_per_second']:>7,}: "
            f"{row['ratio']:.2f}x slower (target <= {row['target']:g}x: {verdict}); "
            f"the chance engine drawing in place {row['chance_engine_decisions_per_second']:,} "
            f"({row['chance_engine_ratio']:.2f}x), pyspiel's floor "
            f"{row['floor_decisions_per_second']:,}: best reachable "
            f"{row['best_reachable_ratio']:.2f}x"
        )
    if row["figure"] == "resample":
        points = " ".join(f"{ms:.3f}" for ms in row["milliseconds_by_point"])
        return (
            f"resample     {table}: CPU ms at each fifth of a game {points}; worst "
            f"{row['worst_milliseconds']:.3f} ms (target <= {row['target']:g} ms: {verdict})"
        )
    scaled = (
        "" if row["simulations"] == ISMCTS_SIMULATIONS else f" (scaled from {row['simulations']})"
    )
    return (
        f"ismcts       {table}: {row['seconds_per_move_at_1000']:.2f} CPU s a move at 1,000 "
        f"simulations{scaled}, {row['moves']} moves, {row['rollouts']} "
        f"(target <= {row['target']:g} s: {verdict})"
    )
