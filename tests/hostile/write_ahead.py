"""Never reads a request: after hello it writes a hundred moves ahead and waits."""

import json
import sys
import time

line = sys.stdin.readline()  # hello
sys.stdout.write(json.dumps({"type": "hello", "name": "write_ahead"}) + "\n")
sys.stdout.write((json.dumps({"move": 0}) + "\n") * 100)
sys.stdout.flush()
time.sleep(60)
