"""Test-wide set-up: the tests' own N-seat game (tests/games/highcard.py) is registered."""

import os

import tests.games.highcard  # noqa: F401  (registers "highcard" in this process)

# Arenas started as subprocesses by the tests register it too.
os.environ.setdefault("ARENA_GAME_MODULES", "tests.games.highcard")
