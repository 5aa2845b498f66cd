#!/usr/bin/env python3
"""A scripted fake bot for tournament tests: deterministic play, optional delay or crash.

Options: --name (the hello name), --strategy first|last|seeded (seeded: random, seeded by the
game id and seat, so every game is reproducible whichever process plays it), --delay-ms
(sleep before each reply), --crash-at N (exit on the N-th decision of every game),
--marker TEXT (ignored; lets a test find this process in the process table).
"""

import argparse
import json
import random
import sys
import time


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--name", default="fake")
    parser.add_argument("--strategy", choices=["first", "last", "seeded"], default="seeded")
    parser.add_argument("--delay-ms", type=float, default=0.0)
    parser.add_argument("--crash-at", type=int, default=0)
    parser.add_argument("--marker", default="")
    args = parser.parse_args()
    rng = random.Random(0)
    decisions = 0
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            send({"type": "hello", "name": args.name})
        elif kind == "new_game":
            rng = random.Random(f"{message['game_id']}:{message['seat']}")
            decisions = 0
        elif kind == "decide":
            decisions += 1
            if args.crash_at and decisions >= args.crash_at:
                sys.exit(3)
            if args.delay_ms:
                time.sleep(args.delay_ms / 1000)
            count = len(message["legal_moves"])
            if args.strategy == "first":
                choice = 0
            elif args.strategy == "last":
                choice = count - 1
            else:
                choice = rng.randrange(count)
            send({"type": "move", "move": choice, "id": message["id"]})
        elif kind == "goodbye":
            return


if __name__ == "__main__":
    main()
