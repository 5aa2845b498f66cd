"""Helpers for the league tests: a bundled bot under another name, archived for submitting;
a league served on the loopback (the `site` fixture) with three authors; `arena serve` as a
process of its own on any free port."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from arena.league import web
from arena.league.league import League
from arena.league.uploads import archive_folder
from arena.players.limits import Limits
from tests.waiting import until

BOTS = Path(__file__).resolve().parents[1] / "bots"


def bot_archive(tmp_path: Path, source: str, name: str) -> Path:
    """A copy of bundled bot `source` named `name` in tmp_path/src/, archived as `arena
    submit` does; the archive's path."""
    folder = tmp_path / "src" / name
    shutil.copytree(BOTS / source, folder, ignore=shutil.ignore_patterns("__pycache__"))
    lines = (folder / "bot.toml").read_text().splitlines()
    (folder / "bot.toml").write_text(
        "\n".join(f'name = "{name}"' if line.startswith("name") else line for line in lines)
    )
    return archive_folder(folder, tmp_path)


class Site:
    def __init__(self, league: League, port: int) -> None:
        self.league, self.url = league, f"http://127.0.0.1:{port}"
        self.admin = league.store.add_author("admin", admin=True)
        self.ada = league.store.add_author("ada")
        self.bob = league.store.add_author("bob")

    def call(
        self, method: str, path: str, token: str | None = None, body: bytes | None = None
    ) -> tuple[int, Any]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        request = urllib.request.Request(self.url + path, body, headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=60) as answer:
                raw, status = answer.read(), answer.status
        except urllib.error.HTTPError as error:
            raw, status = error.read(), error.code
        kind = "json" if raw[:1] in (b"[", b"{") else "text"
        return status, json.loads(raw) if kind == "json" else raw.decode()

    def wait_status(self, label: str, wanted: str) -> None:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            status, bot = self.call("GET", f"/api/bots/{label}")
            if status == 200 and bot["status"] == wanted:
                return
            time.sleep(0.2)
        raise AssertionError(f"{label} never became {wanted}: {bot}")


@contextmanager
def served(tmp_path: Path) -> Iterator[Site]:
    """A league (inline games) served on a free loopback port, and its Site."""
    league = League(tmp_path / "league", workers=0, limits=Limits(move_ms=5000, startup_ms=20_000))
    try:
        with web.serving(league) as url:
            yield Site(league, int(url.rsplit(":", 1)[1]))
    finally:
        league.close()


LISTENING = re.compile(r"^League of .* at http://127\.0\.0\.1:(\d+)/", re.MULTILINE)
"""`arena serve`'s first line once it listens, with its port."""


def serve_process(
    command: Sequence[str], output: Path, env: Mapping[str, str], seconds: float = 120
) -> tuple[subprocess.Popen[bytes], int]:
    """`command` (`arena serve ...`) started with `--port 0`, in a session of its own, its
    output (stdout and stderr) written to the file `output`; the process and the port it
    listens on, once it printed it. Port 0, not a port found free and given later: another
    test beside this one may take that port meanwhile. Fails the test with the output if the
    server ends first or says nothing within `seconds`."""
    with output.open("wb") as sink:
        server = subprocess.Popen(
            [*command, "--port", "0"], stdout=sink, stderr=subprocess.STDOUT,
            start_new_session=True, env=dict(env),
        )  # fmt: skip

    def port() -> int | None:
        said = LISTENING.search(output.read_text(errors="replace"))
        if said is None and server.poll() is not None:
            raise AssertionError(f"arena serve ended before it listened: {output.read_text()}")
        return None if said is None else int(said.group(1))

    try:
        return server, until(port, seconds, what="arena serve's address", every=0.1)
    except BaseException:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGKILL)
        server.wait(timeout=30)
        raise
