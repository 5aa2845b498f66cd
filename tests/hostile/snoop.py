"""Tries, at every hello, to read each path of SNOOP_PATHS (a JSON list, from its bot.toml
[env]) and says on stderr what it got, one line each, then plays legally:

    SNOOP READ <path> <its first bytes>      a file it could read
    SNOOP LISTED <path> <its entries>        a folder it could list (JSON)
    SNOOP DENIED <path> <why>                neither
"""

import json
import os
import sys

from _common import play


def snoop(event, count):
    if event != "hello":
        return
    for path in json.loads(os.environ.get("SNOOP_PATHS", "[]")):
        try:
            if os.path.isdir(path):
                got = "LISTED", json.dumps(sorted(os.listdir(path)))
            else:
                with open(path, "rb") as handle:
                    got = "READ", repr(handle.read(64))
        except OSError as error:
            got = "DENIED", f"{type(error).__name__}: {error.strerror}"
        sys.stderr.write(f"SNOOP {got[0]} {path} {got[1]}\n")
    sys.stderr.flush()


play(snoop, name="snoop")
