"""Test-wide set-up: the tests' own N-seat game (tests/games/highcard.py) is registered;
the league's database fixtures (SQLite, and PostgreSQL when it is installed); toolchains found
afresh (`fresh_lookup`)."""

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

import tests.games.highcard  # noqa: F401  (registers "highcard" in this process)
from tests.postgres_support import fresh_database, postgres_server

# Arenas started as subprocesses by the tests register it too.
os.environ.setdefault("ARENA_GAME_MODULES", "tests.games.highcard")


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A PostgreSQL server of the tests' own for the session (skips when not installed)."""
    with postgres_server() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def league_db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a league's store goes, once per database kind: a SQLite file, or an empty
    database on the tests' PostgreSQL server."""
    if request.param == "sqlite":
        return str(tmp_path / "league.sqlite")
    return fresh_database(request.getfixturevalue("postgres_url"))


@pytest.fixture
def fresh_lookup() -> Iterator[None]:
    """Toolchains found again for the test (its own PATH and HOME), and again after it, on
    the real machine (arena/players/toolchains.py caches them per process)."""
    from arena.players.toolchains import _homes, find_toolchain

    find_toolchain.cache_clear()
    _homes.cache_clear()
    yield
    find_toolchain.cache_clear()
    _homes.cache_clear()
