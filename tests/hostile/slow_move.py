"""Answers its first move, but 600 ms late (the tests' limit is 400 ms)."""

import time

from _common import play


def hook(event, count):
    if event == "decide" and count == 1:
        time.sleep(0.6)


play(hook)
