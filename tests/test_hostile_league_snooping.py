"""A submitted bot sees only what it needs (issue 31, items 2 and 8).

A hostile bot read `league.sqlite` (author names, token hashes) and another bot's stderr log
during its conformance check, and published them. Here `tests/hostile/snoop.py` is submitted
to a real league served on the loopback, with a build that tries to copy the same files into
its own folder: its build, its check and its league games run, and none of them reads the
league's database, logs, records, uploads, another bot's folder, the checkout, or a
planted secret in a home or /srv folder open to others. A league under a folder only root
may enter (0700) still plays its bots. These run a real bubblewrap.
"""

from __future__ import annotations

import json
import os
import shutil
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from arena.league.league import League
from arena.league.uploads import archive_folder
from arena.players import sandbox
from arena.players.limits import Limits, SandboxLimits
from arena.players.sandbox.bubblewrap import SANDBOX_UID, SYSTEM_FOLDERS, shown_to_bots
from arena.players.sandbox.reach import BotsUnreachableError, closed_parent
from tests.league_support import Site, bot_archive, served

CHECKOUT = Path(__file__).resolve().parents[1]
HOSTILE = Path(__file__).parent / "hostile"
SECRET = f"SECRET-{uuid.uuid4().hex}"

STOLEN = ("stolen-db", "stolen-log", "stolen-other", "stolen-git", "stolen-secret")
"""The files the snoop's build writes in its own folder, each from a `cat` of a target."""


def _need_bwrap() -> None:
    if sandbox.isolation_mode("auto") != "bwrap":
        pytest.skip("bubblewrap is not available here: bots are not isolated from files")


@dataclass
class Snooped:
    site: Site
    league: Path
    targets: list[str]
    """Every path the snoop tried, at each hello."""
    own: Path
    """The snoop's folder in the league."""


def _planted(base: Path) -> Path:
    """A secret in a folder open to others (0755, the file 0644) under `base`."""
    folder = base / f"arena-snoop-{uuid.uuid4().hex[:8]}"
    folder.mkdir(mode=0o755)
    (folder / "secret.txt").write_text(SECRET + "\n")
    (folder / "secret.txt").chmod(0o644)
    return folder


def _snoop_archive(tmp_path: Path, targets: list[str], build: dict[str, str]) -> Path:
    folder = tmp_path / "src" / "snoop"
    folder.mkdir(parents=True)
    shutil.copy(HOSTILE / "snoop.py", folder / "bot.py")
    shutil.copy(HOSTILE / "_common.py", folder / "_common.py")
    script = "; ".join(f"cat {source} > {name} 2>/dev/null" for name, source in build.items())
    (folder / "bot.toml").write_text(
        'name = "snoop"\ncommand = ["python3", "bot.py"]\ngames = ["mandala"]\n'
        f"build = {json.dumps(['sh', '-c', script + '; true'])}\n"
        f"[env]\nSNOOP_PATHS = {json.dumps(json.dumps(targets))}\n"
    )
    return archive_folder(folder, tmp_path)


@pytest.fixture(scope="module")
def snooped(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Snooped]:
    """A league where ada's `plain` (random) is checked, then bob submits the snoop, which
    is built, checked and plays a few games against `plain`; then the league pauses."""
    _need_bwrap()
    tmp_path = tmp_path_factory.mktemp("snooping")
    planted = [_planted(Path(base)) for base in ("/home", "/srv") if os.access(base, os.W_OK)]
    # a league where operators put one, not under /tmp (private to bots anyway)
    place = _planted(Path("/srv") if os.access("/srv", os.W_OK) else Path.home())
    try:
        with served(place) as site:
            league = site.league.folder
            assert site.call("POST", "/api/bots", site.ada, _plain(tmp_path))[0] == 202
            site.wait_status("plain", "active")
            secrets = [str(folder / "secret.txt") for folder in planted]
            targets = [
                str(league / "league.sqlite"),
                str(league / "logs"),
                str(league / "logs" / "plain.stderr.log"),
                str(league / "checks" / "plain" / "logs" / "plain.stderr.log"),
                str(league / "checks"),
                str(league / "records"),
                str(league / "uploads"),
                str(league / "bots"),
                str(league / "bots" / "plain" / "bot.py"),
                str(league),
                str(CHECKOUT / ".git" / "HEAD"),
                str(CHECKOUT / "README.md"),
                str(CHECKOUT / "bots" / "random" / "bot.py"),
                *("/home", "/root", "/work", "/srv", "/var", "/opt", "/mnt", "/run"),
                *secrets,
            ]
            build = {
                "stolen-db": league / "league.sqlite",
                "stolen-log": league / "checks" / "plain" / "logs" / "plain.stderr.log",
                "stolen-other": league / "bots" / "plain" / "bot.py",
                "stolen-git": CHECKOUT / ".git" / "HEAD",
                "stolen-secret": Path(secrets[0]) if secrets else league / "league.sqlite",
            }
            archive = _snoop_archive(tmp_path, targets, {k: str(v) for k, v in build.items()})
            assert site.call("POST", "/api/bots", site.bob, archive.read_bytes())[0] == 202
            site.wait_status("snoop", "active")
            site.league.start()
            deadline = time.monotonic() + 240
            while time.monotonic() < deadline and site.league.state.games_of("snoop") < 2:
                time.sleep(0.2)
            site.league.set_paused(True)
            bot = site.league.store.bot("snoop")
            assert bot is not None
            yield Snooped(site, league, targets, league / bot.folder)
    finally:
        for folder in [*planted, place]:
            shutil.rmtree(folder, ignore_errors=True)


def _plain(tmp_path: Path) -> bytes:
    return bot_archive(tmp_path, "random", "plain").read_bytes()


def _on_the_way(path: Path, own: Path) -> bool:
    """`path` is, or leads to, something a bot is shown (the system, the interpreter, the
    arena package, its own folder)."""
    shown = [*map(Path, SYSTEM_FOLDERS), *shown_to_bots(), own]
    shown += [Path(os.path.realpath(p)) for p in shown]
    return any(p == path or p.is_relative_to(path) for p in shown)


def test_the_snoops_check_and_games_read_nothing_of_the_league_nor_the_host(
    snooped: Snooped,
) -> None:
    assert snooped.site.league.state.games_of("snoop") >= 2, "the snoop played no game"
    logs = {
        "its check": snooped.league / "checks" / "snoop" / "logs" / "snoop.stderr.log",
        "its games": snooped.league / "logs" / "snoop.stderr.log",
    }
    for where, log in logs.items():
        lines = [line for line in log.read_text().splitlines() if line.startswith("SNOOP ")]
        assert len(lines) >= len(snooped.targets), f"{where}: the snoop did not report: {lines}"
        for line in lines:
            kind, tried, got = line.split(" ", 3)[1:]
            assert kind != "READ", f"{where}: {line}"
            if kind == "LISTED":  # only the way down to what it is shown
                for entry in json.loads(got):
                    assert _on_the_way(Path(tried) / entry, snooped.own), f"{where}: {line}"
    assert (snooped.league / "checks" / "plain" / "logs" / "plain.stderr.log").exists()
    for path in snooped.league.rglob("*"):  # the secret got into no log, record or page
        if path.is_file() and path.suffix != ".sqlite":
            assert SECRET.encode() not in path.read_bytes(), path


def test_the_snoops_build_copies_nothing_into_its_folder(snooped: Snooped) -> None:
    for name in STOLEN:
        assert (snooped.own / name).read_bytes() == b"", name  # made by its build, empty


def test_a_league_under_a_folder_only_root_enters_plays_its_bots(tmp_path: Path) -> None:
    """Item 8: bots run as nobody, and a league under a 0700 folder failed every one of
    them with "Permission denied"; the sandbox's view now leads to their folders itself."""
    _need_bwrap()
    if os.geteuid() != 0 or not Path("/srv").is_dir():
        pytest.skip("needs root (bots then run as nobody) and /srv (outside the private /tmp)")
    closed = Path("/srv") / f"arena-closed-{uuid.uuid4().hex[:8]}"
    closed.mkdir(mode=0o700)
    try:
        league = League(closed / "league", workers=0, limits=Limits(startup_ms=20_000))
        try:
            league.start()  # the start's check: bots can reach the league's bots/ folder
            author = league.store.author_of(league.store.add_author("ada"))
            assert author is not None
            bot = league.submit(author, bot_archive(tmp_path, "random", "plain"), wait=True)
            assert bot.status == "active", bot.message
        finally:
            league.close()
    finally:
        shutil.rmtree(closed, ignore_errors=True)


def test_a_league_whose_bots_cannot_start_says_why_at_start(tmp_path: Path) -> None:
    """Item 8: every bot failed, and nothing said why; now the league's start tries one
    start as bots are started (here 3 open files are too few for bubblewrap itself)."""
    _need_bwrap()
    limits = Limits(sandbox=SandboxLimits(open_files=3))
    league = League(tmp_path / "league", workers=0, limits=limits)
    try:
        with pytest.raises(BotsUnreachableError) as refused:
            league.start()
        sentence = str(refused.value)
        assert sentence.startswith(f"bots cannot start in {tmp_path / 'league' / 'bots'} (")
        assert sentence.endswith("; give another --league.") and "\n" not in sentence
        assert league.threads == [] and list((tmp_path / "league" / "bots").iterdir()) == []
    finally:
        league.close()


def test_the_closed_folder_above_a_league_is_named_for_nobody() -> None:
    if not os.access("/srv", os.W_OK):
        pytest.skip("needs a writable /srv")
    closed = Path("/srv") / f"arena-closed-{uuid.uuid4().hex[:8]}"
    (closed / "league" / "bots").mkdir(parents=True)
    try:
        closed.chmod(0o700)
        assert closed_parent(closed / "league" / "bots", SANDBOX_UID) == closed
        assert closed_parent(closed / "league" / "bots", 0) is None  # root passes anyway
        closed.chmod(0o711)
        assert closed_parent(closed / "league" / "bots", SANDBOX_UID) is None
    finally:
        shutil.rmtree(closed, ignore_errors=True)
