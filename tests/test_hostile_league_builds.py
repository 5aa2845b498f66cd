"""Issue 31, item 4: a submission's build and check are bounded (arena/league/checking.py).

Six submissions whose builds spun 45 s were checked all at once, and a 1 kB upload whose
build wrote 3 x 300 MiB went active with 900 MiB on disk. Now submissions are checked a few
at a time in order, a build has a CPU time and a wall time, and a version's folder has a
quota after its build. The limits here are small, given to the League, so the tests are quick.
"""

from __future__ import annotations

import re
import shutil
import time
from pathlib import Path

from click.testing import CliRunner

from arena.cli.main import main
from arena.league.checking import CheckPolicy
from arena.league.league import League
from arena.league.store import Author
from arena.league.uploads import archive_folder
from arena.players.build import folder_bytes
from arena.players.limits import Limits
from tests.league_support import BOTS

LIMITS = Limits(move_ms=5000, startup_ms=20_000)

SLOW_BUILD = """import pathlib, time
start = time.time()
time.sleep(1)  # long enough for a second build to overlap, were two run at once
pathlib.Path("built.txt").write_text(f"{start} {time.time()}")
"""

HEAVY_BUILD = """import pathlib
for n in range(3):
    pathlib.Path(f"data{n}.bin").write_bytes(bytes(3 << 20))
try:  # past the largest file a build may write: cut there
    pathlib.Path("big.bin").write_bytes(bytes(6 << 20))
except OSError:
    pass
"""


def _built_bot(tmp_path: Path, name: str, build: list[str], files: dict[str, str]) -> Path:
    """The bundled random bot named `name`, with `build` and `files`, archived."""
    folder = tmp_path / "src" / name
    shutil.copytree(BOTS / "random", folder, ignore=shutil.ignore_patterns("__pycache__"))
    (folder / "bot.toml").write_text(
        f'name = "{name}"\ncommand = ["python3", "bot.py"]\ngames = ["mandala"]\nbuild = {build!r}\n'.replace(
            "'", '"'
        )
    )
    for file, text in files.items():
        (folder / file).write_text(text)
    return archive_folder(folder, tmp_path)


def _league(tmp_path: Path, policy: CheckPolicy) -> tuple[League, Author]:
    league = League(tmp_path / "league", workers=0, limits=LIMITS, checking=policy)
    ada = league.store.author_of(league.store.add_author("ada"))
    assert ada is not None
    return league, ada


def test_submissions_are_checked_one_at_a_time_in_order_and_the_waiting_say_so(
    tmp_path: Path,
) -> None:
    league, ada = _league(tmp_path, CheckPolicy(checks=1))
    try:
        names = ["slow1", "slow2", "slow3"]
        archives = [
            _built_bot(tmp_path, name, ["python3", "build.py"], {"build.py": SLOW_BUILD})
            for name in names
        ]
        bots = [league.submit(ada, archive) for archive in archives]
        with league.lock:
            last = league.store.bot_by_id(bots[-1].id)
        assert last is not None
        assert (last.status, last.message) == ("building", "waiting to be checked (2 ahead)")
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            with league.lock:
                statuses = [league.store.bot_by_id(bot.id) for bot in bots]
            assert sum(bot is not None and bot.status == "checking" for bot in statuses) <= 1
            if all(bot is not None and bot.status in ("active", "failed") for bot in statuses):
                break
            time.sleep(0.1)
        assert [bot and bot.status for bot in statuses] == ["active"] * 3, statuses
        spans = [
            [float(t) for t in (league.folder / bot.folder / "built.txt").read_text().split()]
            for bot in bots
        ]
        for before, after in zip(spans, spans[1:], strict=False):
            assert before[1] <= after[0], f"two builds ran at once: {spans}"
    finally:
        league.close()


def test_checks_go_round_robin_by_author(tmp_path: Path) -> None:
    """Issue 42, item 5: author A submits three slow-building bots, then author B one; B's is
    checked after at most one of A's (the one already running), not after all three."""
    league, ada = _league(tmp_path, CheckPolicy(checks=1))
    bob = league.store.author_of(league.store.add_author("bob"))
    assert bob is not None
    try:
        files = {"build.py": SLOW_BUILD}
        build = ["python3", "build.py"]
        slow = [league.submit(ada, _built_bot(tmp_path, f"slow{n}", build, files)) for n in "123"]
        quick = league.submit(bob, _built_bot(tmp_path, "quick", build, files))
        with league.lock:
            told = {bot.label: league.store.bot_by_id(bot.id) for bot in [*slow, quick]}
        assert {label: bot and bot.message for label, bot in told.items() if label != "slow1"} == {
            "quick": "waiting to be checked (1 ahead)",
            "slow2": "waiting to be checked (2 ahead)",
            "slow3": "waiting to be checked (3 ahead)",
        }
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            with league.lock:
                done = [league.store.bot_by_id(bot.id) for bot in [*slow, quick]]
            if all(bot is not None and bot.status in ("active", "failed") for bot in done):
                break
            time.sleep(0.1)
        assert [bot and bot.status for bot in done] == ["active"] * 4, done
        started = {
            bot.label: float((league.folder / bot.folder / "built.txt").read_text().split()[0])
            for bot in done
            if bot is not None
        }
        order = sorted(started, key=started.__getitem__)
        assert order == ["slow1", "quick", "slow2", "slow3"], started
    finally:
        league.close()


def test_a_build_that_spins_is_stopped_at_its_cpu_time(tmp_path: Path) -> None:
    league, ada = _league(tmp_path, CheckPolicy(build_cpu_s=2, build_timeout_s=120))
    try:
        archive = _built_bot(tmp_path, "spinner", ["python3", "-c", "while True: pass"], {})
        bot = league.submit(ada, archive, wait=True)
        assert bot.status == "failed"
        assert "was stopped at 2 s of CPU time, the most a build may use here" in bot.message
        assert "\n" not in bot.message
    finally:
        league.close()


def test_a_build_that_fills_its_folder_fails_and_its_files_are_deleted(tmp_path: Path) -> None:
    league, ada = _league(tmp_path, CheckPolicy(bot_disk_mb=4))
    try:
        files = {"build.py": HEAVY_BUILD}
        archive = _built_bot(tmp_path, "hoarder", ["python3", "build.py"], files)
        bot = league.submit(ada, archive, wait=True)
        assert bot.status == "failed"
        # three files of 3 MiB, and one cut at the quota, 4 MiB: 13 MiB, found as it builds or
        # once it is done (the machine's speed decides which)
        assert "a bot version may hold at most 4 MiB, so its files were deleted" in bot.message
        assert re.search(
            r"its folder (holds 13 MiB after its build|held more than 4 MiB as it built)",
            bot.message,
        )
        folder = league.folder / bot.folder
        assert folder.is_dir() and list(folder.iterdir()) == []
        assert league.store.bot(bot.label) is not None
    finally:
        league.close()


def test_serve_help_lists_the_check_options_and_their_defaults() -> None:
    result = CliRunner().invoke(main, ["serve", "--help"])
    assert result.exit_code == 0
    text = " ".join(result.output.split())
    for option, default in [
        ("--checks N", 1),
        ("--build-cpu S", 120),
        ("--build-timeout S", 300),
        ("--bot-disk-mb M", 256),
    ]:
        assert re.search(re.escape(option) + rf" [^\[]*\[default: {default};", text), option


FAILING_HEAVY_BUILD = """import pathlib, sys
for n in range(3):  # each file under the quota, together past it
    pathlib.Path(f"data{n}.bin").write_bytes(bytes(3 << 20))
sys.exit(1)
"""


def test_a_build_that_writes_past_the_quota_and_fails_leaves_nothing(tmp_path: Path) -> None:
    """Issue 42, point 3: the quota and clean-up hold for a build that fails too (a 1 kB
    upload whose build wrote 3 x 200 MiB and exited 1 kept 600 MiB)."""
    league, ada = _league(tmp_path, CheckPolicy(bot_disk_mb=4))
    try:
        files = {"build.py": FAILING_HEAVY_BUILD}
        archive = _built_bot(tmp_path, "dumper", ["python3", "build.py"], files)
        bot = league.submit(ada, archive, wait=True)
        assert bot.status == "failed" and "failed to build" in bot.message, bot.message
        folder = league.folder / bot.folder
        assert folder.is_dir() and list(folder.iterdir()) == []
        assert folder_bytes(league.folder / "bots") < 1 << 20  # nothing beyond the bound
    finally:
        league.close()


def test_a_restart_cleans_what_a_crash_left(tmp_path: Path) -> None:
    """What a killed server left (issue 42, point 3): staged uploads, a request body, a
    version cut short in its build with its outputs, a failed version over the quota (an
    older arena's) are gone when the league next starts; a version within it stays."""
    league, ada = _league(tmp_path, CheckPolicy(bot_disk_mb=1))
    try:
        with league.lock:
            cut = league.store.add_bot("halfway", ada)  # building when the server died
            old = league.store.set_status(league.store.add_bot("hoarder", ada), "failed", "x")
            kept = league.store.set_status(league.store.add_bot("small", ada), "failed", "y")
    finally:
        league.close()
    bots = tmp_path / "league" / "bots"
    for label, size in (("halfway", 2 << 20), ("hoarder", 2 << 20), ("small", 1000)):
        (bots / label).mkdir()
        (bots / label / "bot.toml").write_text(f'name = "{label}"\n')
        (bots / label / "out.bin").write_bytes(bytes(size))
    for staged in (".incoming-0123", ".upload-4567"):
        (bots / staged / "deep").mkdir(parents=True)
        (bots / staged / "deep" / "data.bin").write_bytes(bytes(1 << 20))
    (tmp_path / "league" / "uploads" / "x.upload").write_bytes(bytes(1000))
    league = League(
        tmp_path / "league", workers=0, limits=LIMITS, checking=CheckPolicy(bot_disk_mb=1)
    )
    try:
        league.start()
        assert sorted(path.name for path in bots.iterdir()) == ["halfway", "hoarder", "small"]
        assert sorted(path.name for path in (bots / "small").iterdir()) == ["bot.toml", "out.bin"]
        for label in ("halfway", "hoarder"):
            assert list((bots / label).iterdir()) == [], label
        assert list((tmp_path / "league" / "uploads").iterdir()) == []
        with league.lock:
            statuses = {bot.label: bot.status for bot in league.store.bots()}
        assert statuses == {"halfway": "failed", "hoarder": "failed", "small": "failed"}
        assert (cut.label, old.label, kept.label) == ("halfway", "hoarder", "small")
    finally:
        league.close()


HOARDING_BUILD = """import pathlib, time
for n in range(3):  # each file under the largest a build may write, together past the quota
    pathlib.Path(f"data{n}.bin").write_bytes(bytes(3 << 20))
time.sleep(600)  # and it would hold them till its time ran out
"""


def test_a_build_past_the_quota_is_stopped_while_it_runs(tmp_path: Path) -> None:
    """The quota holds while a build runs, not only after it: many files each under the
    largest file's limit would otherwise fill the disk until the build's time ran out."""
    league, ada = _league(tmp_path, CheckPolicy(bot_disk_mb=4, build_timeout_s=300))
    try:
        files = {"build.py": HOARDING_BUILD}
        archive = _built_bot(tmp_path, "hog", ["python3", "build.py"], files)
        bot = league.submit(ada, archive, wait=True)
        assert bot.status == "failed", bot.message
        assert (
            "its folder held more than 4 MiB as it built; a bot version may hold at most 4 MiB"
            in (bot.message)
        )
        assert list((league.folder / bot.folder).iterdir()) == []
    finally:
        league.close()
