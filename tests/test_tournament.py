"""Tournaments end to end with real subprocess bots: run, determinism, resume, Ctrl-C, the CLI."""

from __future__ import annotations

import gzip
import io
import json
import logging
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

from click.testing import CliRunner
from tournament_support import make_bots, processes_with, read_lines

from arena import tournament
from arena.cli.main import main
from arena.results.log import TIMING_KEYS
from arena.schedule import schedule

ARENA = [sys.executable, "-c", "from arena.cli.main import main; main()"]
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def field(tmp_path: Path, delay_ms: float = 0.0, marker: str = "") -> Path:
    """alpha (seeded random), beta (first move), gamma (last move), and crashy (not default)."""
    extra = ["--delay-ms", str(delay_ms)] if delay_ms else []
    if marker:
        extra += ["--marker", marker]
    return make_bots(
        tmp_path / "bots",
        {
            "alpha": ["--strategy", "seeded", *extra],
            "beta": ["--strategy", "first", *extra],
            "gamma": ["--strategy", "last", *extra],
            "crashy": ["--crash-at", "3", *extra],
        },
        hidden=("crashy",),
    )


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["run", *args], catch_exceptions=False)
    return result.exit_code, result.output


def expected_ids(bots: list[str], rounds: int, seed: int) -> list[str]:
    return [s.game_id for task in schedule(bots, rounds, seed) for s in task.games]


def wait_for(condition, timeout: float = 60.0) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


def test_a_small_tournament_end_to_end(tmp_path: Path) -> None:
    bots, out = field(tmp_path), tmp_path / "run"
    code, output = run(
        "--bots", str(bots), "--rounds", "2", "--workers", "2", "--seed", "5", "--out", str(out)
    )
    assert code == 0, output
    assert "12 of 12 games played" in output and f"Results: {out}" in output
    lines = read_lines(out / "games.jsonl")
    ids = [line["game_id"] for line in lines]
    assert sorted(ids) == expected_ids(["alpha", "beta", "gamma"], 2, 5)  # crashy left out
    for line in lines:
        assert line["version"] == 2 and line["table"] == line["seq"] // 2
        assert line["termination"] in {"normal", "turn_limit"}
        if line["termination"] == "normal":  # the game's own end is kept beside it
            assert line["end"] in {"deck_exhausted", "sixth_river_colour"}
        record = json.loads(
            gzip.decompress((out / "records" / f"{line['game_id']}.json.gz").read_bytes())
        )
        assert record["game_id"] == line["game_id"] and record["players"] == line["players"]
        assert len(record["moves"]) == sum(line["decisions"])  # type: ignore[arg-type]
    config = json.loads((out / "config.json").read_text())
    assert [b["name"] for b in config["bots"]] == ["alpha", "beta", "gamma"]
    assert config["seed"] == 5 and config["rounds"] == 2 and config["total_games"] == 12
    assert len(config["bots"][0]["hash"]) == 64
    assert {"python", "arena", "packages"} <= set(config["versions"])
    for name in ("ratings.csv", "leaderboard.md", "run.log"):
        assert (out / name).is_file(), name
    assert "finished: 12 games played" in (out / "run.log").read_text()
    pngs = sorted(out.glob("*.png"))
    assert len(pngs) == 6 and all(p.read_bytes()[:8] == PNG_MAGIC for p in pngs)
    # Each worker keeps its bot processes across games: at most one start per worker.
    for bot in ("alpha", "beta", "gamma"):
        starts = (out / "logs" / f"{bot}.stderr.log").read_text().count("started pid")
        assert 1 <= starts <= 2, (bot, starts)


def test_the_same_seed_gives_the_same_tables(tmp_path: Path) -> None:
    bots = field(tmp_path)
    one, two = tmp_path / "one", tmp_path / "two"
    assert (
        run(
            "--bots",
            str(bots),
            "--rounds",
            "2",
            "--workers",
            "2",
            "--seed",
            "11",
            "--out",
            str(one),
            "--no-charts",
        )[0]
        == 0
    )
    assert (
        run(
            "--bots",
            str(bots),
            "--rounds",
            "2",
            "--workers",
            "1",
            "--seed",
            "11",
            "--out",
            str(two),
            "--no-charts",
        )[0]
        == 0
    )
    assert (one / "ratings.csv").read_text() == (two / "ratings.csv").read_text()

    def games(folder: Path) -> list[dict[str, object]]:
        lines = sorted(read_lines(folder / "games.jsonl"), key=lambda g: str(g["game_id"]))
        return [{k: v for k, v in g.items() if k not in TIMING_KEYS} for g in lines]

    assert games(one) == games(two)


def test_named_bots_and_failures_by_reason(tmp_path: Path) -> None:
    bots, out = field(tmp_path), tmp_path / "run"
    code, output = run(
        "alpha",
        "crashy",
        "--bots",
        str(bots),
        "--rounds",
        "1",
        "--workers",
        "0",
        "--seed",
        "2",
        "--out",
        str(out),
        "--no-charts",
    )
    assert code == 0, output
    rows = {row.split(",")[1]: row for row in (out / "ratings.csv").read_text().splitlines()}
    assert rows["crashy"].endswith(",crash 2")
    assert rows["alpha"].split(",")[0] == "1"
    lines = read_lines(out / "games.jsonl")
    assert all(line["termination"] == "crash" for line in lines)


def test_resume_refuses_conflicting_options_and_plays_nothing_twice(tmp_path: Path) -> None:
    bots, out = field(tmp_path), tmp_path / "run"
    base = ["--bots", str(bots), "--workers", "0", "--out", str(out), "--no-charts"]
    assert run(*base, "--rounds", "1", "--seed", "3")[0] == 0
    code, output = run(*base, "--rounds", "1", "--seed", "3")
    assert code == 1 and "already holds a tournament; add --resume" in output
    code, output = run(*base, "--resume", "--rounds", "4", "--seed", "9")
    assert code == 1
    assert "Cannot resume" in output and "--seed 9 (the run has 3)" in output
    assert "--rounds" not in output  # more rounds extend a run (below); a wrong seed never
    assert json.loads((out / "config.json").read_text())["rounds"] == 1
    before = (out / "games.jsonl").read_text()
    code, output = run(*base, "--resume", "--rounds", "1")
    assert code == 0, output
    assert (out / "games.jsonl").read_text() == before


def test_resume_after_kill_9_loses_nothing_and_repeats_nothing(tmp_path: Path) -> None:
    marker = f"arena-test-{uuid.uuid4().hex}"
    bots, out = field(tmp_path, delay_ms=3, marker=marker), tmp_path / "run"
    command = [
        *ARENA,
        "run",
        "--bots",
        str(bots),
        "--rounds",
        "4",
        "--workers",
        "2",
        "--seed",
        "8",
        "--out",
        str(out),
        "--no-charts",
    ]
    log = out / "games.jsonl"
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        assert wait_for(lambda: log.exists() and log.read_text().count("\n") >= 4)
        process.kill()
        process.wait(10)
    finally:
        if process.poll() is None:
            process.kill()
    # The workers notice their scheduler is gone and close their bots.
    assert wait_for(lambda: not processes_with(marker), timeout=20), processes_with(marker)
    logged = read_lines(log)
    assert 4 <= len(logged) < 24
    with log.open("ab") as file:  # as if the kill had cut a write in half
        file.write(b'{"seq": 99, "game_id": "r0004-p0000')
    code, output = run("--resume", "--out", str(out), "--workers", "2", "--no-charts")
    assert code == 0, output
    assert "half-written" in output
    assert (out / "games.jsonl.partial").exists()
    ids = [str(line["game_id"]) for line in read_lines(log)]
    assert len(ids) == len(set(ids)) == 24
    assert sorted(ids) == expected_ids(["alpha", "beta", "gamma"], 4, 8)
    assert read_lines(log)[: len(logged)] == logged  # the old lines are untouched
    # And the tables are those of the same tournament played without a stop.
    again = tmp_path / "again"
    code, output = run(
        "--bots",
        str(bots),
        "--rounds",
        "4",
        "--workers",
        "2",
        "--seed",
        "8",
        "--out",
        str(again),
        "--no-charts",
    )
    assert code == 0, output
    assert (again / "ratings.csv").read_text() == (out / "ratings.csv").read_text()


def test_ctrl_c_stops_cleanly_and_leaves_no_bot_behind(tmp_path: Path) -> None:
    marker = f"arena-test-{uuid.uuid4().hex}"
    bots, out = field(tmp_path, delay_ms=5, marker=marker), tmp_path / "run"
    # Rounds enough that the run cannot finish before the signal, even on a loaded machine
    # (it stops at the signal, so more rounds cost no time).
    command = [
        *ARENA,
        "run",
        "--bots",
        str(bots),
        "--rounds",
        "60",
        "--workers",
        "2",
        "--seed",
        "4",
        "--out",
        str(out),
        "--no-charts",
    ]
    log = out / "games.jsonl"
    # A terminal's Ctrl-C signals the whole foreground process group: scheduler and workers.
    process = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        # A shell running this suite in the background ignores SIGINT, and a Python started
        # with SIGINT ignored keeps ignoring it: give the run the terminal's default back.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        assert wait_for(lambda: log.exists() and log.read_text().count("\n") >= 2)
        os.killpg(process.pid, signal.SIGINT)
        _, stderr = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, stderr
    assert b"arena run --resume --out" in stderr
    assert wait_for(lambda: not processes_with(marker), timeout=20), processes_with(marker)
    ids = [line["game_id"] for line in read_lines(log)]
    assert len(ids) == len(set(ids)) and 2 <= len(ids) < 360


def test_leaderboard_command(tmp_path: Path) -> None:
    bots, results = field(tmp_path), tmp_path / "results"
    out = results / "run-1"
    assert (
        run(
            "--bots",
            str(bots),
            "--rounds",
            "1",
            "--workers",
            "0",
            "--seed",
            "1",
            "--out",
            str(out),
            "--no-charts",
        )[0]
        == 0
    )
    runner = CliRunner()
    named = runner.invoke(main, ["leaderboard", str(out)])
    newest = runner.invoke(main, ["leaderboard", "--results", str(results)])
    assert named.exit_code == 0 and newest.exit_code == 0
    assert named.output == newest.output
    assert "6 of 6 games played" in named.output and "| 1 |" in named.output
    missing = runner.invoke(main, ["leaderboard", "--results", str(tmp_path / "none")])
    assert missing.exit_code == 1 and "No tournament found" in missing.output


def test_commands_have_help() -> None:
    runner = CliRunner()
    for command in ("run", "leaderboard"):
        result = runner.invoke(main, [command, "--help"])
        assert result.exit_code == 0 and len(result.output) > 200
    assert "--resume" in runner.invoke(main, ["run", "--help"]).output


def test_progress_is_plain_lines_when_not_a_terminal() -> None:
    import io

    from arena.cli.progress import Progress

    stream = io.StringIO()
    progress = Progress(10, stream=stream, plain_every_s=3600)
    progress.update(3, 10, 3)  # the first update is shown
    progress.update(4, 10, 4)  # then at most one line per interval...
    progress.update(10, 10, 10)  # ...and the last one
    progress.close()  # shown already: not again
    lines = stream.getvalue().splitlines()
    assert [line.split()[0] for line in lines] == ["3/10", "10/10"]
    assert "\r" not in stream.getvalue() and "games/s" in lines[-1] and "left" in lines[-1]


class ScriptedExecutor:
    """An executor that plays no real game: it returns made-up lines, failing on request."""

    workers = 2
    remote = False
    tasks_per_worker = 2
    tables_per_task = 1

    def __init__(self, failures: int) -> None:
        self.failures = failures
        self.calls = 0

    def submit(self, fn, /, *args):  # type: ignore[no-untyped-def]
        from concurrent.futures import Future

        _, task = args
        self.calls += 1
        from arena.execution import TableResult
        from arena.results.log import GameLine

        future: Future[TableResult] = Future()
        if self.failures > 0:
            self.failures -= 1
            future.set_exception(RuntimeError("a passing fault"))
            return future
        future.set_result(
            TableResult(
                [
                    GameLine(
                        seq=s.seq,
                        game_id=s.game_id,
                        players=s.players,
                        scores=(1, 0),
                        ranks=(0, 1),
                        termination="normal",
                        turns=10,
                    )
                    for s in task.games
                ]
            )
        )
        return future

    def wait_any(self, futures):  # type: ignore[no-untyped-def]
        return set(futures), set()  # done at submit time

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        pass

    def terminate(self) -> None:
        pass


def test_a_task_failing_once_is_tried_again_twice_stops_the_run(tmp_path: Path) -> None:
    import pytest

    from arena.errors import TournamentError
    from arena.players.manifest import discover_bots
    from arena.tournament import create_run, play

    bots = [b for b in discover_bots(field(tmp_path)) if b.default]
    out = tmp_path / "run"
    config = create_run(out, bots, rounds=2, seed=1, limits={})
    summary = play(out, config, workers=2, executor=ScriptedExecutor(failures=1))
    assert summary.played == 12 and not summary.interrupted
    assert "failed (try 1)" in (out / "run.log").read_text()
    other = tmp_path / "other"
    config = create_run(other, bots, rounds=2, seed=1, limits={})
    with pytest.raises(TournamentError, match="failed inside the arena 2 times"):
        play(other, config, workers=2, executor=ScriptedExecutor(failures=100))


class RemoteBatchingExecutor(ScriptedExecutor):
    """An executor on other machines that takes three tables a task, one task at a time."""

    remote = True
    tasks_per_worker = 1
    tables_per_task = 3

    def __init__(self) -> None:
        super().__init__(failures=0)
        self.tasks: list[tuple[int, bool]] = []  # (games in the task, records carried back)

    def submit(self, fn, /, *args):  # type: ignore[no-untyped-def]
        context, task = args
        self.tasks.append((len(task.games), context.carry_records))
        return super().submit(fn, *args)


def test_the_tournament_feeds_an_executor_as_its_properties_say(tmp_path: Path) -> None:
    """Issue 35: the executor declares what the tournament needs (execution.Executor), read
    as properties: tables per task, and whether its workers carry the records back."""
    from arena.players.manifest import discover_bots
    from arena.tournament import create_run, play

    bots = [b for b in discover_bots(field(tmp_path)) if b.default]
    out = tmp_path / "run"
    config = create_run(out, bots, rounds=2, seed=1, limits={})  # 6 tables of 2 games
    executor = RemoteBatchingExecutor()
    summary = play(out, config, workers=1, executor=executor)
    assert summary.played == 12
    assert executor.tasks == [(6, True), (6, True)]


class DeadWorkerExecutor(ScriptedExecutor):
    """A pool whose worker was killed: every task fails, and so does every later submit."""

    def submit(self, fn, /, *args):  # type: ignore[no-untyped-def]
        from concurrent.futures import Future
        from concurrent.futures.process import BrokenProcessPool

        self.calls += 1
        if self.calls > 1:
            raise BrokenProcessPool("A child process terminated abruptly")
        future: Future[list[dict[str, object]]] = Future()
        future.set_exception(BrokenProcessPool("A child process terminated abruptly"))
        return future


def test_a_worker_killed_from_outside_stops_the_run_with_a_sentence(tmp_path: Path) -> None:
    import pytest

    from arena.errors import TournamentError
    from arena.players.manifest import discover_bots
    from arena.tournament import create_run, play

    bots = [b for b in discover_bots(field(tmp_path)) if b.default]
    out = tmp_path / "run"
    config = create_run(out, bots, rounds=2, seed=1, limits={})
    with pytest.raises(
        TournamentError, match=r"A worker process died .* Continue it with --resume"
    ):
        play(out, config, workers=1, executor=DeadWorkerExecutor(failures=0))


def test_the_run_log_leaves_other_handlers_of_the_arena_logger_alone(tmp_path: Path) -> None:
    logger = logging.getLogger("arena")
    stream = io.StringIO()
    mine = logging.StreamHandler(stream)
    logger.addHandler(mine)
    try:
        with tournament._run_log(tmp_path):
            logging.getLogger("arena.test").warning("during the run")
        assert mine in logger.handlers
        logging.getLogger("arena.test").warning("after the run")
    finally:
        logger.removeHandler(mine)
    assert "during the run" in (tmp_path / "run.log").read_text()
    assert "after the run" in stream.getvalue()


def test_resume_with_more_rounds_plays_only_the_new_rounds(tmp_path: Path) -> None:
    """Issue 10: a finished tournament is extended by --resume --rounds N (N larger)."""
    bots, out = field(tmp_path), tmp_path / "run"
    base = ["--bots", str(bots), "--workers", "0", "--out", str(out), "--no-charts"]
    assert run(*base, "--rounds", "1", "--seed", "3")[0] == 0
    first = read_lines(out / "games.jsonl")
    code, output = run(*base, "--resume", "--rounds", "2")
    assert code == 0, output
    assert "extended from 1 to 2 rounds" in output
    lines = read_lines(out / "games.jsonl")
    assert lines[: len(first)] == first
    assert len(lines) == 2 * len(first)
    assert len({line["game_id"] for line in lines}) == len(lines)
    assert {line["round"] for line in lines[len(first) :]} == {2}
    assert json.loads((out / "config.json").read_text())["total_games"] == len(lines)
    code, output = run(*base, "--resume", "--rounds", "1")
    assert code == 1 and "--rounds 1 (the run has 2)" in output


def test_add_plays_the_default_field_and_the_added_bot(tmp_path: Path) -> None:
    """Issue 10: `arena run --add PATH` is the default field plus the named bot."""
    bots, out = field(tmp_path), tmp_path / "run"
    code, output = run(
        "--bots", str(bots), "--add", str(bots / "crashy"), "--workers", "0", "--seed", "4",
        "--out", str(out), "--no-charts",
    )  # fmt: skip
    assert code == 0, output
    names = [bot["name"] for bot in json.loads((out / "config.json").read_text())["bots"]]
    assert names == ["alpha", "beta", "crashy", "gamma"]


def test_a_gauntlet_plays_only_the_candidates_tables(tmp_path: Path) -> None:
    """Issue 14: --gauntlet CANDIDATE meets every other bot; the others do not meet."""
    bots, out = field(tmp_path), tmp_path / "run"
    code, output = run(
        "--bots", str(bots), "--gauntlet", "crashy", "--rounds", "2", "--workers", "0",
        "--seed", "4", "--out", str(out), "--no-charts",
    )  # fmt: skip
    assert code == 0, output
    lines = read_lines(out / "games.jsonl")
    assert len(lines) == 2 * 3 * 2  # rounds x opponents x seatings
    assert all("crashy" in line["players"] for line in lines)  # type: ignore[operator]
    assert {name for line in lines for name in line["players"]} == {  # type: ignore[attr-defined]
        "alpha", "beta", "gamma", "crashy",
    }  # fmt: skip
    board = (out / "leaderboard.md").read_text()
    assert "## Gauntlet: crashy against each opponent" in board
    assert "| alpha | 4 |" in board
    code, output = run("--bots", str(bots), "--gauntlet", "nobody", "--out", str(tmp_path / "x"))
    assert code != 0 and "No bot 'nobody'" in output


def test_until_decided_stops_a_pairing_when_its_sprt_decides(tmp_path: Path) -> None:
    """Issue 14: each pairing stops once its SPRT accepts H0 or H1; the rest is not played."""
    root = Path(__file__).resolve().parents[1] / "bots"
    out = tmp_path / "run"
    code, output = run(
        str(root / "greedy"), str(root / "random"), "--until-decided", "0,10", "--rounds", "400",
        "--workers", "0", "--seed", "2", "--out", str(out), "--no-charts",
    )  # fmt: skip
    assert code == 0, output
    lines = read_lines(out / "games.jsonl")
    assert 20 <= len(lines) < 800
    board = (out / "leaderboard.md").read_text()
    assert "| greedy | random |" in board and "| H1 |" in board
    assert json.loads((out / "config.json").read_text())["until_decided"] == [0.0, 10.0]
    code, output = run(str(root / "random"), str(root / "greedy"), "--until-decided", "10,0")
    assert code != 0 and "ELO0 must be less than ELO1" in output
