#!/usr/bin/env python3
"""The openspiel-ismcts bot: OpenSpiel's own ISMCTS plays our games, to compare with ours.

At each decision it deals what this seat cannot see with the game's determinizer, wraps the
position as an OpenSpiel state (`arena.ecosystem.openspiel_games`), and asks OpenSpiel's
Python `ISMCTSBot` (DeepMind's code, unchanged) for a move: UCT with c = 2, random rollouts
to the end of the game, final move by visit count. Its `resample_from_infostate` is our
determinizer, so the two ISMCTS bots differ in their search and their rollouts, not in
what they may see.

The rollouts are `arena.ecosystem.rollouts.RandomRollouts`: OpenSpiel's
`RandomRolloutEvaluator` drawn by Python's `random` on the engine's position itself
(OpenSpiel's own calls `numpy.random.choice` at every step: about a quarter as many
simulations in a budget, `arena bench openspiel`). Rollouts and resamples draw from the
game's seed (`seeded_resampler`: OpenSpiel's search seeds each resample from the system),
so with `--simulations N` a game replays from its seed. The number of simulations
otherwise follows the time budget: each decision runs as many as the last decisions' pace
fits in `--ms` (always under half the referee's `time_ms`), and at most twice the last
decision's count.

It needs the ecosystem extra (`pip install -e '.[ecosystem]'`, which `make install` does)
and the arena's interpreter (`python3` in bot.toml).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts

from arena.ecosystem.openspiel_games import ArenaState
from arena.ecosystem.rollouts import RandomRollouts, seeded_resampler
from arena.errors import ArenaError
from arena.game_sources import get_game

UCT_C = 2.0


class Searcher:
    """OpenSpiel's ISMCTSBot for one game and table, paced to a time budget."""

    def __init__(self, game: str, players: int, config: dict[str, Any], seed: int) -> None:
        self.arena_game = get_game(game)
        self.config = config
        self.spiel = pyspiel.load_game(f"arena_{game}", {"players": players, **config})
        self.rng = np.random.RandomState(seed % (1 << 32))
        self.evaluator = RandomRollouts(n_rollouts=1, seed=seed)
        self.bot = ismcts.ISMCTSBot(
            self.spiel, self.evaluator, UCT_C, max_simulations=1, random_state=self.rng
        )
        self.bot.set_resampler(seeded_resampler(seed))
        self.seconds_per_simulation = 0.05  # a first guess, on the slow side; then measured
        self.last_count = 2

    def move(self, view: dict[str, Any], budget_s: float, simulations: int) -> dict[str, Any]:
        determinizer = self.arena_game.determinizer()
        assert determinizer is not None
        seed = int(self.rng.randint(1 << 31))
        position = determinizer.determinize(view, random.Random(seed), self.config)
        state = ArenaState(self.spiel, position)
        # two at least (the first only expands the root); at most twice the last count: a
        # simulation's cost changes with the game's stage, and a count grown in one step from
        # a fast stretch overshot the budget 13x on a loaded machine (a loss on time)
        paced = min(int(budget_s / self.seconds_per_simulation), 2 * self.last_count)
        count = simulations or max(2, paced)
        self.last_count = count
        self.bot._max_simulations = count
        start = time.perf_counter()
        action = int(self.bot.step(state))
        spent = time.perf_counter() - start
        if not simulations:  # the pace of the last decisions, for the next one's count
            self.seconds_per_simulation = 0.7 * self.seconds_per_simulation + 0.3 * spent / count
        return dict(position.action_to_move(action))


def send(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ms", type=float, default=80.0, help="budget per decision (ms)")
    parser.add_argument("--simulations", type=int, default=0, help="fixed count (0: by time)")
    args = parser.parse_args()
    searcher: Searcher | None = None
    for line in iter(sys.stdin.readline, ""):
        try:
            message = json.loads(line)
        except ValueError:
            print(
                f"openspiel-ismcts: ignoring a line that is not JSON: {line[:80]!r}",
                file=sys.stderr,
            )
            continue
        if not isinstance(message, dict):
            continue
        kind = message.get("type")
        if kind == "hello":
            send({"type": "hello", "name": "openspiel-ismcts", "version": "1.0"})
        elif kind == "new_game":
            searcher = Searcher(
                str(message.get("game")),
                int(message.get("players") or 2),  # the table size
                dict(message.get("config") or {}),
                int(message.get("seed") or 0),
            )
        elif kind == "decide":
            moves = message.get("legal_moves") or []
            reply: Any = 0
            if searcher is not None and len(moves) > 1:
                allowed = float(message.get("time_ms") or 1000)
                budget = max(1.0, min(args.ms, allowed / 2 - 20)) / 1000
                try:
                    move = searcher.move(message["view"], budget, args.simulations)
                    reply = moves.index(move) if move in moves else move
                except (
                    ArenaError,
                    AssertionError,
                    KeyError,
                    ValueError,
                    TypeError,
                    IndexError,
                ) as error:
                    print(f"openspiel-ismcts: move 0 after {error!r}", file=sys.stderr)
            send({"type": "move", "move": reply, "id": message["id"]})
        elif kind == "goodbye":
            return


if __name__ == "__main__":
    main()
