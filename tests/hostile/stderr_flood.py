"""Floods stderr (20 MB) at the start, then plays legally."""

import sys

from _common import play

LINE = "spam " * 200 + "\n"


def hook(event, count):
    if event == "hello":
        for _ in range(20 * (1 << 20) // len(LINE)):
            sys.stderr.write(LINE)
        sys.stderr.flush()


play(hook)
