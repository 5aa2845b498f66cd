"""Computes for about 0.4 s of CPU on its first move, then answers."""

import time

from _common import play


def hook(event, count):
    if event == "decide" and count == 1:
        end = time.process_time() + 0.4
        while time.process_time() < end:
            pass


play(hook)
