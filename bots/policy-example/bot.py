#!/usr/bin/env python3
"""A trained policy as an arena bot: the example of README's "Use the games elsewhere".

A policy trained on the PettingZoo environments (arena.ecosystem.pettingzoo_env) sees the
seat's view as numbers (`tensors.encode`) and picks an action code among those its mask
allows. This bot does the same over the arena's JSON lines: at each `decide` it encodes
the `view`, scores every action code with the policy, keeps the legal ones (the game's own
codes of the position, rebuilt from the view by its determinizer), and answers with the
index of the best move in `legal_moves`.

The policy here is linear, `scores = weights @ numbers + bias`, loaded from
`policy-<game>-<seats>.npz` (arrays `weights` and `bias`) next to this file when there is
one; without it every score is 0 and the bot plays the first legal code. Replace `Policy`
with your network (PyTorch, JAX...) and keep the rest.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import numpy as np

from arena.ecosystem import tensors
from arena.ecosystem.actions import NUM_ACTIONS
from arena.game_sources import get_game


class Policy:
    """Scores for every action code of `game`, from the view's numbers."""

    def __init__(self, game: str, seats: int) -> None:
        width, actions = tensors.size(game, seats), NUM_ACTIONS[game]
        saved = Path(__file__).with_name(f"policy-{game}-{seats}.npz")
        if saved.exists():
            arrays = np.load(saved)
            self.weights, self.bias = arrays["weights"], arrays["bias"]
        else:
            self.weights, self.bias = np.zeros((actions, width)), np.zeros(actions)

    def scores(self, numbers: np.ndarray) -> np.ndarray:
        return np.asarray(self.weights @ numbers + self.bias)


def choose(message: dict[str, Any], game: str, config: dict[str, Any], policy: Policy) -> int:
    """The index in `legal_moves` of the legal move the policy scores highest."""
    view, moves = message["view"], message["legal_moves"]
    if len(moves) <= 1:
        return 0
    determinizer = get_game(game).determinizer()
    assert determinizer is not None
    position = determinizer.determinize(view, random.Random(0), config)  # same legal moves
    legal = position.legal_actions()
    scores = policy.scores(np.asarray(tensors.encode(game, view), dtype=np.float64))
    best = max(legal, key=lambda code: scores[code])
    move = position.action_to_move(best)
    return moves.index(move) if move in moves else 0


def send(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def main() -> None:
    game, config, policy = "mandala", {}, None
    for line in iter(sys.stdin.readline, ""):
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if not isinstance(message, dict):
            continue
        kind = message.get("type")
        if kind == "hello":
            send({"type": "hello", "name": "policy-example", "version": "1.0"})
        elif kind == "new_game":
            game, config = str(message.get("game")), dict(message.get("config") or {})
            policy = Policy(game, int(message.get("players") or 2))  # the table size
        elif kind == "decide":
            try:
                assert policy is not None
                reply = choose(message, game, config, policy)
            except (AssertionError, KeyError, ValueError, TypeError, IndexError) as error:
                print(f"policy-example: move 0 after {error!r}", file=sys.stderr)
                reply = 0
            send({"type": "move", "move": reply, "id": message["id"]})
        elif kind == "goodbye":
            return


if __name__ == "__main__":
    main()
