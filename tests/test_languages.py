"""Issue 41: the table of languages, their toolchains found where installers put them
(rustup's proxies, version managers' shims, folders outside /usr), what the sandbox shows
of them, the defaults of a bot.toml that names only its language, `arena languages`, and
the one sentence a bot gets when its toolchain is missing."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli.main import main
from arena.errors import BotManifestError
from arena.players.build import build_bot
from arena.players.languages import LANGUAGES, language_named
from arena.players.manifest import load_manifest
from arena.players.sandbox.bubblewrap import shown_to_bots
from arena.players.toolchains import _inside, find_toolchain, toolchain_problem

BOTS = Path(__file__).resolve().parents[1] / "bots"


def executable(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(0o755)
    return path


def bare_machine(monkeypatch: pytest.MonkeyPatch, root: Path) -> Path:
    """A PATH and a home holding nothing; the home's path returned."""
    home = root / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("PATH", str(root / "empty"))
    return home


def test_every_language_has_a_program_commands_and_an_install() -> None:
    keys = [language.key for language in LANGUAGES]
    assert len(keys) == len(set(keys)) >= 13
    for language in LANGUAGES:
        assert language.program and language.command and language.debian
        assert language_named(language.key) is language
        assert language.install.startswith("apt-get install ")
    assert language_named("C++") is language_named("cpp")
    assert language_named("c#") is language_named("csharp")


def test_a_bot_toml_naming_only_its_language_builds_and_runs_with_its_defaults(
    tmp_path: Path,
) -> None:
    (tmp_path / "bot.toml").write_text('name = "crab"\nlanguage = "rust"\n')
    bot = load_manifest(tmp_path)
    rust = language_named("rust")
    assert rust is not None
    assert bot.command == rust.command and bot.build == rust.build


def test_an_explicit_build_or_command_wins_over_the_languages(tmp_path: Path) -> None:
    (tmp_path / "bot.toml").write_text(
        'name = "crab"\nlanguage = "rust"\ncommand = ["./mine"]\nbuild = ["make"]\n'
    )
    bot = load_manifest(tmp_path)
    assert bot.command == ("./mine",) and bot.build == ("make",)
    (tmp_path / "bot.toml").write_text('name = "crab"\nlanguage = "rust"\ncommand = ["./mine"]\n')
    assert load_manifest(tmp_path).build is None  # its own command: no default build


def test_a_language_without_defaults_and_no_command_is_one_sentence(tmp_path: Path) -> None:
    (tmp_path / "bot.toml").write_text('name = "old"\nlanguage = "cobol"\n')
    with pytest.raises(BotManifestError, match="`command` is missing and the language 'cobol'"):
        load_manifest(tmp_path)


def test_rustups_proxy_is_followed_to_the_toolchains_own_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_lookup: None
) -> None:
    home = bare_machine(monkeypatch, tmp_path)
    real = executable(home / ".rustup/toolchains/stable-x/bin/cargo", "#!/bin/sh\n")
    rustup = executable(home / ".cargo/bin/rustup", f'#!/bin/sh\n[ "$1" = which ] && echo {real}\n')
    (home / ".cargo/bin/cargo").symlink_to(rustup)  # not on the PATH: found in its place
    toolchain = find_toolchain("rust")
    assert toolchain.found and toolchain.via == "rustup"
    assert toolchain.program == real
    assert toolchain.shown == (str(home / ".rustup/toolchains/stable-x"),)
    env = toolchain.env(tmp_path / "bot")
    assert env["PATH"].split(os.pathsep)[0] == str(real.parent)
    assert env["CARGO_HOME"] == str(tmp_path / "bot/target/cargo-home")


def test_a_version_managers_shim_is_followed_to_the_real_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_lookup: None
) -> None:
    home = bare_machine(monkeypatch, tmp_path)
    real = executable(home / ".rbenv/versions/3.3.0/bin/ruby", "#!/bin/sh\n")
    executable(home / ".rbenv/bin/rbenv", f'#!/bin/sh\n[ "$1" = which ] && echo {real}\n')
    shim = executable(home / ".rbenv/shims/ruby", "#!/bin/sh\n")
    monkeypatch.setenv("PATH", str(shim.parent))
    toolchain = find_toolchain("ruby")
    assert toolchain.via == "rbenv" and toolchain.folder == real.parent.parent
    assert toolchain.shown == (str(home / ".rbenv/versions/3.3.0"),)


def test_sdkmans_current_link_is_followed_to_the_real_jdk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_lookup: None
) -> None:
    home = bare_machine(monkeypatch, tmp_path)
    candidates = home / ".sdkman/candidates/java"
    javac = executable(candidates / "17.0.9-tem/bin/javac", "#!/bin/sh\n")
    (candidates / "current").symlink_to("17.0.9-tem")  # as `sdk default java` leaves it
    toolchain = find_toolchain("java")
    assert toolchain.found and toolchain.program == javac
    assert toolchain.shown == (str(candidates / "17.0.9-tem"),)
    assert toolchain.env(tmp_path)["JAVA_HOME"] == str(candidates / "17.0.9-tem")


def test_a_toolchain_whose_folder_is_a_home_is_never_shown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_lookup: None
) -> None:
    home = bare_machine(monkeypatch, tmp_path)
    go = executable(home / "bin/go", "#!/bin/sh\n")  # ~/bin/go: its folder is the home
    monkeypatch.setenv("PATH", str(go.parent))
    toolchain = find_toolchain("go")
    assert not toolchain.found and toolchain.shown == ()
    assert "home folder" in str(toolchain.failure)


def test_a_bot_whose_toolchain_is_missing_fails_check_in_one_sentence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_lookup: None
) -> None:
    folder = tmp_path / "crab"
    shutil.copytree(BOTS / "starter-rust", folder, ignore=shutil.ignore_patterns("target"))
    bare_machine(monkeypatch, tmp_path)
    bot = load_manifest(folder)
    said = toolchain_problem(bot)
    assert said is not None and "written in Rust" in said and "apt-get install cargo" in said
    result = CliRunner().invoke(
        main, ["check", str(folder), "--out", str(tmp_path / "out")], catch_exceptions=False
    )
    assert result.exit_code == 1
    assert said in result.output and "setpriv" not in result.output


def test_arena_languages_lists_each_language_and_how_to_install_a_missing_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_lookup: None
) -> None:
    bare_machine(monkeypatch, tmp_path)
    result = CliRunner().invoke(main, ["languages"], catch_exceptions=False)
    assert result.exit_code == 0
    for language in LANGUAGES:
        assert f"{language.key} ({language.name}): missing; install: {language.install}" in (
            result.output
        )
    missing = CliRunner().invoke(main, ["languages", "--missing"], catch_exceptions=False)
    assert "golang-go" in missing.output.split() and "ghc" not in missing.output.split()


def test_arena_languages_shows_a_found_toolchain_its_version_and_test_build(
    tmp_path: Path,
) -> None:
    if not find_toolchain("c").found:
        pytest.skip("no C compiler here: apt-get install gcc")
    shutil.copytree(
        BOTS / "starter-c", tmp_path / "starter-c", ignore=shutil.ignore_patterns("bot")
    )
    tmp_path.chmod(0o755)
    result = CliRunner().invoke(
        main, ["languages", "--test", "--bots-dir", str(tmp_path)], catch_exceptions=False
    )
    assert result.exit_code == 0
    head = next(line for line in result.output.splitlines() if line.startswith("c (C): "))
    assert len(head) > len("c (C): ")  # its version
    assert "test build: works (built" in result.output
    assert not (tmp_path / "starter-c" / "bot").exists()  # built in a scratch copy


def test_a_build_sees_of_the_host_only_its_toolchains_folder(tmp_path: Path) -> None:
    toolchain = find_toolchain("rust")
    if not toolchain.found or not toolchain.shown:
        pytest.skip("no Rust toolchain outside the system folders here (rustup)")
    shown = Path(toolchain.shown[0])
    folder = tmp_path / "peek"
    folder.mkdir()
    tmp_path.chmod(0o755)
    listed = " ".join(str(p) for p in shown.parents if p != Path("/"))
    (folder / "bot.toml").write_text(
        'name = "peek"\nlanguage = "rust"\ncommand = ["./bot"]\n'
        f'build = ["sh", "-c", "ls -A {listed} > seen.txt"]\n'
    )
    build_bot(load_manifest(folder), force=True)
    listing: dict[str, set[str]] = {}
    for line in (folder / "seen.txt").read_text().split():
        if line.endswith(":"):
            heading = listing.setdefault(line[:-1], set())
        else:
            heading.add(line)
    allowed = [shown, *map(Path, shown_to_bots())]  # and the arena's own interpreter
    for above, names in listing.items():
        # e.g. /root holds .rustup only (and the interpreter's way), .rustup toolchains only
        way = {a.parts[len(Path(above).parts)] for a in allowed if _inside(a, Path(above))}
        assert names == way, (above, names)
    assert set(listing) == {str(p) for p in shown.parents if p != Path("/")}


def test_what_a_languages_build_leaves_does_not_change_the_bots_hash(tmp_path: Path) -> None:
    from arena.players.bot_files import bot_hash

    shutil.copytree(BOTS / "starter-kotlin", tmp_path / "k", ignore=shutil.ignore_patterns("*.jar"))
    before = bot_hash(tmp_path / "k")
    (tmp_path / "k" / "bot.jar").write_bytes(b"PK\x03\x04 built")  # kotlinc's output
    assert bot_hash(tmp_path / "k") == before
