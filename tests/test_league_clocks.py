"""Clocks that are fair on a busy machine (issue 32, item 1), against a league's hostile
conditions: `arena serve` takes `arena run`'s time options; a check is judged on what the bot
controls (a late reply whose CPU time was within the limit is played again, on a machine made
busy on purpose: the bot starved of CPU); an opponent's fault never fails the bot; a bot's page
says how many of its losses were time losses, and in how many the machine was loaded."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli.main import main
from arena.conformance import check_bot
from arena.league.boards import bot_report
from arena.league.league import League
from arena.league.uploads import archive_folder
from arena.players.limits import Limits
from arena.players.manifest import load_manifest
from arena.results.log import GameLine
from tests.league_support import BOTS, bot_archive, served
from tests.tournament_support import processes_with

HONEST_BOT = """
import json, random, sys, time

def think(ms):  # about `ms` of CPU time, as an honest bot's search would use
    end = time.process_time() + ms / 1000
    while time.process_time() < end:
        pass

rng = random.Random(7)
for line in sys.stdin:
    message = json.loads(line)
    kind = message.get("type")
    if kind == "hello":
        print(json.dumps({"type": "hello", "name": "honest", "version": "1"}), flush=True)
    elif kind == "decide":
        think(THINK_MS)
        index = rng.randrange(len(message["legal_moves"]))
        print(json.dumps({"move": index, "id": message["id"]}), flush=True)
    elif kind == "goodbye":
        break
"""

LATE_OPPONENT = """
import json, sys, time

LATE_IN = LATE_GAMES  # the games (and tries) in which it is late: it sleeps past the limit
for line in sys.stdin:
    message = json.loads(line)
    kind = message.get("type")
    if kind == "hello":
        print(json.dumps({"type": "hello", "name": "late", "version": "1"}), flush=True)
    elif kind == "decide":
        if message["game_id"] in LATE_IN:
            time.sleep(3 * message["time_ms"] / 1000)
        print(json.dumps({"move": 0, "id": message["id"]}), flush=True)
    elif kind == "goodbye":
        break
"""


def _bot_folder(tmp_path: Path, name: str, script: str, marker: str = "") -> Path:
    """A bot `name` running `script`; `marker`: an argument it is given, to find it by."""
    folder = tmp_path / "src" / name
    folder.mkdir(parents=True)
    (folder / "bot.py").write_text(script)
    command = json.dumps(["python3", "bot.py", *([marker] if marker else [])])
    (folder / "bot.toml").write_text(
        f'name = "{name}"\ncommand = {command}\nlanguage = "python"\ngames = ["mandala"]\n'
    )
    return folder


@contextmanager
def starved(marker: str, until: Callable[[], bool], share: float = 0.025) -> Iterator[None]:
    """Until `until()` holds (at most 120 s), every process whose command line holds
    `marker` runs only `share` of the time: stopped, and continued for a moment every 0.4 s
    (SIGSTOP, SIGCONT). That is what a bot meets on a machine busy with other work, made
    certain: processes spinning beside it would load every neighbour too, and how much CPU
    they left the bot would depend on the rest of the machine's work."""

    def signal_all(pids: list[int], number: signal.Signals) -> None:
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, number)

    def throttle() -> None:
        pids = processes_with(marker)
        signal_all(pids, signal.SIGCONT)
        time.sleep(0.4 * share)
        signal_all(pids, signal.SIGSTOP)
        time.sleep(0.4 * (1 - share))

    with _until(until, throttle, lambda: signal_all(processes_with(marker), signal.SIGCONT)):
        yield


@contextmanager
def _until(
    until: Callable[[], bool], step: Callable[[], None], release: Callable[[], None]
) -> Iterator[None]:
    """`step` over and over in a thread of its own until `until()` holds, the block ends or
    120 s pass; then `release` (`starved`, `kept_from_a_cpu`)."""
    done = threading.Event()

    def run() -> None:
        deadline = time.monotonic() + 120
        try:
            while not done.is_set() and not until() and time.monotonic() < deadline:
                step()
        finally:
            release()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join(30)


def test_serve_takes_the_time_options_of_arena_run_and_a_restart_may_change_them(
    tmp_path: Path,
) -> None:
    runner = CliRunner()
    assert "--time-limit" in runner.invoke(main, ["run", "--help"]).output
    shown = runner.invoke(main, ["serve", "--help"], terminal_width=200).output
    for option in ("--time-limit", "--cpu-limit-ms", "--time-bank", "a restart may give others"):
        assert option in shown, option
    league = tmp_path / "league"
    for move_ms, cpu_ms in (("250", "100"), ("3000", None)):
        out = tmp_path / f"export-{move_ms}"
        given = ["serve", "--league", str(league), "--time-limit", move_ms, "--export", str(out)]
        given += [] if cpu_ms is None else ["--cpu-limit-ms", cpu_ms]
        result = runner.invoke(main, given)
        assert result.exit_code == 0, result.output
        limits = json.loads((out / "config.json").read_text())["limits"]
        assert limits["move_ms"] == int(move_ms)
        assert limits["cpu_ms"] == (None if cpu_ms is None else int(cpu_ms))


def test_an_honest_bot_passes_its_league_check_on_a_machine_made_busy(tmp_path: Path) -> None:
    """20 ms of CPU a decision, a 500 ms limit, the bot starved of CPU (`starved`) until
    a game of its check timed out: its late reply's CPU time is within the limit, so the
    game is played again once the machine is free (before: failed, 'no complete reply
    within ... ms'). 25 times the CPU it needs: other work on the machine never makes it
    late once it is left alone."""
    marker = f"honest-{uuid.uuid4().hex}"
    folder = _bot_folder(tmp_path, "honest", HONEST_BOT.replace("THINK_MS", "20"), marker)
    limits = Limits(move_ms=500, startup_ms=20_000)
    league = League(tmp_path / "league", workers=0, limits=limits)
    checks = tmp_path / "league" / "checks" / "honest"

    def ends() -> list[str]:
        records = checks.glob("check-*.json")
        return [json.loads(path.read_text())["outcome"]["termination"] for path in records]

    try:
        ada = league.store.author_of(league.store.add_author("ada"))
        assert ada is not None
        with starved(marker, until=lambda: "timeout" in ends()):
            bot = league.submit(ada, archive_folder(folder, tmp_path), wait=True)
        assert bot.status == "active", bot.message
        assert "timeout" in ends()  # and the page says why it was played again
        assert "played again after a late reply (" in bot.message, bot.message
        assert "within the 500 ms limit, so the machine was busy" in bot.message
    finally:
        league.close()


def test_a_bot_that_is_slow_on_its_own_still_fails_after_its_tries(tmp_path: Path) -> None:
    """The retries are for the machine: a bot using more CPU than the limit fails at once,
    one that is late with little CPU (it sleeps) fails once its tries are spent."""
    opponent = load_manifest(BOTS / "random")
    burner = load_manifest(_bot_folder(tmp_path, "burner", HONEST_BOT.replace("THINK_MS", "400")))
    sleeper_script = HONEST_BOT.replace("think(THINK_MS)", "time.sleep(0.4)")
    sleeper = load_manifest(_bot_folder(tmp_path, "sleeper", sleeper_script))
    limits = Limits(move_ms=150, startup_ms=20_000)
    burnt = check_bot(burner, opponent, limits, tmp_path / "burner", retries=2, retry_pause_s=0.1)
    assert burnt[-1].failed and burnt[-1].name == "games", burnt
    assert "played again" not in burnt[-1].detail
    slept = check_bot(sleeper, opponent, limits, tmp_path / "sleeper", retries=2, retry_pause_s=0.1)
    assert slept[-1].failed and slept[-1].name == "games", slept
    assert "late in each of its 3 tries" in slept[-1].detail, slept[-1].detail


KEPT = "kept"
"""While a file of this name is in the bot's folder, `KEPT_BOT` runs on CPU 0 only."""
KEPT_BOT = HONEST_BOT.replace("import json,", "import json, os,").replace(
    '    elif kind == "decide":\n',
    '    elif kind == "decide":  # each decision on CPU 0 while the flag file is there\n'
    f'        os.sched_setaffinity(0, {{0}} if os.path.exists("{KEPT}") else range(os.cpu_count()))\n',
)


@contextmanager
def kept_from_a_cpu(folder: Path, until: Callable[[], bool], spinners: int = 12) -> Iterator[None]:
    """Until `until()` holds (at most 120 s), the bot in `folder` (`KEPT_BOT`) shares CPU 0
    with `spinners` busy processes pinned there: it is ready to run and waits for a CPU, as
    on a machine busy with other work (unlike `starved`'s stopped processes, which wait for
    nothing). The bot pins itself as each decision begins, so every process of it is kept
    from its first decision (a watcher pinning what it found in /proc came late under load,
    and a retry ran free). The other CPUs are left to the test. Each spinner has a session
    of its own: with autogroup a session shares a CPU with others as one."""
    flag = folder / KEPT
    flag.touch()
    pin = "import os; os.sched_setaffinity(0, {0})\nwhile True: pass"
    busy = [
        subprocess.Popen([sys.executable, "-c", pin], start_new_session=True)
        for _ in range(spinners)
    ]

    def release() -> None:
        flag.unlink(missing_ok=True)
        for process in busy:
            process.kill()
            process.wait()

    with _until(until, lambda: time.sleep(0.005), release):
        yield


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="needs a CPU besides the one kept busy")
def test_a_bot_kept_from_a_cpu_in_every_try_is_not_failed_for_it(tmp_path: Path) -> None:
    """A busy machine for longer than a check's retries (seen under load: an honest bot late in
    each of its 4 tries, 12 ms of CPU each, failed its league check): the late decisions'
    time waiting for a CPU (run_queue.py) shows the machine's doing, so the game is not
    counted and the check passes on the others, saying why; a bot late for its own sleeps
    (`test_a_bot_that_is_slow_on_its_own_still_fails_after_its_tries`) still fails."""
    folder = _bot_folder(tmp_path, "honest", KEPT_BOT.replace("THINK_MS", "30"))
    out = tmp_path / "honest"

    def game_one_spent() -> bool:  # every try of game 1 lost on time
        tries = list(out.glob("check-001*.json"))
        ends = [json.loads(path.read_text())["outcome"]["termination"] for path in tries]
        return len(ends) == 2 and all(end == "timeout" for end in ends)

    limits = Limits(move_ms=200, startup_ms=20_000)
    opponent = load_manifest(BOTS / "random")
    with kept_from_a_cpu(folder, until=game_one_spent):
        results = check_bot(
            load_manifest(folder), opponent, limits, out, retries=1, retry_pause_s=0.1
        )
    games = [result for result in results if result.name == "games"]
    assert games and not games[0].failed, games[0].detail if games else results
    assert "game 1 was not counted: the bot was late in each of its 2 tries" in games[0].detail
    assert "for a CPU and ran" in games[0].detail
    assert "the machine was busy, not the bot" in games[0].detail


def test_an_opponent_that_is_late_never_fails_the_bot_under_test(tmp_path: Path) -> None:
    """The opponent is late in game 1's first try (played again) and in every try of game 2
    (not counted): the bot passes, and the check says what it did (before: failed, 'the
    opponent failed, so the check is incomplete')."""
    late_in = {"check-001", "check-002", "check-002-try2"}
    script = LATE_OPPONENT.replace("LATE_GAMES", repr(late_in))
    opponent = load_manifest(_bot_folder(tmp_path, "late", script))
    bot = load_manifest(BOTS / "random")
    # 1 s a move: with 200 ms, the bot under test was once late itself on a loaded machine
    limits = Limits(move_ms=1000, startup_ms=20_000)
    results = check_bot(bot, opponent, limits, tmp_path / "check", retries=1, retry_pause_s=0.1)
    assert not [result for result in results if result.failed], results
    games = next(result for result in results if result.name == "games")
    assert "game 1 was played again after the opponent failed" in games.note, games
    assert "game 2 was not counted: the opponent failed in each of its 2 tries" in games.note


def _timeout_line(game_id: str, think: tuple[float, float], reason: str) -> GameLine:
    """A game `mine` lost on time in seat 0; the other seat's think and CPU time as given."""
    return GameLine(
        seq=0, game_id=game_id, round=1, table=1, players=("mine", "other"), scores=(3, 9),
        ranks=(1, 0), termination="timeout", reason=reason, faulty_seat=0, decisions=(5, 10),
        think_ms=(50.0, think[0]), cpu_ms=(None, think[1]),
    )  # fmt: skip


def test_a_bots_page_counts_its_time_losses_and_those_on_a_loaded_machine(
    tmp_path: Path,
) -> None:
    late = "mine timed out at turn 9: it answered after 1,039 ms; the limit was 1,000 ms."
    cpu = "mine timed out at turn 9: it used 1,200 ms of CPU time; the limit is 1,000 ms."
    games = [
        _timeout_line("g1", (400.0, 3.0), late),  # the other waited 40 ms a decision: loaded
        _timeout_line("g2", (15.0, 1.0), late),  # 1.4 ms (random beside 24 spinners): loaded
        _timeout_line("g3", (0.8, 0.6), late),  # random on a quiet machine: not loaded
        _timeout_line("g4", (400.0, 3.0), cpu),  # its own CPU time: never the machine's
    ]
    report = bot_report("mine", games)
    assert report["time_losses"] == {"total": 4, "machine_loaded": 2}
    with served(tmp_path) as site:
        ada = site.league.store.author_of(site.ada)
        assert ada is not None
        site.league.submit(ada, bot_archive(tmp_path, "random", "plain"), wait=True)
        status, shown = site.call("GET", "/api/bots/plain")
        assert status == 200 and shown["time_losses"] == {"total": 0, "machine_loaded": 0}
        status, page = site.call("GET", "/")
        assert "lost on time" in page and "with the machine loaded" in page
