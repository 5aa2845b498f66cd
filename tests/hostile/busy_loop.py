"""Busy-loops on its first move (the move clock stops it; RLIMIT_CPU if it is set)."""

from _common import play


def hook(event, count):
    if event == "decide":
        while True:
            pass


play(hook)
