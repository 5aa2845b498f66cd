"""Issue 46, point 3: a bot whose files change during a run (rebuilt or edited by mistake) is
noticed: a warning once, on the command's output and in run.log, and the run's summary names
it; a build that writes into the bot's folder before play is no change."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena import tournament
from arena.cli.progress import Progress
from arena.players.manifest import load_manifest
from tests.referee_support import fake_bot


def field(root: Path) -> list[Path]:
    fake_bot(root, "first")
    fake_bot(root, "second")
    return [root / "first", root / "second"]


def test_a_bot_edited_during_the_run_is_warned_of_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tournament, "CHANGED_CHECK_S", 0.0)  # hash again after every game
    first, second = field(tmp_path / "bots")
    out = tmp_path / "run"
    config = tournament.create_run(
        out, [load_manifest(first), load_manifest(second)], rounds=3, seed=1, limits={}
    )
    warned: list[str] = []

    def progress(done: int, total: int, played: int) -> None:
        if played == 1:  # rebuilt by mistake, as the first game is logged
            with (first / "bot.py").open("a") as source:
                source.write("\n# a change\n")

    summary = tournament.play(out, config, workers=0, progress=progress, warn=warned.append)
    assert summary.played == 6 and summary.changed == ["first"]
    assert len(warned) == 1 and warned[0].startswith("bot 'first' changed during the run")
    assert (out / "run.log").read_text().count("bot 'first' changed during the run") == 1


def test_bots_left_alone_and_a_build_writing_sources_are_no_change(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tournament, "CHANGED_CHECK_S", 0.0)
    first, second = field(tmp_path / "bots")
    with (first / "bot.toml").open("a") as manifest:  # as `cargo build` writes Cargo.lock
        manifest.write('build = ["sh", "-c", "echo made > made.lock"]\n')
    out = tmp_path / "run"
    config = tournament.create_run(
        out, [load_manifest(first), load_manifest(second)], rounds=1, seed=1, limits={}
    )
    warned: list[str] = []
    summary = tournament.play(out, config, workers=0, warn=warned.append)
    assert (first / "made.lock").exists()
    assert summary.played == 2 and summary.changed == [] and warned == []


def test_the_warning_is_a_line_of_its_own_above_the_progress_bar() -> None:
    class Terminal:
        def __init__(self) -> None:
            self.text = ""

        def write(self, text: str) -> None:
            self.text += text

        def flush(self) -> None:
            pass

        def isatty(self) -> bool:
            return True

    terminal = Terminal()
    progress = Progress(10, terminal)  # type: ignore[arg-type]
    progress.update(3, 10, 3)
    progress.note("bot 'first' changed during the run")
    before, after = terminal.text.split("\r\x1b[Kwarning: bot 'first' changed during the run\n")
    assert "3/10 games" in before and "3/10 games" in after  # the bar drawn again below it
