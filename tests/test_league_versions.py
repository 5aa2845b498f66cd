"""Issue 32, item 2: versions that make sense, tried as an author would. Resubmitting the
same code is refused ("no change since v2") and stores nothing; a new version is tested
against its author's last active version, never a failed one (whose test never played and
said "continue" for ever), or said to be untested; a bot's page lists its versions with
their verdicts and games. Real archives, real bots, real HTTP on the loopback."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from arena.league.league import League
from arena.league.store import CUT_SHORT, MIGRATIONS, Author, Store, StoreError
from arena.league.uploads import archive_folder
from arena.players.limits import Limits
from tests.league_support import Site, bot_archive, served


def _broken(tmp_path: Path, name: str) -> Path:
    """An archive of a bot `name` that fails its check (it exits at once)."""
    folder = tmp_path / "src" / name
    folder.mkdir(parents=True)
    (folder / "bot.toml").write_text(
        f'name = "{name}"\ncommand = ["python3", "bot.py"]\ngames = ["mandala"]\n'
    )
    (folder / "bot.py").write_text("import sys\nsys.exit(3)\n")
    return archive_folder(folder, tmp_path)


def _post(site: Site, archive: Path, token: str) -> tuple[int, Any]:
    return site.call("POST", "/api/bots", token, archive.read_bytes())


def _submit(site: Site, token: str, archive: Path) -> str:
    """Submitted and checked (waited for); its label."""
    author = site.league.store.author_of(token)
    assert author is not None
    return site.league.submit(author, archive, wait=True).label


def test_an_identical_upload_is_refused_in_one_sentence_and_nothing_is_stored(
    tmp_path: Path,
) -> None:
    with served(tmp_path) as site:
        status, answer = _post(site, bot_archive(tmp_path / "a", "random", "mine"), site.ada)
        assert status == 202 and answer["bot"] == "mine"
        # the same sources archived again (another archive, other times): refused
        status, answer = _post(site, bot_archive(tmp_path / "b", "random", "mine"), site.ada)
        assert status == 400, answer
        assert (
            answer["error"].startswith("No change since v1: ") and answer["error"].count(".") <= 2
        )
        assert "change the bot" in answer["error"]
        status, answer = _post(site, bot_archive(tmp_path / "c", "greedy", "mine"), site.ada)
        assert status == 202 and answer["bot"] == "mine.v2"
        for again, since in (("random", "v1"), ("greedy", "v2")):  # any earlier version
            archive = bot_archive(tmp_path / f"again-{again}", again, "mine")
            status, answer = _post(site, archive, site.ada)
            assert status == 400 and answer["error"].startswith(f"No change since {since}: ")
        # nothing stored: no version, no folder, no leftover
        with site.league.lock:
            assert [bot.label for bot in site.league.store.bots()] == ["mine", "mine.v2"]
        assert sorted(path.name for path in (site.league.folder / "bots").iterdir()) == [
            "mine",
            "mine.v2",
        ]
        # another author's bot of the same sources is not "no change"
        status, answer = _post(site, bot_archive(tmp_path / "d", "random", "theirs"), site.bob)
        assert status == 202 and answer["bot"] == "theirs"


def test_a_version_after_a_failed_one_is_untested_not_continue_for_ever(tmp_path: Path) -> None:
    with served(tmp_path) as site:
        assert _submit(site, site.ada, _broken(tmp_path / "1", "mine")) == "mine"
        assert _submit(site, site.ada, bot_archive(tmp_path / "2", "random", "mine")) == "mine.v2"
        status, bot = site.call("GET", "/api/bots/mine.v2")
        assert status == 200 and bot["status"] == "active"
        # before: {"against": "mine", "games": 0, "verdict": "continue"}, for ever
        assert bot["sprt"]["verdict"] == "untested" and bot["sprt"]["against"] is None
        assert bot["sprt"]["words"] == "v2 is untested: no earlier version is active"
        assert [(v["bot"], v["status"]) for v in bot["versions"]] == [
            ("mine", "failed"),
            ("mine.v2", "active"),
        ]
        assert bot["versions"][0]["sprt"] is None  # a first version has nothing to test
        assert bot["versions"][1]["sprt"]["verdict"] == "untested"


def test_a_new_version_is_tested_against_the_last_active_one(tmp_path: Path) -> None:
    with served(tmp_path) as site:
        _submit(site, site.ada, bot_archive(tmp_path / "1", "random", "mine"))
        assert _submit(site, site.ada, _broken(tmp_path / "2", "mine")) == "mine.v2"
        _submit(site, site.ada, bot_archive(tmp_path / "3", "greedy", "mine"))
        _submit(site, site.bob, bot_archive(tmp_path / "4", "random", "other"))
        status, bot = site.call("GET", "/api/bots/mine.v3")
        assert status == 200 and bot["status"] == "active"
        assert bot["sprt"]["against"] == "mine" and bot["sprt"]["verdict"] == "continue"
        site.league.start()
        deadline = time.monotonic() + 300  # the test's tables are played (a busy machine)
        while time.monotonic() < deadline:
            bot = site.call("GET", "/api/bots/mine.v3")[1]
            if bot["sprt"]["games"] >= 4:
                break
            time.sleep(0.3)
        site.league.set_paused(True)
        assert bot["sprt"]["games"] >= 4 and bot["sprt"]["against"] == "mine", bot["sprt"]
        versions = {v["bot"]: v for v in bot["versions"]}
        assert [v["bot"] for v in bot["versions"]] == ["mine", "mine.v2", "mine.v3"]
        assert versions["mine.v2"]["status"] == "failed" and versions["mine.v2"]["games"] == 0
        assert versions["mine.v2"]["sprt"]["words"] == "v2 is untested: it failed its check"
        assert versions["mine.v3"]["games"] >= 4 and versions["mine"]["games"] >= 4
        for shown in (versions["mine.v3"]["sprt"], bot["sprt"]):
            assert shown["against"] == "mine" and isinstance(shown["llr"], float)
        # the page draws the versions table and the games each head-to-head figure rests on
        page = site.call("GET", "/")[1]
        assert 'id="versions-table"' in page and '"% of "' in page


def test_a_retired_opponent_stops_the_test_rather_than_continue_for_ever(tmp_path: Path) -> None:
    with served(tmp_path) as site:
        _submit(site, site.ada, bot_archive(tmp_path / "1", "random", "mine"))
        _submit(site, site.ada, bot_archive(tmp_path / "2", "greedy", "mine"))
        _submit(site, site.bob, bot_archive(tmp_path / "3", "random", "other"))
        site.league.start()
        deadline = time.monotonic() + 300
        while (
            time.monotonic() < deadline
            and site.call("GET", "/api/bots/mine.v2")[1]["sprt"]["games"] < 2
        ):
            time.sleep(0.3)
        assert site.call("POST", "/api/bots/mine/retire", site.ada)[0] == 200
        bot = site.call("GET", "/api/bots/mine.v2")[1]
        if bot["sprt"]["verdict"] in ("H0", "H1"):  # decided in two games: nothing to stop
            return
        assert bot["sprt"]["verdict"] == "stopped" and bot["sprt"]["against"] == "mine"
        assert (
            "stopped undecided" in bot["sprt"]["words"]
            and "(v1 is retired)" in bot["sprt"]["words"]
        )


def test_the_source_hash_is_kept_by_a_migration_and_an_old_league_opens(
    league_db: str, tmp_path: Path
) -> None:
    store = Store(league_db)
    ada = store.author_of(store.add_author("ada"))
    assert ada is not None and store.version == len(MIGRATIONS) >= 4
    assert store.add_bot("mine", ada, "a" * 64).version == 1
    try:
        store.add_bot("mine", ada, "a" * 64)
    except StoreError as error:
        assert str(error).startswith("No change since v1: these sources are those of mine")
    else:
        raise AssertionError("an identical version was stored")
    assert store.add_bot("mine", ada, "b" * 64).version == 2
    assert store.add_bot("mine", ada, None).version == 3  # no hash: never called identical
    store.close()
    # a league file of schema 3 (before the hash) opens, its versions kept, none identical
    path = tmp_path / "old.sqlite"
    old = sqlite3.connect(path, isolation_level=None)
    for step in MIGRATIONS[:3]:
        for statement in step.format(serial="INTEGER PRIMARY KEY", float="REAL").split(";"):
            if statement.strip():
                old.execute(statement)
    old.execute("PRAGMA user_version = 3")
    old.execute(
        "INSERT INTO authors (name, name_key, token_hash, created) VALUES ('ada', 'ada', 'h', 0)"
    )
    old.execute(
        "INSERT INTO bots (name, name_key, version, author_id, folder, status, created) "
        "VALUES ('mine', 'mine', 1, 1, 'bots/mine', 'active', 0)"
    )
    old.close()
    store = Store(path)
    assert store.version == len(MIGRATIONS) and [bot.label for bot in store.bots()] == ["mine"]
    assert store.add_bot("mine", Author(1, "ada", False), "a" * 64).version == 2
    store.close()


def test_the_same_sources_may_come_again_only_after_a_check_the_league_cut_short(
    league_db: str,
) -> None:
    store = Store(league_db)
    ada = store.author_of(store.add_author("ada"))
    assert ada is not None
    cut = store.set_status(store.add_bot("mine", ada, "a" * 64), "failed", CUT_SHORT)
    again = store.add_bot("mine", ada, "a" * 64)  # its check was never the bot's: a retry
    assert (cut.version, again.version) == (1, 2)
    store.set_status(again, "failed", "conformance: the bot exited")
    try:
        store.add_bot("mine", ada, "a" * 64)
    except StoreError as error:
        assert str(error).startswith("No change since v2: ") and "(failed)" in str(error)
    else:
        raise AssertionError("the sources of a version that failed its check came again")
    store.close()


def test_a_check_plays_the_bundled_random_wherever_the_league_is_served(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`arena serve` in a folder whose bots/ lacks `random` (a league folder of its own, a
    wheel install) failed every check with "bots/random has no bot.toml"; the check's
    opponent is the bundled random, whatever the current folder holds."""
    (tmp_path / "here" / "bots" / "mine").mkdir(parents=True)  # a bots/ without random
    monkeypatch.chdir(tmp_path / "here")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    league = League(tmp_path / "league", workers=0, limits=Limits(move_ms=5000))
    try:
        ada = league.store.author_of(league.store.add_author("ada"))
        assert ada is not None
        bot = league.submit(ada, bot_archive(tmp_path / "src", "greedy", "plain"), wait=True)
    finally:
        league.close()
    assert bot.status == "active", bot.message
