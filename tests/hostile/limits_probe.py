"""Reports its resource limits and cgroups on stderr, then plays legally."""

import json
import resource
import sys

from _common import play

NAMES = ("RLIMIT_DATA", "RLIMIT_CPU", "RLIMIT_FSIZE", "RLIMIT_NOFILE")


def hook(event, count):
    if event == "hello":
        limits = {name: resource.getrlimit(getattr(resource, name))[0] for name in NAMES}
        sys.stderr.write("LIMITS " + json.dumps(limits) + "\n")
        sys.stderr.flush()


play(hook)
