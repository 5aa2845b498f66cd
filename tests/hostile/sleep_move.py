"""Sleeps on its first move."""

import time

from _common import play


def hook(event, count):
    if event == "decide":
        time.sleep(60)


play(hook)
