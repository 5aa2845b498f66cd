"""Issue 41 in the league: `arena submit` leaves a language's build output out (and what a
`.arenaignore` names), so a freshly built cargo folder submits as it is and is rated; a
submission in a language the league cannot build is refused in one sentence before any
build; /api/languages and /languages list the languages it builds, with their versions."""

from __future__ import annotations

import os
import shutil
import tarfile
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli.main import main
from arena.errors import BotManifestError
from arena.league.league import League
from arena.league.uploads import archive_folder
from arena.players.build import build_bot
from arena.players.manifest import load_manifest
from arena.players.toolchains import find_toolchain
from tests.league_support import bot_archive, served

BOTS = Path(__file__).resolve().parents[1] / "bots"


def members(archive: Path) -> set[str]:
    with tarfile.open(archive) as packed:
        return {member.name.partition("/")[2] for member in packed.getmembers()} - {""}


def test_submit_leaves_out_the_build_output_and_what_arenaignore_names(tmp_path: Path) -> None:
    folder = tmp_path / "crab"
    shutil.copytree(BOTS / "starter-rust", folder, ignore=shutil.ignore_patterns("target"))
    deps = folder / "target" / "release" / "deps"
    deps.mkdir(parents=True)
    (deps / "bot-1234").write_bytes(b"\x7fELF built")
    os.link(deps / "bot-1234", folder / "target" / "release" / "bot")  # as cargo leaves it
    (folder / "notes").mkdir()
    (folder / "notes" / "ideas.txt").write_text("mine")
    (folder / "run.log").write_text("a log")
    (folder / ".arenaignore").write_text("# not the bot\nnotes/\n*.log\n")
    shipped = members(archive_folder(folder, tmp_path))
    assert {"bot.toml", "Cargo.toml", "src", "src/main.rs", ".arenaignore"} <= shipped
    assert not any(name.split("/")[0] in ("target", "notes") for name in shipped), shipped
    assert "run.log" not in shipped


def test_the_league_refuses_a_language_it_cannot_build_before_any_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_lookup: None
) -> None:
    archive = bot_archive(tmp_path, "starter-rust", "crab")
    league = League(tmp_path / "league", workers=0)
    try:
        author = league.store.add_author("ada")
        monkeypatch.setenv("PATH", str(tmp_path / "empty"))  # no Rust on this league's machine
        monkeypatch.setenv("HOME", str(tmp_path))
        ada = league.store.author_of(author)
        assert ada is not None
        with pytest.raises(BotManifestError) as refused:
            league.submit(ada, archive)
        assert str(refused.value) == (
            "This league cannot build or run Rust bots: its machine has no usable Rust "
            "toolchain (GET /api/languages lists the languages it builds)."
        )
        assert not any((tmp_path / "league" / "bots").iterdir())  # nothing kept, nothing built
    finally:
        league.close()


def test_a_built_cargo_folder_submits_as_it_is_and_is_rated(tmp_path: Path) -> None:
    rust = find_toolchain("rust")
    if not rust.found:
        pytest.skip(f"no Rust here: {rust.failure}")
    folder = tmp_path / "crab"
    shutil.copytree(BOTS / "starter-rust", folder, ignore=shutil.ignore_patterns("target"))
    text = (folder / "bot.toml").read_text().replace('"starter-rust"', '"crab"')
    (folder / "bot.toml").write_text(text)
    tmp_path.chmod(0o755)
    build_bot(load_manifest(folder), force=True)  # target/ holds hard links now
    assert (folder / "target" / "release" / "bot").is_file()
    with served(tmp_path / "site") as site:
        sent = CliRunner().invoke(
            main, ["submit", str(folder), "--to", site.url, "--token", site.ada]
        )
        assert sent.exit_code == 0, sent.output
        assert (
            site.call(
                "POST", "/api/bots", site.bob, bot_archive(tmp_path, "random", "dice").read_bytes()
            )[0]
            == 202
        )
        site.wait_status("crab", "active")
        site.wait_status("dice", "active")
        status, languages = site.call("GET", "/api/languages")
        assert status == 200
        listed = {row["language"]: row for row in languages}
        assert listed["rust"]["version"].startswith("rustc ")
        assert set(listed["rust"]) == {"language", "name", "version", "build", "command"}
        assert all(str(Path.home()) not in str(row) for row in languages)  # no server path
        page = site.call("GET", "/languages")[1]
        assert "Rust" in page and listed["rust"]["version"] in page
        site.league.start()
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            board = site.call("GET", "/api/leaderboard")[1]
            rated = [row for row in board if row["bot"] == "crab" and row["games"] > 0]
            if rated:
                break
            time.sleep(0.3)
        assert rated, board


def test_a_bot_without_a_build_keeps_what_it_runs(tmp_path: Path) -> None:
    folder = tmp_path / "jar"
    (folder / "bin").mkdir(parents=True)
    (folder / "bin" / "bot.jar").write_bytes(b"PK\x03\x04 a jar it ships")
    (folder / "bot.toml").write_text(
        'name = "jar"\nlanguage = "java"\ncommand = ["java", "-jar", "bin/bot.jar"]\n'
    )
    assert "bin/bot.jar" in members(archive_folder(folder, tmp_path))  # nothing rebuilds it
