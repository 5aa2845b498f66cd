"""Connects to a host unix socket (its path in ARENA_BOT_SOCKET), as to a database's."""

import os
import socket
import sys

from _common import harmed, play


def hook(event, count):
    if event != "hello":
        return
    path = os.environ.get("ARENA_BOT_SOCKET", "")
    try:
        client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        client.connect(path)
    except OSError as error:
        sys.stderr.write(f"DENIED {path}: {error}\n")
        return
    harmed(f"connected to the host's unix socket {path}")


play(hook)
