"""Issue 44: bots/openspiel-cfr solves for a number of iterations, never for a time, so the
same seed plays the same moves on an idle machine and a loaded one (a tournament replays).

The second match runs beside busy processes that take every core; the moves of every game
must be the same. Under the former 3 s limit, a loaded machine stopped CFR after fewer
iterations on Goofspiel(4) (2-7 of 200) and the bot's policy, and so its moves, changed."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType

import pytest
from click.testing import CliRunner

pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed (the ecosystem extra)")

from arena.cli.main import main  # noqa: E402

GAME = "openspiel:goofspiel(num_cards=4)"


@contextmanager
def _busy_machine() -> Iterator[None]:
    """A spinning process on every core while inside (ended by its own pid)."""
    spinners = [
        subprocess.Popen([sys.executable, "-c", "while True: pass"])
        for _ in range(os.cpu_count() or 2)
    ]
    try:
        yield
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.wait(timeout=30)


def _moves(tmp_path: Path, name: str) -> list[list[tuple[int, object]]]:
    """Each game's moves (seat and move; not the thinking times) of a seeded match."""
    out = tmp_path / name
    result = CliRunner().invoke(
        main,
        ["play", "random", "openspiel-cfr", "--game", GAME, "--games", "4", "--seed", "7"]
        + ["--quiet", "--out", str(out)],
    )
    assert result.exit_code == 0, result.output
    records = sorted(out.glob("g*.json"))
    assert len(records) == 4
    games = [json.loads(record.read_text())["moves"] for record in records]
    return [[(move["seat"], move["move"]) for move in moves] for moves in games]


def test_the_same_seed_plays_the_same_moves_on_a_loaded_machine(tmp_path: Path) -> None:
    idle = _moves(tmp_path, "idle")
    with _busy_machine():
        loaded = _moves(tmp_path, "loaded")
    assert loaded == idle


def _bot() -> ModuleType:
    folder = Path(__file__).resolve().parents[1] / "bots" / "openspiel-cfr"
    spec = importlib.util.spec_from_file_location("openspiel_cfr_bot", folder / "bot.py")
    assert spec is not None and spec.loader is not None
    bot = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bot)
    return bot


def test_the_solved_policy_is_the_same_on_a_loaded_machine() -> None:
    """The policy itself, not only the moves of a few games: its distance from a Nash
    equilibrium (NashConv) is the same to the last bit with and without the load."""
    bot = _bot()
    game = pyspiel.convert_to_turn_based(pyspiel.load_game(GAME.removeprefix("openspiel:")))
    idle = bot.Solved(GAME, bot.iterations_for(GAME))
    with _busy_machine():
        loaded = bot.Solved(GAME, bot.iterations_for(GAME))
    assert pyspiel.nash_conv(game, loaded.policy) == pyspiel.nash_conv(game, idle.policy)


def test_the_iterations_are_set_per_game_and_fit_the_start_up() -> None:
    """Kuhn poker gets the 200 iterations it always had; Leduc and Goofspiel(4) as many as
    a loaded machine solves well inside the 10 s start-up."""
    bot = _bot()
    assert bot.iterations_for("openspiel:kuhn_poker") == 200
    assert bot.iterations_for("openspiel:leduc_poker") == 30
    assert bot.iterations_for(GAME) == bot.DEFAULT_ITERATIONS == 8
