"""Prints its move without a newline, then waits."""

import sys
import time

from _common import play


def hook(event, count):
    if event == "decide":
        sys.stdout.write('{"move": 0}')
        sys.stdout.flush()
        time.sleep(60)


play(hook)
