"""Spreads its memory over children: each under the per-process limit, together far over."""

import os
import time

from _common import play

CHILDREN = 4
EACH_MB = 120


def hook(event, count):
    if event != "decide" or count != 1:
        return
    for _ in range(CHILDREN):
        if os.fork() == 0:
            block = bytearray(EACH_MB << 20)
            for i in range(0, len(block), 4096):
                block[i] = 1  # touch every page, so it is really used
            time.sleep(60)
            os._exit(0)
    time.sleep(1.5)  # let the children fill up before the game goes on


play(hook)
