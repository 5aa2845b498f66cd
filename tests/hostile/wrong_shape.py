"""Prints valid JSON of the wrong shape as its first move."""

import time

from _common import play, send


def hook(event, count):
    if event == "decide":
        send({"type": "move", "moves": [0], "choice": "first"})
        time.sleep(60)


play(hook)
