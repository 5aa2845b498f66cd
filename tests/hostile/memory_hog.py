"""Allocates memory without bound on its first move."""

from _common import play

hoard = []


def hook(event, count):
    if event == "decide":
        while True:
            hoard.append(bytearray(16 << 20))  # zero-filled: the pages are really touched


play(hook)
