"""Answers hello, then writes a move every 20 ms and never reads a request (issue 20.5).

Its replies cannot echo the ids of requests it never read, so its first reply loses.
"""

import json
import sys
import time

sys.stdin.readline()  # hello
sys.stdout.write(json.dumps({"type": "hello", "name": "never_reads"}) + "\n")
sys.stdout.flush()
for _ in range(3000):
    sys.stdout.write(json.dumps({"move": 0}) + "\n")
    sys.stdout.flush()
    time.sleep(0.02)
