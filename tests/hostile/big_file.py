"""Writes an ever-growing file in its own folder on its first move."""

from _common import play


def hook(event, count):
    if event == "decide":
        with open("big.bin", "wb") as handle:
            block = b"\0" * (1 << 20)
            while True:
                handle.write(block)


play(hook)
