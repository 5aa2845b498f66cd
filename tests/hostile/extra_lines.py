"""Prints extra lines after its reply: output nobody asked for loses the game."""

import json
import sys

from _common import send


def hook(event, message):
    if event == "decide":
        reply = json.dumps({"type": "move", "move": 0, "id": message["id"]})
        # One write: the reply, then chatter that nobody asked for.
        sys.stdout.write(reply + "\n" + "thinking... done\n" + reply + "\n")
        sys.stdout.flush()


def main():
    # Answers decides only through the hook (it writes the reply and the chatter).
    for line in sys.stdin:
        message = json.loads(line)
        if message.get("type") == "hello":
            send({"type": "hello", "name": "extra_lines"})
        elif message.get("type") == "decide":
            hook("decide", message)
        elif message.get("type") == "goodbye":
            return


main()
