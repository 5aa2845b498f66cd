#!/usr/bin/env python3
"""The random bot: answers every decision with a uniformly random legal move, by index.

Standard library only, so it runs with any Python 3.8+ and shows the protocol in its
simplest form (see bots/README.md). Each game's choices are drawn from the `seed` of its
`new_game`, so a tournament replays the same games wherever it runs; `--seed N` seeds the
choices made before any `new_game` (or in a referee that sends no seed).
"""

import argparse
import json
import random
import sys


def send(message):
    """Write one JSON line and flush, so the referee sees it at once."""
    sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=None, help="seed of the random choices")
    args = parser.parse_args()
    rng = random.Random(args.seed)

    while True:
        line = sys.stdin.readline()
        if not line:  # EOF: the referee has gone away
            return
        line = line.strip()
        if not line:
            continue
        try:
            message = json.loads(line)
        except ValueError:
            print(f"random: ignoring a line that is not JSON: {line[:80]!r}", file=sys.stderr)
            continue
        if not isinstance(message, dict):
            continue
        kind = message.get("type")
        if kind == "hello":
            send({"type": "hello", "name": "random", "version": "1.0"})
        elif kind == "new_game" and isinstance(message.get("seed"), int):
            rng = random.Random(message["seed"])  # this game's own seed: reproducible games
        elif kind == "decide":
            moves = message.get("legal_moves") or []
            move = rng.randrange(len(moves)) if moves else 0
            send({"type": "move", "move": move, "id": message["id"]})  # echo the request's id
        elif kind == "goodbye":
            return
        # game_over and any unknown message type need no reply.


if __name__ == "__main__":
    main()
