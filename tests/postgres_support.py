"""A PostgreSQL server of the tests' own, from Debian's `postgresql` package.

`postgres_server()` starts one instance for the session in a temporary folder (initdb with
trust authentication, listening on the loopback only, on a free port, fsync off), or skips
with the reason it cannot: the package or psycopg is missing. Run as root (as CI is), the
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
    port = _free_port()
    server = subprocess.Popen(
        _as_server_user(
            [
                postgres,
                "-D",
                str(data),
                "-p",
                str(port),
                "-k",
                str(folder),
                "-c",
                "listen_addresses=127.0.0.1",
                "-c",
                "fsync=off",
                "-c",
                "synchronous_commit=off",
                "-c",
                "full_page_writes=off",
            ]
        ),  # fmt: skip
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    url = f"postgresql://arena@127.0.0.1:{port}/postgres"
    try:
        _wait_ready(url, server)
        yield url
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        if server.stderr is not None:
            server.stderr.close()
        shutil.rmtree(folder, ignore_errors=True)


def _wait_ready(url: str, server: subprocess.Popen[bytes]) -> None:
    import psycopg

    deadline = time.monotonic() + START_TIMEOUT_S
    while True:
        if server.poll() is not None:
            error = server.stderr.read().decode(errors="replace") if server.stderr else ""
            pytest.fail(f"postgres stopped at start-up: {error[-2000:]}")
        try:
            psycopg.connect(url, connect_timeout=2).close()
            return
        except psycopg.OperationalError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def fresh_database(url: str) -> str:
    """A new, empty database on the server at `url`; its URL."""
    import psycopg

    name = f"league_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    return url.rsplit("/", 1)[0] + "/" + name
