"""Issue 41: each starter kit in bots/ is built in the sandbox and passes `arena check` at
Mandala, Flowers at 4 seats and Takenoko with the Chibis; the newcomer's cargo folder with
rustup's cargo under root's home passes too.

A starter whose toolchain is missing here is skipped, naming it and the Debian command
that installs it (`make install` installs them: CI skips none). Each starter's three
checks run at once, on its copy built once (the Mandala check builds it, as `arena check`
does; the other two play the built copy).
"""

from __future__ import annotations

import dataclasses
import shutil
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from arena.cli.main import main
from arena.conformance import CheckResult, check_bot
from arena.players.languages import LANGUAGES, Language
from arena.players.limits import Limits
from arena.players.manifest import BotManifest, load_manifest
from arena.players.toolchains import bot_toolchain, find_toolchain
from tests.bundled_bots import FIELDS

BOTS = Path(__file__).resolve().parents[1] / "bots"
STARTERS = [lang for lang in LANGUAGES if lang.starter and (BOTS / lang.starter).is_dir()]
CHECKS: list[tuple[str, dict[str, Any], int]] = [
    ("mandala", {}, 2),
    ("flowers", {}, 4),
    ("takenoko", {"chibis": True, "max_rounds": 10}, 3),
]
"""Each game, its options and seats. Takenoko's games are cut at 10 rounds (a full game of
a starter's rule runs ~200 decisions, most of the test's time): the check's games from a
position bring every kind of decision the short game did not."""


def starter_copy(language: Language, root: Path) -> BotManifest:
    """A copy of the language's starter in `root` (what its build leaves left out), as a
    bot author makes one; skipped when its toolchain is missing here."""
    toolchain = find_toolchain(language.key)
    if not toolchain.found:
        pytest.skip(f"{language.name}'s toolchain is missing here: {toolchain.failure}")
    folder = root / language.starter
    left_out = {Path(path).parts[0] for path in language.leftovers}
    shutil.copytree(BOTS / language.starter, folder, ignore=lambda _, names: left_out & set(names))
    for path in (root, folder):
        path.chmod(0o755)
    return load_manifest(folder)


def check(
    bot: BotManifest, out: Path, game: str, options: dict[str, Any], seats: int
) -> list[CheckResult]:
    opponent = load_manifest(BOTS / "random")
    return check_bot(
        bot, opponent, Limits(), out / game, games=1, game=game, game_config=options, seats=seats
    )


def failures(results: list[CheckResult]) -> list[str]:
    return [f"{r.name}: {r.detail}" for r in results if r.failed]


@pytest.mark.parametrize("language", STARTERS, ids=[language.key for language in STARTERS])
def test_each_starter_builds_in_the_sandbox_and_passes_the_check_at_the_three_games(
    language: Language, tmp_path: Path
) -> None:
    bot = starter_copy(language, tmp_path / "bots")
    in_field = bot.name in FIELDS["mandala"]  # starter-c and starter-js, as before issue 41
    assert bot.default == in_field, f"{bot.name}: make run's default field must not change"
    assert bot.games is not None and {"mandala", "flowers", "takenoko"} <= set(bot.games)
    game, options, seats = CHECKS[0]
    built = check(bot, tmp_path, game, options, seats)  # builds it (forced), as arena check
    assert not failures(built), failures(built)
    played = dataclasses.replace(bot, build=None)  # the built copy: no second build
    with ThreadPoolExecutor(len(CHECKS) - 1) as pool:
        others = list(pool.map(lambda c: check(played, tmp_path, *c), CHECKS[1:]))
    for (game, _, _), results in zip(CHECKS[1:], others, strict=True):
        assert not failures(results), (game, failures(results))


def rustup_cargo() -> Path:
    cargo = Path.home() / ".cargo" / "bin" / "cargo"
    if not (cargo.parent / "rustup").is_file():
        pytest.skip(f"no rustup here ({cargo.parent}/rustup): the newcomer's case needs it")
    return cargo


NEWCOMER_TOML = """\
name = "newcomer"
build = ["cargo", "build", "--release"]
command = ["./target/release/bot"]
games = ["mandala"]
"""


def test_the_newcomers_cargo_folder_with_rustups_cargo_passes_arena_check(tmp_path: Path) -> None:
    rustup_cargo()
    folder = tmp_path / "newcomer"
    shutil.copytree(BOTS / "starter-rust", folder, ignore=shutil.ignore_patterns("target"))
    (folder / "bot.toml").write_text(NEWCOMER_TOML)  # no language: cargo says it is Rust
    toolchain = bot_toolchain(load_manifest(folder))
    assert toolchain is not None and toolchain.via == "rustup"
    home = Path.home().resolve()
    assert toolchain.shown and all(Path(p) != home for p in toolchain.shown)
    assert all(Path(p).is_relative_to(home / ".rustup" / "toolchains") for p in toolchain.shown)
    result = CliRunner().invoke(
        main, ["check", str(folder), "--out", str(tmp_path / "out")], catch_exceptions=False
    )
    assert result.exit_code == 0, result.output
    assert "setpriv" not in result.output
    assert "All 6 checks passed at mandala" in result.output
