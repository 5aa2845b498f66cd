"""Our games as OpenSpiel games, judged by OpenSpiel's own tests and bots (issue 25)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed (the ecosystem extra)")

import numpy as np  # noqa: E402
from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts  # noqa: E402

from arena.ecosystem import openspiel_games, tensors  # noqa: E402, F401
from arena.ecosystem.returns import rank_returns  # noqa: E402
from arena.game_sources import get_game  # noqa: E402

TABLES = [
    ("mandala", {"players": 2}),
    ("flowers", {"players": 2}),
    ("flowers", {"players": 3}),
    ("flowers", {"players": 4}),
    ("takenoko", {"players": 2}),
    ("takenoko", {"players": 3}),
    ("takenoko", {"players": 4}),
    ("takenoko", {"players": 3, "chibis": True}),
]


def _deal(state: pyspiel.State, seed: int) -> pyspiel.State:
    """Answer the chance nodes of the deal (outcomes by their probabilities)."""
    rng = random.Random(seed)
    while state.is_chance_node():
        outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(rng.choices(outcomes, probabilities)[0])
    return state


class _ISMCTSBot(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's Python ISMCTS, with the `restart_at` that `evaluate_bots` calls."""

    def restart_at(self, state: object) -> None:
        self.reset()


@pytest.mark.parametrize(("name", "params"), TABLES)
def test_openspiel_random_sim_test_passes_with_serialization(name: str, params: dict) -> None:
    """OpenSpiel's own C++ checks over random games: legal-action masks, observation and
    information-state strings and tensors, returns, serialize/deserialize, clone."""
    game = pyspiel.load_game(f"arena_{name}", params)
    sims = 1 if name == "takenoko" else 3
    pyspiel.random_sim_test(game, num_sims=sims, serialize=True, verbose=False)


@pytest.mark.parametrize("name", ["mandala", "flowers"])
def test_openspiel_ismcts_and_uniform_random_bots_play_through_evaluate_bots(name: str) -> None:
    game = pyspiel.load_game(f"arena_{name}", {"players": 2})
    rng = np.random.RandomState(3)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [
        _ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=20, random_state=rng),
        pyspiel.make_uniform_random_bot(1, 7),
    ]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
    assert sorted(returns) in ([-1.0, 1.0], [0.0, 0.0])


def test_openspiel_ismcts_plays_takenoko_with_short_rollouts() -> None:
    game = pyspiel.load_game("arena_takenoko", {"players": 2})
    rng = np.random.RandomState(4)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = _ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=3, random_state=rng)
    state = _deal(game.new_initial_state(), 11)
    for _ in range(30):  # a few decisions of a real game: the search resamples each time
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        _deal(state, len(state.history()))  # the draws that follow
        if state.is_terminal():
            break


def test_no_seat_observes_what_its_view_hides() -> None:
    """The strings are the seat's view: the other hand and the deck order stay hidden."""
    game = pyspiel.load_game("arena_mandala")
    state = _deal(game.new_initial_state(), 5)
    seen = json.loads(state.observation_string(0))
    assert "hands" not in seen and "deck" not in seen and "hand" in seen
    other = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert other.observation_string(0) == state.observation_string(0)
    assert str(other) != str(state)  # the hidden cards were dealt again


def test_mandala_observation_tensor_holds_the_view_in_numbers() -> None:
    game = pyspiel.load_game("arena_mandala")
    state = _deal(game.new_initial_state(), 7)
    tensor = state.observation_tensor(0)
    assert len(tensor) == tensors.size("mandala", 2) == game.observation_tensor_size()
    view = json.loads(state.observation_string(0))
    hand = [view["hand"][c] for c in ("black", "green", "orange", "purple", "red", "yellow")]
    assert tensor[7:13] == hand
    assert state.observation_tensor(1) == tensors.encode(
        "mandala", json.loads(state.observation_string(1))
    )


@pytest.mark.parametrize(("name", "players", "options"), [
    ("mandala", 2, None), ("flowers", 3, None), ("takenoko", 3, {"chibis": True}),
])  # fmt: skip
def test_the_tensor_tells_apart_every_two_views_of_random_games(
    name: str, players: int, options: dict | None
) -> None:
    """No two different views (the turn number aside) give the same numbers, and every
    position gives the same layout: the vector holds the whole view."""
    game = get_game(name)
    seen: dict[tuple[float, ...], str] = {}
    for seed in range(3):
        state = game.new_state(seed, options, players)
        rng = random.Random(seed)
        while True:
            for seat in range(players):
                view = dict(state.view(seat), turn=0)
                if "round" in view:
                    view["round"] = 0
                numbers = tuple(tensors.encode(name, view))
                assert len(numbers) == tensors.size(name, players)
                text = json.dumps(view, sort_keys=True)
                assert seen.setdefault(numbers, text) == text, "two views, one vector"
            if state.is_over():
                break
            state.apply_action(rng.choice(state.legal_actions()))
    assert len(seen) > 500


def test_returns_are_rank_returns() -> None:
    assert rank_returns([0, 1]) == [1.0, -1.0]
    assert rank_returns([0, 0]) == [0.0, 0.0]
    assert rank_returns([0, 1, 2, 3]) == [1.0, pytest.approx(1 / 3), pytest.approx(-1 / 3), -1.0]
    assert rank_returns([1, 0, 1]) == [-0.5, 1.0, -0.5]


def test_options_travel_as_parameters() -> None:
    game = pyspiel.load_game("arena_takenoko", {"players": 4, "chibis": True})
    assert game.num_players() == 4
    state = _deal(game.new_initial_state(), 1)
    assert json.loads(state.observation_string(0))["options"]["chibis"] is True
    with pytest.raises(pyspiel.SpielError):
        pyspiel.load_game("arena_mandala", {"players": 2, "colours": 7})


@pytest.mark.parametrize("game", ["mandala", "flowers"])
def test_the_openspiel_ismcts_bot_passes_arena_check(game: str, tmp_path: Path) -> None:
    """The bundled bot that runs OpenSpiel's ISMCTS: a real process, every decision kind,
    legal moves within the time limit (bots/openspiel-ismcts). Takenoko's check plays 24
    games until every decision kind comes up (minutes on 2 cores); the search itself is
    tested on Takenoko above."""
    from click.testing import CliRunner

    from arena.cli.main import main

    bot = Path(__file__).resolve().parents[1] / "bots" / "openspiel-ismcts"
    out = str(tmp_path / "check")
    result = CliRunner().invoke(main, ["check", "--game", game, str(bot), "--out", out])
    assert result.exit_code == 0, result.output
    assert "All 6 checks passed" in result.output
