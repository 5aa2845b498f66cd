"""Never answers the handshake."""

import sys
import time

sys.stdin.readline()
time.sleep(60)
