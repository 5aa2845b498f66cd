"""Prints binary garbage as its first move."""

import sys
import time

from _common import play


def hook(event, count):
    if event == "decide":
        sys.stdout.buffer.write(b"\x00\xff\xfe\x80garbage\x9c\x00\n")
        sys.stdout.flush()
        time.sleep(60)


play(hook)
