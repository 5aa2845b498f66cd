"""Writes an ever-growing file (in its private /tmp) on its first move."""

import os

from _common import play


def hook(event, count):
    if event == "decide":
        with open("/tmp/big.bin" if os.path.isdir("/tmp") else "big.bin", "wb") as handle:
            block = b"\0" * (1 << 20)
            while True:
                handle.write(block)


play(hook)
