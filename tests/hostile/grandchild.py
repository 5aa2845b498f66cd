"""Starts a grandchild in a new session that keeps the pipes open, then exits mid-game."""

import subprocess
import sys

from _common import play


def hook(event, count):
    if event == "hello":
        # Inherits stdin, stdout and stderr: the pipes stay open after this bot exits.
        subprocess.Popen(
            [sys.executable, "-c", "import time; time.sleep(120)"], start_new_session=True
        )
    if event == "decide" and count == 2:
        sys.exit(0)


play(hook)
