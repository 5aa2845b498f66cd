"""Tries to read another bot's folder (its sibling `random`)."""

from _common import harmed, play


def hook(event, count):
    if event != "hello":
        return
    try:
        with open("../random/bot.py") as handle:
            handle.read(100)
    except OSError:
        return
    harmed("read ../random/bot.py")


play(hook)
