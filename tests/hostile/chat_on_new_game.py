"""Answers new_game (which needs no answer) with a line, then plays correctly."""

import json
import sys

from _common import send


def main():
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            send({"type": "hello", "name": "chat_on_new_game"})
        elif kind == "new_game":
            send({"type": "ready"})
        elif kind == "decide":
            send({"move": 0, "id": message["id"]})
        elif kind == "goodbye":
            return


main()
