"""Forks without bound on its first move (every child sleeps, then leaves)."""

import os
import sys
import time

from _common import play


def hook(event, count):
    if event != "decide":
        return
    started, made, refused = time.monotonic(), 0, 0
    # Safety net for a machine without a pids limit: stop after 10 s (tests skip there anyway).
    while time.monotonic() - started < 10:
        try:
            pid = os.fork()
        except OSError:
            refused += 1
            if refused == 200:
                sys.stderr.write(f"FORK-REFUSED after {made} children\n")
                sys.stderr.flush()
            continue
        if pid == 0:
            time.sleep(30)
            os._exit(0)
        made += 1
    time.sleep(60)


play(hook)
