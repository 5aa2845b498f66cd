"""A league plays (arena/league/league.py, issue 24): submissions checked and admitted, tables
played with real bot processes, games stored once, across a restart."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from arena.cli.main import main
from arena.league.checking import CheckPolicy
from arena.league.league import League
from arena.league.store import Author, StoreError
from arena.league.uploads import UploadError, archive_folder
from arena.players.limits import Limits
from tests.league_support import BOTS, bot_archive
from tests.postgres_support import fresh_database

LIMITS = Limits(move_ms=5000, startup_ms=20_000)

THREADS_CLEAN = pytest.mark.filterwarnings("error::pytest.PytestUnhandledThreadExceptionWarning")
"""On a test of a league on Dask: an exception in the league's thread fails it (a client
made beside the league's once made the league's wait run on the wrong event loop)."""


def _submit_as_ada(league: League, tmp_path: Path, bots: list[tuple[str, str]]) -> Author:
    """Ada, a new author, submits `bots` (bundled source, name), each checked before the next."""
    ada = league.store.author_of(league.store.add_author("ada"))
    assert ada is not None
    for source, name in bots:
        league.submit(ada, bot_archive(tmp_path, source, name), wait=True)
    return ada


def _play_until(league: League, games: int) -> None:
    league.start()
    deadline = time.monotonic() + 240
    while league.store.game_count() < games and time.monotonic() < deadline:
        time.sleep(0.2)
    league.stop.set()
    for thread in league.threads:
        thread.join(timeout=60)
    league.threads.clear()
    league.stop.clear()


def test_submitted_bots_are_checked_then_play_and_every_game_is_stored_once(
    tmp_path: Path, league_db: str
) -> None:
    league = League(tmp_path / "league", workers=0, limits=LIMITS, db=league_db)
    ada = league.store.author_of(league.store.add_author("ada"))
    bob = league.store.author_of(league.store.add_author("bob"))
    assert ada is not None and bob is not None
    first = league.submit(ada, bot_archive(tmp_path, "random", "alpha"), wait=True)
    second = league.submit(bob, bot_archive(tmp_path, "greedy", "beta"), wait=True)
    assert (first.status, second.status) == ("active", "active"), (first, second)
    _play_until(league, 6)
    games = league.store.games()
    assert len(games) >= 6
    assert {tuple(sorted(g.players)) for g in games} == {("alpha", "beta")}
    assert all((league.folder / "records" / f"{g.game_id}.json.gz").exists() for g in games)
    ids = [g.game_id for g in games]
    league.close()
    # A restart continues: new tables, new ids, the old games kept once.
    again = League(tmp_path / "league", workers=0, limits=LIMITS, db=league_db)
    _play_until(again, len(ids) + 2)
    later = [g.game_id for g in again.store.games()]
    assert later[: len(ids)] == ids and len(set(later)) == len(later) > len(ids)
    again.close()
    # The export is a run folder the batch commands read.
    out = tmp_path / "export"
    result = CliRunner().invoke(
        main,
        ["serve", "--league", str(tmp_path / "league"), "--db", league_db, "--export", str(out)],
    )
    assert result.exit_code == 0 and f"{len(later)} games written" in result.output
    board = CliRunner().invoke(main, ["leaderboard", str(out)])
    assert board.exit_code == 0 and "alpha" in board.output and "beta" in board.output
    report = CliRunner().invoke(main, ["report", str(out)])
    assert report.exit_code == 0, report.output
    assert len(list((out / "records").iterdir())) == len(later)


def test_a_bot_that_fails_its_check_is_not_matched_and_says_why(tmp_path: Path) -> None:
    league = League(tmp_path / "league", workers=0, limits=LIMITS)
    ada = league.store.author_of(league.store.add_author("ada"))
    assert ada is not None
    folder = tmp_path / "src" / "broken"
    folder.mkdir(parents=True)
    (folder / "bot.toml").write_text(
        'name = "broken"\ncommand = ["python3", "bot.py"]\ngames = ["mandala"]\n'
    )
    (folder / "bot.py").write_text("import sys\nsys.exit(3)\n")
    bot = league.submit(ada, archive_folder(folder, tmp_path), wait=True)
    assert bot.status == "failed" and bot.message
    assert league.store.bots("active") == []
    league.close()


def test_only_its_author_retires_a_bot_and_bad_uploads_leave_nothing(tmp_path: Path) -> None:
    league = League(tmp_path / "league", workers=0, limits=LIMITS)
    ada = league.store.author_of(league.store.add_author("ada"))
    bob = league.store.author_of(league.store.add_author("bob"))
    assert ada is not None and bob is not None
    bot = league.submit(ada, bot_archive(tmp_path, "random", "alpha"), wait=True)
    with pytest.raises(StoreError, match="belongs to ada"):
        league.retire(bob, bot.label)
    assert league.retire(ada, bot.label).status == "retired"
    junk = tmp_path / "junk.zip"
    junk.write_text("not an archive")
    with pytest.raises(UploadError):
        league.submit(ada, junk)
    assert [p.name for p in (league.folder / "bots").iterdir()] == ["alpha"]
    stuck = league.store.add_bot("beta", ada)  # as if the league died during its check
    with pytest.raises(StoreError, match="belongs to ada; you may remove only yours"):
        league.remove(bob, bot.label)
    with pytest.raises(StoreError, match="being checked"):
        league.remove(ada, "beta")
    assert league.remove(ada, bot.label).status == "removed"
    assert (league.folder / "bots" / "alpha").is_dir()  # a table in flight may still use it
    league.close()
    again = League(tmp_path / "league", workers=0, limits=LIMITS)
    again.start()  # the process that plays it next puts right what was left half done
    assert again.store.bot_by_id(stuck.id).status == "failed"  # type: ignore[union-attr]
    assert not (again.folder / "bots" / "alpha").exists()  # gone at the restart
    again.close()


@THREADS_CLEAN
def test_a_league_plays_on_a_dask_local_cluster(tmp_path: Path) -> None:
    from arena.cli.serve import executor_factory

    league = League(
        tmp_path / "league",
        workers=1,
        limits=LIMITS,
        executor_factory=executor_factory("local:1", None),
    )
    _submit_as_ada(league, tmp_path, [("random", "alpha"), ("greedy", "beta")])
    _play_until(league, 4)
    games = league.store.games()
    assert len(games) >= 4 and len({g.game_id for g in games}) == len(games)
    assert all((league.folder / "records" / f"{g.game_id}.json.gz").exists() for g in games)
    league.close()


def test_a_postgresql_league_plays_on_when_the_server_drops_its_connection(
    tmp_path: Path, postgres_url: str
) -> None:
    import psycopg

    where = fresh_database(postgres_url)
    league = League(tmp_path / "league", workers=0, limits=LIMITS, db=where)
    _submit_as_ada(league, tmp_path, [("random", "alpha"), ("greedy", "beta")])
    _play_until(league, 2)
    before = league.store.game_count()
    with psycopg.connect(postgres_url, autocommit=True) as admin:  # as a server restart would
        dropped = admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = %s AND pid <> pg_backend_pid()",
            (where.rsplit("/", 1)[1],),
        ).fetchall()
    assert dropped
    _play_until(league, before + 4)
    games = league.store.games()
    assert len(games) >= before + 4 and len({g.game_id for g in games}) == len(games)
    league.close()


def test_a_league_keeps_its_game_and_may_change_its_table_size(tmp_path: Path) -> None:
    from arena.league.boards import leaderboard

    folder = tmp_path / "league"
    league = League(folder, game="flowers", seats=3, workers=0, limits=LIMITS)
    ada = league.store.author_of(league.store.add_author("ada"))
    assert ada is not None
    for name in ("alpha", "beta", "gamma"):
        bot = league.submit(ada, bot_archive(tmp_path, "random", name), wait=True)
        assert bot.status == "active", bot
    _play_until(league, 3)
    three = league.store.game_count()
    league.close()
    with pytest.raises(StoreError, match="This league plays flowers; start it with --game flowers"):
        League(folder, game="mandala", workers=0)
    with pytest.raises(StoreError, match="This league plays flowers"):
        League(folder, game_options={"turn_limit": 50}, workers=0)
    again = League(folder, seats=2, workers=0, limits=LIMITS)  # the game kept, a new size
    assert (again.game, again.seats) == ("flowers", 2)
    _play_until(again, three + 2)
    sizes = Counter(len(line.players) for line in again.store.games())
    assert sizes[3] == three and sizes[2] >= 2
    at_three = leaderboard(again, seats=3)
    assert {row["bot"] for row in at_three} == {"alpha", "beta", "gamma"}
    assert sum(row["games"] for row in at_three) == 3 * three
    at_two = leaderboard(again, seats=2)
    assert sum(row["games"] for row in at_two) == 2 * sizes[2]
    assert leaderboard(again, seats=4) == []
    again.close()
    kept = League(folder, workers=0)
    assert (kept.game, kept.seats) == ("flowers", 2)
    kept.close()


@contextmanager
def _remote_league(
    tmp_path: Path,
    bots: list[tuple[str, str]],
    checking: CheckPolicy | None = None,
    archives: tuple[Path, ...] = (),
) -> Iterator[tuple[Any, League]]:
    """A Dask LocalCluster reached by its address, as another machine's would be, and a
    league on it (building under `checking`) with `bots` (bundled source, name) and
    `archives` submitted by ada and checked."""
    from distributed import LocalCluster

    from arena.cluster import NO_DASHBOARD, DaskExecutor

    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, **NO_DASHBOARD) as cluster:
        executor = DaskExecutor(address=cluster.scheduler_address)
        assert executor.remote
        league = League(
            tmp_path / "league", workers=1, limits=LIMITS, executor_factory=lambda n: executor,
            checking=checking,
        )  # fmt: skip
        ada = _submit_as_ada(league, tmp_path, bots)
        for archive in archives:
            assert league.submit(ada, archive, wait=True).status == "active"
        try:
            yield cluster, league
        finally:
            league.close()


@THREADS_CLEAN
def test_a_league_ships_its_bots_to_dask_workers_of_other_machines(tmp_path: Path) -> None:
    """Workers reached with --scheduler may not see the league's folder: each bot version is
    installed on them by a plugin (into the worker's own directory, built there) and the
    records come back with the results."""
    from distributed import Client

    from arena.execution import local_folders

    with _remote_league(tmp_path, [("random", "alpha"), ("greedy", "beta")]) as (cluster, league):
        _play_until(league, 4)
        assert league.remote
        games = league.store.games()
        assert len(games) >= 4 and all(g.termination == "normal" for g in games), games
        assert all((league.folder / "records" / f"{g.game_id}.json.gz").exists() for g in games)
        with Client(cluster.scheduler_address) as client:
            folders = next(iter(client.run(local_folders).values()))
        installed = {name: path for name, (path, broken) in folders.items() if broken is None}
        assert set(installed) == {"alpha", "beta"}
        assert all(league.folder not in path.parents for path in installed.values())
        assert all((path / "bot.toml").is_file() for path in installed.values())


def test_a_second_league_process_on_one_database_is_refused(tmp_path: Path, league_db: str) -> None:
    first = League(tmp_path / "a", workers=0, db=league_db)
    first.start()
    second = League(tmp_path / "b", workers=0, db=league_db)  # another folder, the same store
    try:
        with pytest.raises(StoreError, match="Another arena serve is playing a league on the"):
            second.start()
    finally:
        second.close()
        first.close()
    again = League(tmp_path / "b", workers=0, db=league_db)  # released with the first
    again.start()
    again.close()


@THREADS_CLEAN
def test_a_bot_that_cannot_be_shipped_loses_its_games_and_the_league_plays_on(
    tmp_path: Path,
) -> None:
    """A bot whose folder, once built, holds a link out of it (its build made one) cannot be
    unpacked on another machine: it loses its games there, saying why; the others play."""
    bots = [("random", "alpha"), ("greedy", "beta"), ("random", "gamma")]
    with _remote_league(tmp_path, bots) as (_, league):
        (league.folder / "bots" / "gamma" / "secrets").symlink_to("/etc/passwd")
        _play_until(league, 12)
        games = league.store.games()
    with_gamma = [g for g in games if "gamma" in g.players]
    without = [g for g in games if "gamma" not in g.players]
    assert with_gamma and without
    for game in with_gamma:
        assert game.faulty_seat == game.players.index("gamma")
        assert "cannot be installed on worker" in game.reason, game.reason
    assert all(game.termination == "normal" for game in without)


SECOND_BUILD_HEAVY = """if [ -f built-once ]; then
  for n in 1 2 3; do head -c 600000 /dev/zero > data$n.bin; done
else
  touch built-once
fi
"""
"""A build light the first time (the league's check), 1.8 MB the second (on a worker)."""


@THREADS_CLEAN
def test_remote_workers_build_and_play_under_the_leagues_limits_not_the_defaults(
    tmp_path: Path,
) -> None:
    """Issue 42, point 6: a worker's build keeps to the league's quota (1 MiB here; the
    defaults have none), so a version whose build there outgrows it loses its games there,
    saying why; and the players there have the league's playing limits (5 s a move, 20 s to
    start; the defaults: 1 s, 10 s)."""
    from distributed import Client

    folder = tmp_path / "src" / "heavy"
    folder.mkdir(parents=True)
    (folder / "bot.py").write_text((BOTS / "random" / "bot.py").read_text())
    (folder / "build.sh").write_text(SECOND_BUILD_HEAVY)
    (folder / "bot.toml").write_text(
        'name = "heavy"\ncommand = ["python3", "bot.py"]\ngames = ["mandala"]\n'
        'build = ["sh", "build.sh"]\n'
    )
    heavy = archive_folder(folder, tmp_path)
    policy = CheckPolicy(bot_disk_mb=1)
    bots = [("random", "alpha"), ("greedy", "beta")]

    def worker_limits() -> dict[str, tuple[int, int]]:  # run on the worker: its players
        from arena import execution

        return {
            name: (player.limits.move_ms, player.limits.startup_ms)
            for name, player in execution._players.items()
        }

    with _remote_league(tmp_path, bots, policy, (heavy,)) as (cluster, league):
        league.start()
        deadline = time.monotonic() + 240
        while league.store.game_count() < 4 and time.monotonic() < deadline:
            time.sleep(0.2)
        # A client of the test's own, the newest in this process, while the league plays on:
        # the league still waits for its tables on its own client's event loop.
        with Client(cluster.scheduler_address) as client:
            while league.store.game_count() < 12 and time.monotonic() < deadline:
                time.sleep(0.2)
            played = next(iter(client.run(worker_limits).values()))  # while they play
        league.stop.set()
        for thread in league.threads:
            thread.join(timeout=60)
        games = league.store.games()
    assert played and set(played.values()) == {(LIMITS.move_ms, LIMITS.startup_ms)}, played
    with_heavy = [g for g in games if "heavy" in g.players]
    assert with_heavy and any("heavy" not in g.players for g in games)
    for game in with_heavy:
        assert game.faulty_seat == game.players.index("heavy")
        assert "a bot version may hold at most 1 MiB" in game.reason
    assert all(g.termination == "normal" for g in games if "heavy" not in g.players)
