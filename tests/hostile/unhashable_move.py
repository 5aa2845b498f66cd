"""Sends a move whose fields are JSON objects and arrays where names belong (issue 9)."""

import time

from _common import CURRENT, play, send


def hook(event, count):
    if event == "decide":
        send({"move": {"action": {"x": 1}, "colour": ["red"]}, "id": CURRENT["id"]})
        time.sleep(60)


play(hook)
