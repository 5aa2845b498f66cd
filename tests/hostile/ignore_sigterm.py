"""Ignores SIGTERM, SIGINT and SIGHUP, and does not exit after goodbye."""

import signal
import time

from _common import play

for number in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
    signal.signal(number, signal.SIG_IGN)


def stay():
    while True:
        time.sleep(60)


play(on_goodbye=stay)
stay()
