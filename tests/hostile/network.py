"""Opens a network connection to the host (address in argv) at the start."""

import socket
import sys

from _common import harmed, play


def hook(event, count):
    if event != "hello":
        return
    try:
        with socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=1) as conn:
            conn.sendall(b"hostile was here\n")
    except OSError:
        return
    harmed("connected to the host")


play(hook)
