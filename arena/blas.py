"""numpy's linear algebra on one thread where the arena runs it beside other work.

The pair fit (results/pair_fit.py) solves with numpy, whose wheels bring OpenBLAS, which
starts a thread per core: beside a league's server those threads competed with its own
(1 s of CPU took 7 to 10 s of wall time at load 12 to 17), and even alone one thread was
faster at our sizes (`arena bench fit`, 1,000 bots: 1.1 s against 2.0 s). OpenBLAS reads
its setting once, as numpy loads: call `one_thread` before anything imports numpy. An
operator's own setting is kept.
"""

from __future__ import annotations

import os

SETTING = ("OPENBLAS_NUM_THREADS", "1")


def one_thread() -> None:
    """OpenBLAS on one thread from now on, unless numpy is loaded or the setting is set."""
    os.environ.setdefault(*SETTING)
