"""Hostile names of bots and authors (issue 31, item 1): one rule at every door (bot.toml,
the HTTP API, the CLI, the store), names unique without regard to case or Unicode form, and
a bad name an older arena stored never makes the league touch a path outside its place."""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli.main import main
from arena.errors import ArenaError, BotManifestError
from arena.league.database import open_database
from arena.league.league import League
from arena.league.paths import PathError, inside
from arena.league.store import MIGRATIONS, Author, Store, StoreError
from arena.names import name_key, name_problem
from arena.players.limits import Limits
from arena.players.manifest import load_manifest
from tests.bundled_bots import BUNDLED
from tests.league_support import BOTS, Site, served

BAD_NAMES = ["..", ".", "greedy\n", "ｇｒｅｅｄｙ", "-rf", ".hidden", "a..b", "x" * 41, "a/b", ""]
"""Each refused by the rule; `ｇｒｅｅｄｙ` is full-width (NFKC folds it to `greedy`)."""


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    with served(tmp_path) as running:
        yield running


def _one_sentence(text: str) -> bool:
    return "\n" not in text and "Traceback" not in text and text.endswith(".") and len(text) < 400


def _bot_folder(tmp_path: Path, name: str, source: str = "random") -> Path:
    """A copy of bundled bot `source` whose bot.toml names it `name` (written as a TOML
    string with escapes, so any name can be written)."""
    folder = Path(tempfile.mkdtemp(dir=tmp_path)) / "bot"
    shutil.copytree(BOTS / source, folder, ignore=shutil.ignore_patterns("__pycache__"))
    lines = (folder / "bot.toml").read_text().splitlines()
    shown = json.dumps(name)  # JSON's escapes are TOML's: \n, \", \uXXXX
    (folder / "bot.toml").write_text(
        "\n".join(f"name = {shown}" if line.startswith("name") else line for line in lines)
    )
    return folder


def _archive(tmp_path: Path, name: str, source: str = "random") -> bytes:
    from arena.league.uploads import archive_folder

    folder = _bot_folder(tmp_path, name, source)
    return archive_folder(folder, folder.parent).read_bytes()


def test_the_rule_matches_whole_names_and_keeps_every_bundled_bots_name() -> None:
    for name in BAD_NAMES:
        problem = name_problem(name, "`name`")
        assert problem is not None and _one_sentence(problem), name
    for folder in BUNDLED:
        assert name_problem(load_manifest(BOTS / folder).name) is None
    for name in ("greedy", "greedy-flowers", "a", "R2.d2+x_y", "x" * 40):
        assert name_problem(name) is None
    assert name_key("GREEDY") == name_key("Greedy") == name_key("ｇｒｅｅｄｙ") == "greedy"


@pytest.mark.parametrize("name", BAD_NAMES[:4])
def test_a_bad_name_in_bot_toml_is_one_sentence(tmp_path: Path, name: str) -> None:
    with pytest.raises(BotManifestError) as refused:
        load_manifest(_bot_folder(tmp_path, name))
    assert "`name` must be a string of 1 to 40 ASCII letters" in str(refused.value)
    assert _one_sentence(str(refused.value))


def test_bad_and_look_alike_bot_names_are_refused_at_the_api(site: Site, tmp_path: Path) -> None:
    for name in BAD_NAMES[:4]:
        status, answer = site.call("POST", "/api/bots", site.ada, _archive(tmp_path, name))
        assert status == 400 and "must be a string of" in answer["error"], (name, answer)
        assert _one_sentence(answer["error"])
    status, _ = site.call("POST", "/api/bots", site.ada, _archive(tmp_path, "greedy"))
    assert status == 202
    for author, name in ((site.ada, "Greedy"), (site.bob, "GREEDY"), (site.ada, "greedy\u212a")):
        status, answer = site.call("POST", "/api/bots", author, _archive(tmp_path, name))
        assert status == 400 and _one_sentence(answer["error"]), (name, answer)
        if name.isascii():  # the key is taken, by greedy whoever submits
            assert answer["error"].startswith("There is already a bot greedy;"), answer
    for name in ("greedy.V2", "other.v3", "other.V12"):  # bob: each author's uploads are capped
        status, answer = site.call("POST", "/api/bots", site.bob, _archive(tmp_path, name))
        assert status == 400 and "may not end in .v and a number" in answer["error"], name
    league = site.league.folder
    assert sorted(path.name for path in (league / "bots").iterdir()) == ["greedy"]
    assert (league / "league.sqlite").is_file() and (league / "checks").is_dir()


def test_look_alike_authors_are_refused_at_the_api(site: Site) -> None:
    for name in ("Ada", "ADA", "ａｄａ", "ada\n", ".."):
        status, made = site.call("POST", "/api/invites", site.admin)
        assert status == 201
        ask = json.dumps({"invite": made["invite"], "name": name}).encode()
        status, answer = site.call("POST", "/api/join", None, ask)
        assert status == 400 and _one_sentence(answer["error"]), (name, answer)
        if name.isascii() and name.isalpha():
            assert answer["error"].startswith("There is already an author called ada;")
    with pytest.raises(StoreError, match="already an author called ada;"):
        site.league.store.add_author("aDa")


def test_arena_serve_add_author_refuses_a_look_alike(tmp_path: Path) -> None:
    league = ["serve", "--league", str(tmp_path / "l"), "--add-author"]
    assert CliRunner().invoke(main, [*league, "ada"]).exit_code == 0
    for name in ("Ada", "ADA", ".."):
        again = CliRunner().invoke(main, [*league, name])
        assert again.exit_code == 1 and "Traceback" not in again.output, again.output
        assert ("already an author called ada;" in again.output) == name.isalpha()


def _old_store(where: str, bots: list[tuple[str, str, str]]) -> None:
    """A league store of schema 2 (as an older arena made it), authors ada and Ada, holding
    `bots` (name, folder, status) of ada's, version 1 each."""
    db = open_database(where)
    for number in range(2):
        for statement in MIGRATIONS[number].format(**db.types).split(";"):
            if statement.strip():
                db.execute(statement)
    db.set_schema_version(2)
    for author, token in (("ada", "h1"), ("Ada", "h2")):
        db.execute(
            "INSERT INTO authors (name, token_hash, admin, created) VALUES (?, ?, 0, 0)",
            (author, token),
        )
    for name, folder, status in bots:
        db.execute(
            "INSERT INTO bots (name, version, author_id, folder, status, created) "
            "VALUES (?, 1, 1, ?, ?, 0)",
            (name, folder, status),
        )
    db.close()


def test_an_old_store_with_look_alike_names_opens_and_refuses_new_ones(league_db: str) -> None:
    _old_store(
        league_db, [("greedy", "bots/greedy", "active"), ("Greedy", "bots/Greedy", "active")]
    )
    store = Store(league_db)
    try:
        assert store.version == len(MIGRATIONS) >= 3
        with pytest.raises(StoreError, match="already an author called ada;"):
            store.add_author("ADA")
        with pytest.raises(StoreError, match="already an author called ada;"):
            store.join(store.add_invite(), "aDA")
        ada = Author(1, "ada", False)
        with pytest.raises(StoreError, match="There is already a bot greedy;"):
            store.add_bot("GREEDY", ada)
        assert store.add_bot("greedy", ada).label == "greedy.v2"
        assert store.add_bot("other", ada).label == "other"
        with pytest.raises(ArenaError, match="must be a string of"):
            store.add_bot("..", ada)
    finally:
        store.close()


def test_a_removed_bot_named_dot_dot_no_longer_deletes_the_league(tmp_path: Path) -> None:
    folder = tmp_path / "league"
    (folder / "bots" / "keep").mkdir(parents=True)
    (folder / "bots" / "keep" / "bot.toml").write_text("kept")
    (folder / "records").mkdir()
    _old_store(
        str(folder / "league.sqlite"),
        [
            ("..", "bots/..", "removed"),
            (".", "bots/.", "removed"),
            ("gone", "bots/../records", "removed"),
            ("greedy\n", "bots/greedy\n", "active"),
            ("fine", "bots/fine", "removed"),
        ],
    )
    (folder / "bots" / "fine").mkdir()
    (folder / "checks" / "fine").mkdir(parents=True)
    league = League(folder, workers=0, limits=Limits(move_ms=5000, startup_ms=20_000))
    try:
        league.start()
        assert (folder / "league.sqlite").is_file() and (folder / "records").is_dir()
        assert (folder / "bots" / "keep" / "bot.toml").read_text() == "kept"
        assert (folder / "checks").is_dir()
        assert not (folder / "bots" / "fine").exists()  # a good removed bot still goes
        assert not (folder / "checks" / "fine").exists()
        bad = next(bot for bot in league.store.bots() if bot.name == "greedy\n")
        assert bad.status == "failed" and _one_sentence(bad.message)
    finally:
        league.close()


def test_paths_are_proven_inside_the_league(tmp_path: Path) -> None:
    (tmp_path / "bots" / "a").mkdir(parents=True)
    (tmp_path / "bots" / "out").symlink_to(tmp_path.parent)
    assert inside(tmp_path, "bots/a", "bots") == (tmp_path / "bots" / "a").resolve()
    for relative in ("bots/..", "bots/.", "bots", "bots/../records", "/etc", "bots/out", "b\0"):
        with pytest.raises(PathError) as refused:
            inside(tmp_path, relative, "bots")
        assert _one_sentence(str(refused.value))
