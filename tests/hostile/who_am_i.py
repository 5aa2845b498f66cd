"""Reports who it runs as, whether it can read root-only files, and its whole environment."""

import json
import os
import sys

from _common import play


def hook(event, count):
    if event != "hello":
        return
    sys.stderr.write(f"UID {os.getuid()}\n")
    sys.stderr.write(f"CPUS {sorted(os.sched_getaffinity(0))}\n")
    try:
        with open("/etc/shadow", "rb") as handle:
            handle.read(1)
        sys.stderr.write("SHADOW readable\n")
    except OSError as error:
        sys.stderr.write(f"SHADOW denied: {error}\n")
    try:
        with open("written-into-my-folder.txt", "w") as handle:
            handle.write("x")
        sys.stderr.write("FOLDER writable\n")
    except OSError as error:
        sys.stderr.write(f"FOLDER read-only: {error}\n")
    sys.stderr.write("ENV " + json.dumps(dict(os.environ)) + "\n")
    sys.stderr.flush()


play(hook)
