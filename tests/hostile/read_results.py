"""Lists the folder its results go to (ARENA_BOT_RESULTS), where its opponent's logs are."""

import os
import sys

from _common import harmed, play


def hook(event, count):
    if event != "hello":
        return
    path = os.environ.get("ARENA_BOT_RESULTS", "")
    try:
        found = os.listdir(path)
    except OSError as error:
        sys.stderr.write(f"DENIED {path}: {error}\n")
        return
    if found:
        harmed(f"read the results folder {path}: {found}")
    sys.stderr.write(f"EMPTY {path}\n")


play(hook)
