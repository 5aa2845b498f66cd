"""Test-wide set-up: the tests' own N-seat game (tests/games/highcard.py) is registered;
the league's database fixtures (SQLite, and PostgreSQL when it is installed); toolchains found
afresh (`fresh_lookup`); the tests that share a module's fixture kept on one pytest-xdist
worker."""

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

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


WIDE_FIXTURE = re.compile(r"""scope=["'](class|module|package)["']""")
"""A fixture made once for many tests of its module (a browser, a league that played)."""


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """`make test`'s `--dist loadgroup`: the tests go one by one to whichever worker is free,
    except that a module's tests form one group, run on one worker, when the module makes a
    fixture wider than a test (so that it is made once), or are marked `xdist_group`.
    (pytest-xdist's own loadgroup no longer sees that mark under pytest 9.)"""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadGroupScheduling

    root, wide = config.rootpath, {}

    def grouped(file: str) -> bool:
        if file not in wide:
            path = root / file
            wide[file] = path.is_file() and bool(WIDE_FIXTURE.search(path.read_text()))
        return wide[file]

    class Grouped(LoadGroupScheduling):  # type: ignore[misc]
        def _split_scope(self, nodeid: str) -> str:
            if "@" in nodeid:
                return str(super()._split_scope(nodeid))
            file = nodeid.split("::", 1)[0]
            return file if grouped(file) else nodeid

    return Grouped(config, log)
