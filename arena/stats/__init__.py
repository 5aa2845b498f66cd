"""Match statistics for two bots: Elo with error bars, LOS, pentanomial pairs and the SPRT.

The formulas follow fastchess (github.com/Disservin/fastchess, app/src/matchmaking/elo and
sprt, commit 74deac2), whose test vectors are the golden tests in tests/test_stats.py.
"""
