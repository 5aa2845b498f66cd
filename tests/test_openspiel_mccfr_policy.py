"""Issue 44: bots/mccfr-mandala/policy.json says what made it (game, options, command,
commit), its README says the same, and it loads against the current game: at the decisions
of random games of that game, played through the solver's own view of it
(`mccfr_policy.AbstractGame`), the table has the key and exactly the labels on offer."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

pytest.importorskip("pyspiel", reason="open_spiel is not installed (the ecosystem extra)")

from arena.ecosystem.mccfr_policy import AbstractGame  # noqa: E402
from arena.game_sources import get_game  # noqa: E402

BOT = Path(__file__).resolve().parents[1] / "bots" / "mccfr-mandala"


def _saved() -> dict:
    saved: dict = json.loads((BOT / "policy.json").read_text(encoding="utf-8"))
    return saved


def test_the_policy_says_what_made_it_and_its_readme_says_the_same() -> None:
    saved = _saved()
    assert saved["game"] == "mandala"
    get_game("mandala").config(saved["config"])  # options the game still takes
    command, commit = saved["command"], saved["commit"]
    assert command.startswith("python -m arena.ecosystem.mccfr_policy --game mandala")
    assert f"--iterations {saved['iterations']}" in command
    assert f"--seed {saved['seed']}" in command
    assert len(commit.removesuffix("+changes")) == 40
    readme = (BOT / "README.md").read_text(encoding="utf-8")
    for fact in (command, commit, json.dumps(saved["config"])):
        assert fact in readme, fact


def test_the_policy_loads_against_the_current_game() -> None:
    """Every key met in 20 random games is in the table, with the labels on offer there
    (the bot plays a random move where they differ) and probabilities that sum to 1."""
    saved = _saved()
    table = saved["policy"]
    game = AbstractGame("mandala", saved["config"])
    rng = random.Random(44)
    met = found = 0
    for _ in range(20):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probabilities)[0])
                continue
            key = state.information_state_string(state.current_player())
            met += 1
            if key in table:
                found += 1
                assert sorted(table[key]) == sorted(key.split(" ")[1].split(",")), key
                assert sum(table[key].values()) == pytest.approx(1.0, abs=1e-3)
            state.apply_action(rng.choice(state.legal_actions()))
    assert met > 100 and found >= 0.95 * met, (found, met)
