"""A PostgreSQL server of the tests' own, from Debian's `postgresql` package.

`postgres_server()` starts one instance for the session in a temporary folder (initdb with
trust authentication, listening on the loopback only, on a free port (another if it was
taken meanwhile), fsync off), or skips with the reason it cannot: the package or psycopg is
missing. Run as root (as CI is), the
server runs as the package's `postgres` user, since PostgreSQL refuses to run as root.
`fresh_database(url)` makes an empty database on it per test.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

START_TIMEOUT_S = 60


def _bin(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    versions = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return versions[-1] if versions else None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _as_server_user(command: list[str]) -> list[str]:
    """Run `command` as `postgres` when we are root (initdb and postgres refuse root)."""
    if os.geteuid() != 0:
        return command
    return ["runuser", "-u", "postgres", "--", *command]


@contextlib.contextmanager
def postgres_server() -> Iterator[str]:
    """The URL of a running server of our own (a superuser `arena`, no password)."""
    pytest.importorskip("psycopg", reason="psycopg is not installed (pip install '.[postgresql]')")
    initdb, postgres = _bin("initdb"), _bin("postgres")
    if initdb is None or postgres is None:
        pytest.skip("PostgreSQL is not installed (Debian: apt-get install postgresql)")
    if os.geteuid() == 0:
        try:
            user = pwd.getpwnam("postgres")
        except KeyError:
            pytest.skip("running as root and there is no postgres user to run the server as")
    folder = Path(tempfile.mkdtemp(prefix="arena-pg-"))
    data = folder / "data"
    if os.geteuid() == 0:
        os.chown(folder, user.pw_uid, user.pw_gid)
    setup = subprocess.run(
        _as_server_user([initdb, "-D", str(data), "-U", "arena", "--auth=trust", "--no-sync"]),
        capture_output=True,
        text=True,
        timeout=START_TIMEOUT_S,
    )
    if setup.returncode != 0:
        shutil.rmtree(folder, ignore_errors=True)
        pytest.fail(f"initdb failed: {setup.stderr[-2000:]}")
    server, url = _start(postgres, data, folder)
    try:
        yield url
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        shutil.rmtree(folder, ignore_errors=True)


def _start(postgres: str, data: Path, folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    """The server on `data`, running, and its URL. Its port is found free first (PostgreSQL
    has no port 0); when another process took it before the server bound it (a test beside
    this one), the server is started again on another."""
    for _ in range(5):
        port = _free_port()
        log = folder / f"postgres-{port}.log"
        with log.open("wb") as sink:
            server = subprocess.Popen(
                _as_server_user(
                    [postgres, "-D", str(data), "-p", str(port), "-k", str(folder),
                     "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off",
                     "-c", "synchronous_commit=off", "-c", "full_page_writes=off"]
                ),
                stdout=subprocess.DEVNULL, stderr=sink,
            )  # fmt: skip
        url = f"postgresql://arena@127.0.0.1:{port}/postgres"
        if _wait_ready(url, server, data, log):
            return server, url
    pytest.fail("postgres found its port taken five times in a row")


def _wait_ready(url: str, server: subprocess.Popen[bytes], data: Path, log: Path) -> bool:
    """True once the server says it is ready in its lock file (so it is the one listening on
    the port) and takes a connection; False if it stopped because the port was taken."""
    import psycopg

    deadline = time.monotonic() + START_TIMEOUT_S
    while True:
        if server.poll() is not None:
            error = log.read_text(errors="replace")
            if "Address already in use" in error:
                return False
            pytest.fail(f"postgres stopped at start-up: {error[-2000:]}")
        if _says_ready(data / "postmaster.pid"):
            try:
                psycopg.connect(url, connect_timeout=2).close()
                return True
            except psycopg.OperationalError:
                pass
        if time.monotonic() > deadline:
            server.kill()
            server.wait()
            pytest.fail(f"postgres was not ready in {START_TIMEOUT_S} s: {log.read_text()[-2000:]}")
        time.sleep(0.1)


def _says_ready(lock_file: Path) -> bool:
    """The server's status line (the 8th of postmaster.pid) says it is ready."""
    try:
        lines = lock_file.read_text().splitlines()
    except OSError:
        return False
    return len(lines) >= 8 and lines[7].strip() == "ready"


def fresh_database(url: str) -> str:
    """A new, empty database on the server at `url`; its URL."""
    import psycopg

    name = f"league_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    return url.rsplit("/", 1)[0] + "/" + name
