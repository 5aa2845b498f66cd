"""Exits (code 3) at its third move."""

import sys

from _common import play


def hook(event, count):
    if event == "decide" and count == 3:
        sys.exit(3)


play(hook)
