"""Closes stdout on its first move and keeps running."""

import os
import time

from _common import play


def hook(event, count):
    if event == "decide":
        os.close(1)
        time.sleep(60)


play(hook)
