"""What every hostile test bot shares: protocol v2 plumbing and a legal default move.

Each hostile bot is `bot.py` next to a copy of this file; `play(hook)` runs the protocol and
calls `hook(event, count)` at "hello" and at every "decide" (count = 1, 2, ...) before the
bot answers; the hook misbehaves in its own way.
"""

import json
import sys


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


CURRENT = {"id": None}
"""The id of the request being answered, for a hook that writes its own reply."""


def play(hook=None, name="hostile", on_goodbye=None):
    decides = 0
    for line in sys.stdin:
        message = json.loads(line)
        CURRENT["id"] = message.get("id")
        kind = message.get("type")
        if kind == "hello":
            if hook:
                hook("hello", 0)
            send({"type": "hello", "name": name})
        elif kind == "decide":
            decides += 1
            if hook:
                hook("decide", decides)
            send({"type": "move", "move": 0, "id": message["id"]})
        elif kind == "goodbye":
            if on_goodbye:
                on_goodbye()
            return


def harmed(what):
    """The bot managed something it must not: say so and lose loudly (exit code 42)."""
    sys.stderr.write(f"HARM-DONE {what}\n")
    sys.stderr.flush()
    sys.exit(42)
