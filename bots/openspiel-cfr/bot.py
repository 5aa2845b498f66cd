#!/usr/bin/env python3
"""The openspiel-cfr bot: DeepMind OpenSpiel's CFR solves the game, then the bot plays it.

For `openspiel:NAME` games small enough to solve while the bot starts (its bot.toml lists
them: Kuhn and Leduc poker, Goofspiel with 4 cards), it runs a fixed number of iterations
of counterfactual regret minimisation (`pyspiel.CFRSolver`, OpenSpiel's C++) when `hello`
names the game (`ITERATIONS`: as many as fit the arena's 10 s start-up on a busy machine;
`--iterations N` for every game), then answers each decision from the average policy: the
probabilities it gives the legal actions at the view's `information_state` (the same string
OpenSpiel keys its policies by), drawn with a generator seeded by the game's `seed`. The
solving is bounded by iterations, never by time, so the policy, and with the seed every
move, is the same on an idle machine and a loaded one: a tournament replays. The average
policy of CFR nears a Nash equilibrium as the iterations grow (Kuhn poker: about 0.001
from it after 200); against `random` it wins chips steadily.

It needs the ecosystem extra (`pip install -e '.[ecosystem]'`, which `make install` does)
and the arena's interpreter (`python3` in bot.toml).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Any

import open_spiel.python.games  # noqa: F401  (registers OpenSpiel's Python games)
import pyspiel

PREFIX = "openspiel:"


ITERATIONS = {"kuhn_poker": 200, "python_kuhn_poker": 200, "leduc_poker": 30}
"""CFR iterations by game (the name before its parameters); others `DEFAULT_ITERATIONS`.
Measured on a loaded 2-core machine: Kuhn 0.1 ms an iteration, Leduc 90 ms, Goofspiel(4)
300 ms."""
DEFAULT_ITERATIONS = 8


def iterations_for(game: str) -> int:
    """The iterations the bot solves `game` (openspiel:NAME(...)) with."""
    return ITERATIONS.get(game.removeprefix(PREFIX).split("(")[0], DEFAULT_ITERATIONS)


class Solved:
    """The average policy after `iterations` of CFR on the arena game `openspiel:NAME`."""

    def __init__(self, game: str, iterations: int) -> None:
        spiel = pyspiel.load_game(game.removeprefix(PREFIX))
        if spiel.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS:
            spiel = pyspiel.convert_to_turn_based(spiel)  # as the arena plays it
        self.solver = pyspiel.CFRSolver(spiel)
        for _ in range(iterations):
            self.solver.evaluate_and_update_policy()
        self.policy = self.solver.average_policy()  # a view of the solver's tables: keep both


def choose(solved: Solved, message: dict[str, Any], rng: random.Random) -> int:
    """The index of the legal move drawn from the policy at the view's information state."""
    moves = message.get("legal_moves") or []
    if len(moves) <= 1:
        return 0
    chances = dict(solved.policy.get_state_policy(message["view"]["information_state"]))
    weights = [chances.get(move["action"], 0.0) for move in moves]
    if sum(weights) <= 0:  # a state the solver never reached: any legal move
        return rng.randrange(len(moves))
    return rng.choices(range(len(moves)), weights)[0]


def send(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--iterations", type=int, default=None, help="CFR iterations (any game)")
    args = parser.parse_args()
    solved: Solved | None = None
    rng = random.Random(0)
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            game = str(message["game"])
            solved = Solved(game, args.iterations or iterations_for(game))
            send({"type": "hello", "name": "openspiel-cfr", "version": "1.0"})
        elif kind == "new_game":
            rng = random.Random(message.get("seed"))  # this game's own seed: reproducible
        elif kind == "decide" and solved is not None:
            send({"type": "move", "move": choose(solved, message, rng), "id": message["id"]})
        elif kind == "goodbye":
            return


if __name__ == "__main__":
    main()
