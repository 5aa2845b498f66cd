"""Prints a 100 MB line as its first move."""

import sys

from _common import play

CHUNK = "x" * (1 << 20)


def hook(event, count):
    if event == "decide":
        sys.stdout.write('{"move": "')
        for _ in range(100):
            sys.stdout.write(CHUNK)
        sys.stdout.write('"}\n')
        sys.stdout.flush()
        sys.exit(0)


play(hook)
