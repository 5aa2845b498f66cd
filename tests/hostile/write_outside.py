"""Tries to write outside its folder: next to the bots folder, into another bot, into /tmp.

Inside bubblewrap a write may seem to succeed (into the sandbox's private /tmp); the test
checks that nothing reached the machine.
"""

import sys

from _common import play

TARGETS = ("../../escaped.txt", "../random/bot.py", "/tmp/arena-hostile-escaped.txt")


def hook(event, count):
    if event != "hello":
        return
    for target in TARGETS:
        try:
            with open(target, "a") as handle:
                handle.write("escaped\n")
            sys.stderr.write(f"WROTE {target}\n")
        except OSError as error:
            sys.stderr.write(f"DENIED {target}: {error}\n")


play(hook)
