"""The benchmarks behind `arena bench` (arena/cli/bench.py), and their helpers.

They measure numpy's linear algebra as the league runs it: on one thread (arena/blas.py),
set here, before any benchmark's module loads numpy; `arena bench fit` and the league
bench's probe (league_probe.py) time the fit `arena serve` makes.
"""

from arena import blas

blas.one_thread()
