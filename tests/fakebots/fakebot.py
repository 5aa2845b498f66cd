#!/usr/bin/env python3
"""A scripted fake bot: plays legal move 0, or misbehaves in one way chosen by a flag.

    fakebot.py [--after N] [--FAULT]   the fault happens at the N-th decide (default 1)

Faults: --hang --slow MS --crash --garbage --wrong-shape --illegal --oversized
--no-newline --close-stdout --fail-start --no-hello --chatty --ignore-goodbye.
Other flags: --move-object (answer with the move itself), --spawn-child SECONDS (start
`sleep SECONDS`, a child that must not outlive the bot), --stderr-spam BYTES, --name NAME,
--random SEED (play uniformly random legal moves), --think-aloud (a stderr line per decide),
--echo-requests (each decide line, as received, to stderr), --pace FILE (answer the game's
N-th request only once FILE, in the bot's folder, holds a number of at least N - 1: a bot as
slow as a test that watches each move needs; at most the request's time_ms).
"""

import argparse
import json
import os
import random
import subprocess
import sys
import time


def send(text):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--after", type=int, default=1)
    parser.add_argument("--slow", type=int, default=0)
    parser.add_argument("--name", default="fakebot")
    parser.add_argument("--spawn-child", default=None)
    parser.add_argument("--stderr-spam", type=int, default=0)
    parser.add_argument("--random", type=int, default=None, help="play random moves (a seed)")
    parser.add_argument("--pace", default=None, help="a file: wait for it (see above)")
    for flag in [
        "hang",
        "crash",
        "garbage",
        "wrong-shape",
        "illegal",
        "oversized",
        "no-newline",
        "close-stdout",
        "fail-start",
        "no-hello",
        "chatty",
        "ignore-goodbye",
        "move-object",
        "think-aloud",
        "echo-requests",
    ]:
        parser.add_argument(f"--{flag}", action="store_true")
    args = parser.parse_args()

    if args.fail_start:
        print("fakebot: cannot load my model file weights.bin", file=sys.stderr)
        sys.exit(2)
    if args.spawn_child:
        subprocess.Popen(["sleep", args.spawn_child])  # must be gone after teardown
    if args.stderr_spam:
        sys.stderr.write("x" * args.stderr_spam + "\n")
        sys.stderr.flush()

    decides = 0
    rng = None if args.random is None else random.Random(args.random)
    for line in sys.stdin:
        message = json.loads(line)
        if args.echo_requests and message.get("type") == "decide":
            sys.stderr.write(line)
            sys.stderr.flush()
        kind = message.get("type")
        if kind == "hello":
            if args.no_hello:
                continue
            send(json.dumps({"type": "hello", "name": args.name, "version": "0.1"}))
        elif kind == "decide":
            decides += 1
            if decides >= args.after and fault(args, message):
                continue
            if args.slow:
                time.sleep(args.slow / 1000)
            if args.pace:
                wait_for_pace(args.pace, message["request"] - 1, message["time_ms"])
            if args.think_aloud:
                print(f"thinking about request {message['request']}", file=sys.stderr, flush=True)
            index = 0 if rng is None else rng.randrange(len(message["legal_moves"]))
            move = message["legal_moves"][index] if args.move_object else index
            reply = {
                "type": "move",
                "move": move,
                "id": message["id"],
                "comment": "first legal move",
            }
            send(json.dumps(reply))
        elif kind == "goodbye":
            if args.ignore_goodbye:
                time.sleep(60)
            return
        elif kind not in ("new_game", "game_over") and args.chatty:
            send(json.dumps({"error": f"unknown message {kind}"}))


def wait_for_pace(path, moves, time_ms):
    """Until the file at `path` holds a whole number of at least `moves`, or `time_ms`."""
    deadline = time.monotonic() + time_ms / 1000
    while time.monotonic() < deadline:
        try:
            with open(path) as file:
                if int(file.read() or -1) >= moves:
                    return
        except (OSError, ValueError):
            pass
        time.sleep(0.01)


def fault(args, message):
    """Misbehave as the flags say; True when the normal reply must not be sent."""
    if args.hang:
        time.sleep(60)
        return True
    if args.crash:
        print("fakebot: segmentation fault (pretend)", file=sys.stderr)
        sys.exit(3)
    if args.garbage:
        send("this is not json")
        return True
    if args.wrong_shape:
        send(json.dumps({"type": "move", "choice": 0}))
        return True
    if args.illegal:
        if message["decision"] == "turn":
            send(json.dumps({"move": {"action": "claim", "colour": "red"}, "id": message["id"]}))
        else:
            move = {"action": "discard_redraw", "colour": "red", "count": 1}
            send(json.dumps({"move": move, "id": message["id"]}))
        return True
    if args.oversized:
        sys.stdout.write('{"move": 0, "comment": "' + "x" * (2 << 20) + '"}\n')
        sys.stdout.flush()
        return True
    if args.no_newline:
        sys.stdout.write('{"move": 0}')
        sys.stdout.flush()
        time.sleep(60)
        return True
    if args.close_stdout:
        sys.stdout.close()
        os.close(1)
        time.sleep(60)
        return True
    return False


if __name__ == "__main__":
    main()
