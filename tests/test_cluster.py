"""Issue 12: tournaments on a real Dask LocalCluster (worker processes, not threads)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
import warnings
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from distributed import Client, LocalCluster
from tournament_support import make_bots, processes_with, read_lines

from arena import tournament
from arena.cli.main import main
from arena.cluster import NO_DASHBOARD, ClusterError, DaskExecutor, local_workers
from arena.execution import WorkerContext, play_table
from arena.players.manifest import load_manifest
from arena.schedule import GameSlot, TableTask
from tests.waiting import until


def field(root: Path, marker: str = "", delay_ms: float = 0.0) -> Path:
    """Deterministic fake bots: the same deals give the same games on any executor."""
    extra = ["--marker", marker] if marker else []
    if delay_ms:
        extra += ["--delay-ms", str(delay_ms)]
    return make_bots(
        root / "bots",
        {"alpha": ["--strategy", "seeded", *extra], "beta": ["--strategy", "first", *extra],
         "gamma": ["--strategy", "last", *extra]},
    )  # fmt: skip


PATIENT = ("--time-limit", "20000")
"""20 s a move: the games compared on two executors are the same on a loaded machine too (a
move lost on time in one of them, seen in a run under load, changed its ratings)."""


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["run", *args], catch_exceptions=False)
    return result.exit_code, result.output


def test_a_tournament_on_a_local_cluster_equals_the_same_on_the_pool(tmp_path: Path) -> None:
    bots = field(tmp_path)
    common = ["--bots", str(bots), "--rounds", "3", "--seed", "8", "--no-charts", *PATIENT]
    code, output = run(*common, "--workers", "2", "--out", str(tmp_path / "pool"))
    assert code == 0, output
    code, output = run(*common, "--cluster", "local:2", "--out", str(tmp_path / "dask"))
    assert code == 0, output
    pool, dask = tmp_path / "pool", tmp_path / "dask"
    assert (pool / "ratings.csv").read_text() == (dask / "ratings.csv").read_text()

    def games(folder: Path) -> list[tuple[object, ...]]:
        lines = read_lines(folder / "games.jsonl")
        return sorted((g["game_id"], tuple(g["scores"]), g["termination"]) for g in lines)  # type: ignore[arg-type]

    assert games(pool) == games(dask)
    assert len(list((dask / "records").iterdir())) == len(games(dask)) == 18
    config = json.loads((dask / "config.json").read_text())
    assert len(config["workers"]) == 2
    assert all(facts["isolation"] == config["sandbox"]["isolation"]
               for facts in config["workers"].values())  # fmt: skip
    logs = sorted(path.name for path in (dask / "logs").glob("worker-*.log"))
    assert len(logs) == 2 and "ready" in (dask / "logs" / logs[0]).read_text()


def test_resume_on_a_cluster_what_the_pool_started(tmp_path: Path) -> None:
    bots = field(tmp_path)
    out = tmp_path / "run"
    common = ["--bots", str(bots), "--seed", "4", "--no-charts", "--out", str(out), *PATIENT]
    code, output = run(*common, "--rounds", "1", "--workers", "1")
    assert code == 0, output
    code, output = run("--resume", "--rounds", "3", "--out", str(out), "--cluster", "local:2")
    assert code == 0, output
    ids = [line["game_id"] for line in read_lines(out / "games.jsonl")]
    assert len(ids) == len(set(ids)) == 18


def test_a_worker_killed_mid_run_loses_no_game_and_repeats_none(tmp_path: Path) -> None:
    marker = f"arena-cluster-{uuid.uuid4().hex}"
    bots_dir = field(tmp_path, marker=marker, delay_ms=3)
    bots = [load_manifest(folder) for folder in sorted(bots_dir.iterdir())]
    run_dir = tmp_path / "run"
    slow = {"move_ms": 20_000, "startup_ms": 60_000}  # a loaded machine: no game lost on time
    config = tournament.create_run(run_dir, bots, rounds=8, seed=2, limits=slow)
    executor = DaskExecutor(local=2)
    executor.prepare(run_dir, config.limits)
    victims = list(executor.worker_pids().values())
    log = run_dir / "games.jsonl"

    killed_at: list[int] = []

    def kill_one_worker() -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            logged = log.read_text().count("\n") if log.exists() else 0
            if logged >= 4:
                os.kill(victims[0], signal.SIGKILL)
                killed_at.append(logged)
                return
            time.sleep(0.02)

    killer = threading.Thread(target=kill_one_worker)
    killer.start()
    summary = tournament.play(run_dir, config, workers=2, executor=executor)
    killer.join()
    assert killed_at and killed_at[0] < 40  # killed while most games were still to play
    lines = read_lines(log)
    ids = [line["game_id"] for line in lines]
    assert summary.done == config.total_games == len(ids) == len(set(ids)) == 48
    assert len(list((run_dir / "records").iterdir())) == 48
    assert {line["termination"] for line in lines} <= {"normal", "turn_limit"}
    # the cluster is closed: no bot of this run is left anywhere
    deadline = time.monotonic() + 20
    while processes_with(marker) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert processes_with(marker) == []


def test_an_unreachable_scheduler_is_one_sentence(tmp_path: Path) -> None:
    bots = field(tmp_path)
    out = tmp_path / "run"
    code, output = run("--bots", str(bots), "--scheduler", "tcp://127.0.0.1:9", "--out", str(out))
    assert code == 1
    assert (
        output.strip()
        .splitlines()[-1]
        .startswith("Error: Cannot reach the Dask scheduler at tcp://127.0.0.1:9")
    )
    assert "Traceback" not in output and not (out / "config.json").exists()


@pytest.mark.parametrize("spec", ["local", "local:0", "remote:2", "local:two"])
def test_a_wrong_cluster_is_one_sentence(spec: str) -> None:
    with pytest.raises(ClusterError, match="--cluster takes local:N"):
        local_workers(spec)
    code, output = run("--cluster", spec, "--rounds", "1")
    assert code == 1 and "--cluster takes local:N" in output


def _address(scheduler_file: Path) -> str | None:
    """The address in a scheduler's file, once it is whole."""
    try:
        return str(json.loads(scheduler_file.read_text())["address"])
    except (ValueError, KeyError):
        return None


def test_a_running_cluster_of_dask_scheduler_and_dask_worker(tmp_path: Path) -> None:
    """`dask scheduler` and `dask worker` as a user starts them; `--scheduler` plays on them:
    records come back with the results, bots are made ready on the worker, and the games
    equal the pool's."""
    bin_dir = Path(sys.executable).parent
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    told = tmp_path / "scheduler.json"  # where it listens: any free port of the loopback
    scheduler = subprocess.Popen(
        [str(bin_dir / "dask"), "scheduler", "--host", "127.0.0.1", "--port", "0",
         "--no-dashboard", "--dashboard-address", "127.0.0.1:0", "--scheduler-file", str(told)],
        **quiet,
    )  # fmt: skip
    address = until(lambda: told.exists() and _address(told), 60, what="the scheduler's file")
    worker = subprocess.Popen(
        [str(bin_dir / "dask"), "worker", address, "--nworkers", "1", "--nthreads", "1",
         "--no-dashboard", "--name", "far-away", "--host", "127.0.0.1"], **quiet,
    )  # fmt: skip
    try:
        with Client(address, timeout=30) as client:
            client.wait_for_workers(1, timeout=30)
        bots = field(tmp_path)
        common = ["--bots", str(bots), "--rounds", "2", "--seed", "6", "--no-charts", *PATIENT]
        code, output = run(*common, "--scheduler", address, "--out", str(tmp_path / "far"))
        assert code == 0, output
        code, output = run(*common, "--workers", "1", "--out", str(tmp_path / "pool"))
        assert code == 0, output
        far, pool = tmp_path / "far", tmp_path / "pool"
        assert (far / "ratings.csv").read_text() == (pool / "ratings.csv").read_text()
        assert len(list((far / "records").iterdir())) == 12  # carried back by the results
        workers = json.loads((far / "config.json").read_text())["workers"]
        assert len(workers) == 1
    finally:
        worker.terminate()
        scheduler.terminate()
        worker.wait(30)
        scheduler.wait(30)


def test_a_stop_ends_a_running_table_quietly_and_closes_its_bots(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    """A league (or a tournament) on Dask stopping while a table plays: the table ends
    without failing under its closed bots (it logged 'Bad file descriptor' or an
    AssertionError as "Compute Failed"), its bots are gone, and the worker serves the next
    executor. The worker outlives the executor here, as a --scheduler cluster's does."""
    marker = f"arena-stop-{uuid.uuid4().hex}"
    bots = [load_manifest(folder) for folder in sorted(field(tmp_path, marker, 300).iterdir())]
    context = WorkerContext(
        run_id="stop", bots=tuple(bots[:2]), limits={"move_ms": 20_000, "startup_ms": 60_000}
    )
    games = tuple(
        GameSlot(f"g{n}", n, 1, 0, n, 5, ("alpha", "beta")[:: 1 if n % 2 else -1]) for n in (1, 2)
    )  # 300 ms a move: the table plays for minutes
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, **NO_DASHBOARD) as cluster:
        executor = DaskExecutor(address=cluster.scheduler_address)
        try:
            executor.prepare(tmp_path, {})
            running = executor.submit(play_table, context, TableTask(0, 1, 5, games))
            until(lambda: processes_with(marker), 60, what="the table's bots")
            assert not running.done()
        finally:
            executor.shutdown()
        worker_log = next((tmp_path / "logs").glob("worker-*.log"))
        until(lambda: "table 0 stopped" in worker_log.read_text(), 60, what="the table's end")
        assert processes_with(marker) == []
        quick = [load_manifest(folder) for folder in sorted(field(tmp_path / "quick").iterdir())]
        again = DaskExecutor(address=cluster.scheduler_address)  # the worker plays again
        try:
            context = replace(context, run_id="again", bots=tuple(quick[:2]))
            done = again.submit(play_table, context, TableTask(1, 1, 5, games[:1]))
            assert [line.game_id for line in done.result(timeout=120).lines] == ["g1"]
        finally:
            again.shutdown()
    errors = capfd.readouterr().err
    for failure in ("Compute Failed", "Traceback", "Bad file descriptor", "AssertionError"):
        assert failure not in errors, errors


def test_a_local_cluster_leaves_port_8787_alone() -> None:
    """Dask's scheduler starts an HTTP server on 8787 unless told, and warns when another
    cluster (or anything) has that port: ours has no dashboard and takes a free port."""
    holder = socket.socket()
    with contextlib.suppress(OSError):  # taken, as by another cluster (or it already is)
        holder.bind(("127.0.0.1", 8787))
    try:
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            executor = DaskExecutor(local=1)
        try:
            services = executor._client.scheduler_info()["services"]
        finally:
            executor.shutdown()
    finally:
        holder.close()
    assert [str(w.message) for w in seen if "8787" in str(w.message)] == []
    assert services.get("dashboard") != 8787
