"""The hostile battery: every bot in tests/hostile/ plays `random` in a real tournament.

For each: the hostile bot loses with the right termination (or is contained and the game is
normal), the second game of the pair is played too, no process is left behind, and the
harm it tries does not reach the machine. Limits are short and on: a 400 ms move clock, a
256 MiB RLIMIT_DATA, 32 processes. Tests that need a facility this machine lacks (a pids
cgroup, bubblewrap) skip and say which.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import socket
import time
import uuid
from pathlib import Path
from typing import Any

import pytest

from arena.errors import TournamentError
from arena.execution import InlineExecutor
from arena.players import sandbox
from arena.players.manifest import load_manifest
from arena.tournament import create_run, play

HOSTILE = Path(__file__).parent / "hostile"
RANDOM = Path(__file__).resolve().parents[1] / "bots" / "random"
MOVE_MS = 400

FAULTS = {
    "timeout",
    "crash",
    "illegal_move",
    "malformed_reply",
    "oversized_output",
    "startup_failure",
}


def _limits(**sandbox_changes: Any) -> dict[str, Any]:
    box: dict[str, Any] = {"memory_mb": 256, "processes": 32, "file_mb": 8, "cpu_s": None}
    box.update(sandbox_changes.pop("sandbox", {}))
    limits: dict[str, Any] = {
        "move_ms": MOVE_MS,
        "startup_ms": 4000,
        "grace_ms": 300,
        "stderr_cap": 1 << 16,
        "sandbox": box,
    }
    limits.update(sandbox_changes)
    return limits


class Arena:
    """A tmp bots folder (random + one hostile bot), a marker for its processes, a run."""

    def __init__(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        self.tmp = tmp_path
        self.bots = tmp_path / "bots"
        shutil.copytree(RANDOM, self.bots / "random", ignore=shutil.ignore_patterns("__pycache__"))
        self.marker = f"hostile-{uuid.uuid4().hex}"
        monkeypatch.setenv("ARENA_BOT_HOSTILE_MARKER", self.marker)
        self.run_dir = tmp_path / "run"

    def add(self, name: str, args: tuple[str, ...] = (), limits_table: str = "") -> None:
        folder = self.bots / name
        folder.mkdir()
        shutil.copy(HOSTILE / f"{name}.py", folder / "bot.py")
        shutil.copy(HOSTILE / "_common.py", folder / "_common.py")
        command = json.dumps(["python3", "bot.py", *args])
        (folder / "bot.toml").write_text(
            f'name = "{name}"\ncommand = {command}\n{limits_table}\n', encoding="utf-8"
        )

    def run(self, name: str, **limits: Any) -> list[dict[str, Any]]:
        """Play one seat-swapped pair (two games); the games log's lines."""
        bots = [load_manifest(self.bots / name), load_manifest(self.bots / "random")]
        config = create_run(self.run_dir, bots, rounds=1, seed=7, limits=_limits(**limits))
        summary = play(self.run_dir, config, workers=0, executor=InlineExecutor())
        assert summary.played == 2
        lines = self.lines()
        assert len(lines) == 2, "the second game of the pair was not played"
        self.assert_no_leftovers()
        return lines

    def lines(self) -> list[dict[str, Any]]:
        """The games log's lines."""
        text = (self.run_dir / "games.jsonl").read_text()
        return [json.loads(line) for line in text.splitlines() if line.strip()]

    def stderr_log(self, name: str) -> str:
        return (self.run_dir / "logs" / f"{name}.stderr.log").read_text("utf-8", "replace")

    def leftovers(self) -> list[int]:
        """Processes (other than this one) started with the marker in their environment."""
        needle = self.marker.encode()
        found = []
        for entry in os.listdir("/proc"):
            if not entry.isdigit() or int(entry) == os.getpid():
                continue
            try:
                environ = Path(f"/proc/{entry}/environ").read_bytes()
            except OSError:
                continue
            if needle in environ:
                found.append(int(entry))
        return found

    def assert_no_leftovers(self) -> None:
        deadline = time.monotonic() + 30  # at once when idle; a loaded machine reaps later
        while (left := self.leftovers()) and time.monotonic() < deadline:
            time.sleep(0.05)
        for pid in left:  # never leave them to the next test, even when failing
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        assert not left, f"processes left behind: {left}"


@pytest.fixture
def arena(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Arena:
    return Arena(tmp_path, monkeypatch)


def _mode() -> str:
    return sandbox.isolation_mode("auto")


def _hostile_lost(lines: list[dict[str, Any]], name: str, termination: str | set[str]) -> None:
    wanted = {termination} if isinstance(termination, str) else termination
    for line in lines:
        seat = line["players"].index(name)
        assert line["termination"] in wanted, line["reason"]
        assert line["faulty_seat"] == seat, line["reason"]
        assert line["ranks"][seat] > line["ranks"][1 - seat]


def _normal(lines: list[dict[str, Any]]) -> None:
    for line in lines:
        assert line["termination"] not in FAULTS, line["reason"]
        assert line["faulty_seat"] is None


# --- protocol abuse ---


@pytest.mark.parametrize(
    ("name", "termination"),
    [
        ("sleep_move", "timeout"),
        ("busy_loop", "timeout"),
        ("no_newline", "timeout"),
        ("binary_garbage", "malformed_reply"),
        ("wrong_shape", "malformed_reply"),
        ("unhashable_move", "malformed_reply"),
        ("exit_mid_game", "crash"),
    ],
)
def test_a_bot_that_misbehaves_loses_with_the_reason(
    arena: Arena, name: str, termination: str
) -> None:
    arena.add(name)
    lines = arena.run(name)
    _hostile_lost(lines, name, termination)


def test_a_bot_that_writes_moves_without_reading_loses_with_malformed_reply(arena: Arena) -> None:
    """Issue 20.5: a bot that answered hello, then wrote {"move": 0} every 20 ms without
    reading, had 35 moves accepted over 4 games. A reply must echo its request's id."""
    arena.add("never_reads")
    lines = arena.run("never_reads")
    _hostile_lost(lines, "never_reads", "malformed_reply")
    for line in lines:  # a line already waiting is stray; one written after, without the id
        reasons = ('has no "id"', "does not answer this request", "nobody asked for")
        assert any(reason in line["reason"] for reason in reasons), line["reason"]
        seat = line["players"].index("never_reads")
        # no move of it accepted: its first reply loses (a line written after the request
        # counts as its one decision, a line already waiting as none: it depends on timing)
        assert line["decisions"][seat] <= 1


def test_a_bot_that_never_answers_hello_fails_to_start_and_stops_the_run(arena: Arena) -> None:
    """It loses both games of its table with startup_failure; having started in none, it
    stops the tournament (issue 20: its forfeits are no result)."""
    arena.add("no_hello")
    with pytest.raises(TournamentError, match="'no_hello' could not start in any of its first"):
        arena.run("no_hello", startup_ms=800)
    _hostile_lost(arena.lines(), "no_hello", "startup_failure")
    arena.assert_no_leftovers()


def test_a_bot_that_closes_stdout_loses(arena: Arena) -> None:
    """A crash, as the guide says, also under bubblewrap (whose processes hold a copy of the
    pipe, so there is no end of file: issue 9); without a cgroup to look into, a timeout."""
    arena.add("close_stdout")
    lines = arena.run("close_stdout")
    crash = _mode() != "bwrap" or sandbox.probe().cgroups
    _hostile_lost(lines, "close_stdout", "crash" if crash else "timeout")
    if crash:
        assert all("closed its output" in line["reason"] for line in lines)


@pytest.mark.parametrize("name", ["extra_lines", "write_ahead", "chat_on_new_game"])
def test_output_nobody_asked_for_loses_the_game(arena: Arena, name: str) -> None:
    """Issue 9: extra lines were dropped, lines written ahead were taken as the next reply,
    and a bot that never read its input played 73 accepted moves."""
    arena.add(name)
    lines = arena.run(name)
    _hostile_lost(lines, name, "malformed_reply")
    if name != "chat_on_new_game":  # its line may arrive after the request: then it is the reply
        for line in lines:  # lines written ahead are stray, or if late, answer no request's id
            reason = line["reason"]
            assert "nobody asked for" in reason or 'has no "id"' in reason, reason


def test_a_100_mb_line_is_cut_off_and_the_referee_stays_small(arena: Arena) -> None:
    arena.add("huge_line")
    peak_reset = _reset_peak_rss()
    before = _status_kb("VmHWM" if peak_reset else "VmRSS")
    lines = arena.run("huge_line")
    after = _status_kb("VmHWM" if peak_reset else "VmRSS")
    _hostile_lost(lines, "huge_line", "oversized_output")
    assert after - before < 40 * 1024, f"the referee grew by {(after - before) // 1024} MiB"


def _reset_peak_rss() -> bool:
    try:
        Path("/proc/self/clear_refs").write_text("5")
    except OSError:
        return False
    return True


def _status_kb(key: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1])
    raise AssertionError(f"no {key} in /proc/self/status")


def test_a_stderr_flood_is_capped_and_the_game_goes_on(arena: Arena) -> None:
    arena.add("stderr_flood")
    _normal(arena.run("stderr_flood"))
    size = (arena.run_dir / "logs" / "stderr_flood.stderr.log").stat().st_size
    assert size <= (1 << 16) + 1024


# --- processes ---


def test_a_grandchild_in_a_new_session_is_killed(arena: Arena) -> None:
    facilities = sandbox.probe()
    if not facilities.cgroups and _mode() != "bwrap":
        pytest.skip("no cgroup and no bubblewrap here: a setsid() grandchild escapes killpg")
    arena.add("grandchild")
    lines = arena.run("grandchild")
    # It exits, but its grandchild holds the pipe open: no end of file, so a timeout.
    _hostile_lost(lines, "grandchild", {"timeout", "crash"})


def test_a_bot_that_ignores_sigterm_and_goodbye_is_killed(arena: Arena) -> None:
    arena.add("ignore_sigterm")
    _normal(arena.run("ignore_sigterm"))
    assert "killed by SIGKILL" in arena.stderr_log("ignore_sigterm")


def test_unbounded_memory_stops_at_rlimit_data(arena: Arena) -> None:
    arena.add("memory_hog")
    lines = arena.run("memory_hog", move_ms=5000)
    _hostile_lost(lines, "memory_hog", "crash")
    assert "MemoryError" in arena.stderr_log("memory_hog")


def test_a_fork_bomb_stops_at_the_pids_limit(arena: Arena) -> None:
    if sandbox.probe().pids_limit is None:
        pytest.skip("no pids cgroup here: a fork bomb would not be contained")
    arena.add("fork_bomb")
    lines = arena.run("fork_bomb")
    _hostile_lost(lines, "fork_bomb", "timeout")
    assert "FORK-REFUSED after" in arena.stderr_log("fork_bomb")


def test_cpu_time_is_limited_by_rlimit_cpu(arena: Arena) -> None:
    arena.add("busy_loop")
    lines = arena.run("busy_loop", move_ms=8000, sandbox={"cpu_s": 1})
    _hostile_lost(lines, "busy_loop", "crash")


def test_file_size_is_limited_by_rlimit_fsize(arena: Arena) -> None:
    arena.add("big_file")
    lines = arena.run("big_file", move_ms=5000, sandbox={"file_mb": 1})
    _hostile_lost(lines, "big_file", "crash")
    assert all("File too large" in line["reason"] for line in lines), lines[0]["reason"]


def test_a_manifest_lowers_limits_but_cannot_raise_them(arena: Arena) -> None:
    table = "[limits]\nmemory_mb = 200\nfile_mb = 4\nprocesses = 1000\n"
    arena.add("limits_probe", limits_table=table)
    _normal(arena.run("limits_probe"))
    text = arena.stderr_log("limits_probe")
    reported = json.loads(text.split("LIMITS ", 1)[1].splitlines()[0])
    assert reported["RLIMIT_DATA"] == 200 << 20
    assert reported["RLIMIT_FSIZE"] == 4 << 20
    assert "processes = 1000 asked in bot.toml; the tournament allows 32" in text


# --- the machine ---


def test_writes_outside_its_folder_do_not_reach_the_machine(arena: Arena) -> None:
    if _mode() != "bwrap":
        pytest.skip("bubblewrap is not available here: the filesystem is not isolated")
    Path("/tmp/arena-hostile-escaped.txt").unlink(missing_ok=True)
    original = (arena.bots / "random" / "bot.py").read_bytes()
    arena.add("write_outside")
    _normal(arena.run("write_outside"))
    assert not (arena.tmp / "escaped.txt").exists()
    assert not Path("/tmp/arena-hostile-escaped.txt").exists()
    assert (arena.bots / "random" / "bot.py").read_bytes() == original


def test_reading_another_bots_folder_fails(arena: Arena) -> None:
    if _mode() != "bwrap":
        pytest.skip("bubblewrap is not available here: other bots' folders are readable")
    arena.add("read_other_bot")
    _normal(arena.run("read_other_bot"))


def test_a_network_connection_fails(arena: Arena) -> None:
    if _mode() == "none":
        pytest.skip("neither bubblewrap nor unshare -n works here: bots have the network")
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        server.settimeout(0.2)
        arena.add("network", args=(str(server.getsockname()[1]),))
        lines = arena.run("network")
        with pytest.raises(TimeoutError):
            server.accept()
    _normal(lines)


# --- issue 9: what got through the first battery ---


def _bwrap_as_root() -> None:
    if _mode() != "bwrap" or os.geteuid() != 0:
        pytest.skip("needs bubblewrap and root (bots are dropped to an unprivileged user)")


def test_a_host_unix_socket_cannot_be_reached(
    arena: Arena, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 9: no network, and no host unix socket either (a seccomp filter, F: socket)."""
    if _mode() != "bwrap" or not sandbox.probe().seccomp:
        pytest.skip("needs bubblewrap with its seccomp filter")
    if os.geteuid() != 0:
        pytest.skip("needs root to open a socket where every bot could see it")
    folder = Path(f"/var/lib/arena-test-{uuid.uuid4().hex}")
    folder.mkdir(mode=0o755)
    path = folder / "db.sock"
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as server:
            server.bind(str(path))
            os.chmod(path, 0o777)  # only the sandbox stands between a bot and this socket
            server.listen()
            server.settimeout(0.2)
            monkeypatch.setenv("ARENA_BOT_SOCKET", str(path))
            arena.add("unix_socket")
            lines = arena.run("unix_socket")
            with pytest.raises(TimeoutError):
                server.accept()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    _normal(lines)
    assert "DENIED" in arena.stderr_log("unix_socket")


def test_memory_is_limited_for_the_whole_process_tree(arena: Arena) -> None:
    """Issue 9: four children under the per-process limit, together over the bot's limit."""
    if sandbox.probe().memory_limit is None:
        pytest.skip("no memory cgroup here: memory is limited per process only")
    arena.add("memory_tree")
    lines = arena.run("memory_tree", move_ms=5000, sandbox={"processes": 16})
    _hostile_lost(lines, "memory_tree", "crash")
    for line in lines:
        assert "out of memory" in line["reason"], line["reason"]


def test_shared_memory_is_small_and_private(arena: Arena) -> None:
    """Issue 9: /dev/shm filled the host's shared memory; now it is a small private tmpfs."""
    if _mode() != "bwrap":
        pytest.skip("bubblewrap is not available here: /dev/shm is the host's")
    before = shutil.disk_usage("/dev/shm").used if Path("/dev/shm").is_dir() else 0
    arena.add("shm_fill")
    _normal(arena.run("shm_fill"))
    text = arena.stderr_log("shm_fill")
    assert "SHM FULL after" in text, text
    assert int(text.split("SHM FULL after ", 1)[1].split()[0]) <= 16
    after = shutil.disk_usage("/dev/shm").used if Path("/dev/shm").is_dir() else 0
    assert after - before < 8 << 20


def test_a_bot_runs_unprivileged_with_a_small_environment(
    arena: Arena, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 9: bots ran as root, read root-only files and saw the referee's environment."""
    _bwrap_as_root()
    monkeypatch.setenv("ARENA_TEST_SECRET_TOKEN", "hunter2")
    arena.add("who_am_i", limits_table='[env]\nGREETING = "hello"\n')
    _normal(arena.run("who_am_i"))
    text = arena.stderr_log("who_am_i")
    assert "UID 65534" in text, text
    assert "SHADOW denied" in text
    assert "FOLDER read-only" in text
    env = json.loads(text.split("ENV ", 1)[1].splitlines()[0])
    assert "ARENA_TEST_SECRET_TOKEN" not in env and "hunter2" not in json.dumps(env)
    assert env["GREETING"] == "hello"  # the manifest's [env]
    assert env["ARENA_BOT_HOSTILE_MARKER"] == arena.marker  # ARENA_BOT_* pass through
    assert {"PATH", "HOME", "LANG"} <= set(env)


def test_play_hides_its_results_from_the_bots(
    arena: Arena, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 9: `arena play` did not hide its output folder; a bot read its opponent's logs."""
    if _mode() != "bwrap":
        pytest.skip("bubblewrap is not available here: the results folder is readable")
    from arena.match import play_match
    from arena.players.limits import Limits

    out = arena.tmp.parent / f"{arena.tmp.name}-play-out"  # not inside the hidden bots folder
    monkeypatch.setenv("ARENA_BOT_RESULTS", str(out))
    arena.add("read_results")
    bots = [load_manifest(arena.bots / "read_results"), load_manifest(arena.bots / "random")]
    try:
        summary = play_match(bots, 4, 3, Limits(move_ms=MOVE_MS, grace_ms=300), out)
        log = (out / "logs" / "read_results.stderr.log").read_text()
    finally:
        shutil.rmtree(out, ignore_errors=True)
    assert summary.tallies[0].failures == {}, log
    assert "HARM-DONE" not in log
    assert "DENIED" in log or "EMPTY" in log


def test_pool_workers_leave_no_cgroup_folders(arena: Arena) -> None:
    """Issue 9: tournament workers left empty cgroup folders until the next start."""
    roots = [root for root in Path("/sys/fs/cgroup").glob("*") if root.is_dir()]
    roots += [Path("/sys/fs/cgroup")]
    if not sandbox.probe().cgroups:
        pytest.skip("no cgroups here")

    def folders() -> set[Path]:
        return {base for root in roots for base in root.glob("arena-*")}

    before = folders()
    arena.add("wrong_shape")
    bots = [load_manifest(arena.bots / "wrong_shape"), load_manifest(arena.bots / "random")]
    config = create_run(arena.run_dir, bots, rounds=2, seed=7, limits=_limits())
    summary = play(arena.run_dir, config, workers=2)
    assert summary.played == 4
    mine = {p for p in folders() if p.name.startswith(f"arena-{os.getpid()}.")}
    # another arena on the machine (a second test run) may have folders of its own: a
    # leftover is a folder whose process is gone (the pool's workers have all stopped)
    left = {p for p in folders() - before - mine if not _alive(p.name)}
    assert left == set()


def _alive(cgroup_folder: str) -> bool:
    """True when the process named by a cgroup folder (`arena-PID.START`, `arena-probe-PID`)
    still runs."""
    found = re.search(r"[0-9]+", cgroup_folder)
    return found is not None and Path("/proc", found.group()).exists()


def test_a_folder_closed_to_others_runs_as_root_without_capabilities(arena: Arena) -> None:
    """A root-owned bot folder of mode 0700 cannot be entered by nobody: the bot still plays
    (as root, no capabilities) and its log says how to run it unprivileged."""
    _bwrap_as_root()
    arena.add("who_am_i")
    (arena.bots / "who_am_i").chmod(0o700)
    _normal(arena.run("who_am_i"))
    text = arena.stderr_log("who_am_i")
    assert "UID 0" in text and "chmod -R o+rX" in text


def test_a_pool_worker_and_its_bots_keep_to_one_core(arena: Arena) -> None:
    """Handing over between the referee and a bot on one core is several times faster on a
    virtual machine than waking a process on another core; each game keeps its core."""
    if len(os.sched_getaffinity(0)) < 2:
        pytest.skip("one core only")
    arena.add("who_am_i")
    bots = [load_manifest(arena.bots / "who_am_i"), load_manifest(arena.bots / "random")]
    config = create_run(arena.run_dir, bots, rounds=2, seed=7, limits=_limits())
    assert play(arena.run_dir, config, workers=2).played == 4
    cpus = [line for line in arena.stderr_log("who_am_i").splitlines() if line.startswith("CPUS")]
    assert cpus and all(len(json.loads(line.split(" ", 1)[1])) == 1 for line in cpus), cpus


def test_a_timeout_tells_a_slow_bot_from_a_silent_one(
    arena: Arena, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 14: "answered after 600 ms; the limit was 400 ms", or nothing arrived at all."""
    arena.add("slow_move")
    for line in arena.run("slow_move"):
        assert line["termination"] == "timeout"
        assert "it answered after " in line["reason"], line["reason"]
        assert "the limit was 400 ms" in line["reason"]
    silent = Arena(arena.tmp / "silent", monkeypatch)
    silent.add("sleep_move")
    for line in silent.run("sleep_move"):
        assert "nothing arrived" in line["reason"], line["reason"]


def test_a_cpu_limit_per_decision_is_measured_by_the_cgroup(arena: Arena) -> None:
    """Issue 14: --cpu-limit-ms: CPU time, not wall time, for fair play on a busy machine."""
    if sandbox.probe().cgroup_v2 is None:
        pytest.skip("no cgroup v2 here: the CPU time of a bot cannot be measured")
    arena.add("cpu_heavy")
    for line in arena.run("cpu_heavy", move_ms=5000, cpu_ms=150):
        assert line["termination"] == "timeout"
        assert "ms of CPU time; the limit is 150 ms" in line["reason"], line["reason"]
