"""Our games as PettingZoo environments, judged by PettingZoo's own tests (issue 25)."""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pettingzoo", reason="pettingzoo is not installed (the ecosystem extra)")

import numpy as np  # noqa: E402
from pettingzoo.test import api_test, render_test, seed_test  # noqa: E402
from pettingzoo.test.state_test import state_test  # noqa: E402
from pettingzoo.test.state_test import test_state_space as check_state_space  # noqa: E402

from arena.ecosystem import tensors  # noqa: E402
from arena.ecosystem.actions import NUM_ACTIONS  # noqa: E402
from arena.ecosystem.pettingzoo_env import env  # noqa: E402
from arena.errors import GameError  # noqa: E402
from arena.game_sources import get_game  # noqa: E402

TABLES = [
    ("mandala", 2, None),
    ("flowers", 2, None),
    ("flowers", 4, None),
    ("takenoko", 3, None),
    ("takenoko", 2, {"chibis": True}),
]


@pytest.mark.parametrize(("name", "players", "options"), TABLES)
def test_pettingzoo_api_test_and_seed_test_pass(name: str, players: int, options: dict) -> None:
    with warnings.catch_warnings():
        # PettingZoo warns about every {observation, action_mask} Dict, its own games' too
        warnings.simplefilter("ignore", UserWarning)
        api_test(env(name, players=players, options=options), num_cycles=400)
        seed_test(lambda: env(name, players=players, options=options), num_cycles=400)


def _play(name: str, players: int, seed: int) -> tuple[list[int], dict[str, float]]:
    game = env(name, players=players)
    game.reset(seed=seed)
    rng = np.random.default_rng(seed)
    actions = []
    final: dict[str, float] = {}
    for agent in game.agent_iter():
        observation, reward, termination, truncation, _ = game.last()
        if termination or truncation:
            final[agent] = reward
            game.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        actions.append(action)
        game.step(action)
    return actions, final


def test_a_seed_is_the_arena_deal_and_rewards_are_rank_returns() -> None:
    actions, rewards = _play("mandala", 2, 9)
    state = get_game("mandala").new_state(9, None, 2)
    for action in actions:
        state.apply_action(action)
    assert state.is_over()
    ranks = state.outcome().ranks
    expected = {(0, 1): [1.0, -1.0], (1, 0): [-1.0, 1.0], (0, 0): [0.0, 0.0]}[tuple(ranks)]
    assert [rewards["player_0"], rewards["player_1"]] == expected


def test_the_observation_is_the_seats_view_in_numbers() -> None:
    game = env("flowers", players=3)
    game.reset(seed=4)
    agent = game.agent_selection
    seat = game.possible_agents.index(agent)
    observation = game.observe(agent)["observation"]
    assert observation.shape == (tensors.size("flowers", 3),)
    assert list(observation) == tensors.encode("flowers", game.position.view(seat))
    assert game.view(agent) == game.position.view(seat)
    other = game.possible_agents[(seat + 1) % 3]
    assert not game.observe(other)["action_mask"].any()  # only the seat on turn may act


def test_a_bad_table_or_option_is_one_sentence() -> None:
    with pytest.raises(GameError, match="played by 2 players"):
        env("mandala", players=3)
    with pytest.raises(GameError, match="no option"):
        env("flowers", options={"colours": 7})
    game = env("mandala")
    game.reset(seed=1)
    with pytest.raises(ValueError, match="not legal"):
        game.step(10_000)


def _policy_bot() -> object:
    import importlib.util

    path = Path(__file__).resolve().parents[1] / "bots" / "policy-example" / "bot.py"
    spec = importlib.util.spec_from_file_location("policy_example_bot", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_policy_example_bot_plays_what_its_policy_scores_highest() -> None:
    """bots/policy-example: a policy over the PettingZoo observation becomes an arena bot."""
    from arena.games.mandala.cards import DISCARD_BASE

    bot: Any = _policy_bot()
    policy = bot.Policy("mandala", 2)
    policy.bias[DISCARD_BASE:] = 1.0  # a "trained" policy that loves Discard & Redraw
    state = get_game("mandala").new_state(3, None, 2)
    seat = state.decision().seat  # type: ignore[union-attr]
    message = {"view": state.view(seat), "legal_moves": state.legal_moves()}
    chosen = message["legal_moves"][bot.choose(message, "mandala", {"turn_limit": 1000}, policy)]
    assert chosen["action"] == "discard_redraw"


def test_the_policy_example_bot_passes_arena_check(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from arena.cli.main import main

    folder = Path(__file__).resolve().parents[1] / "bots" / "policy-example"
    result = CliRunner().invoke(main, ["check", str(folder), "--out", str(tmp_path / "check")])
    assert result.exit_code == 0, result.output


def test_an_action_code_beyond_the_space_is_refused_not_wrapped() -> None:
    from arena.ecosystem.actions import NUM_ACTIONS, legal

    assert legal("takenoko", [3, 0, 2]) == [0, 2, 3]
    with pytest.raises(ValueError, match="beyond the 1024 codes"):
        legal("takenoko", [NUM_ACTIONS["takenoko"]])


def test_state_is_the_global_state_not_the_engine_position() -> None:
    """Issue 34, item 4: `env.state()` raised TypeError ('MandalaState' object is not
    callable): an attribute named `state` hid `AECEnv.state()`. It is now the global state,
    every seat's observation vector seat by seat, inside `state_space`."""
    game = env("flowers", players=3)
    check_state_space(game)
    game.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(20):
        state = game.state()
        assert game.state_space.contains(state)
        expected = [tensors.encode("flowers", game.position.view(s)) for s in range(3)]
        assert state.tolist() == [x for vector in expected for x in vector]
        mask = game.observe(game.agent_selection)["action_mask"]
        game.step(int(rng.choice(np.flatnonzero(mask))))


@pytest.mark.parametrize(("name", "players", "options"), TABLES)
def test_pettingzoo_state_test_passes_when_an_illegal_action_ends_the_episode(
    name: str, players: int, options: dict
) -> None:
    """Issue 44: PettingZoo's own `state_test` plays random action codes, nearly all illegal;
    with `illegal_reward` the episode ends on one, as PettingZoo's classic games do."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its warnings, e.g. on the agents after the end
        made = env(name, players=players, options=options, illegal_reward=-1)
        state_test(made, env(name, players=players, options=options, illegal_reward=-1))


def test_an_illegal_action_raises_or_ends_the_episode_with_its_penalty() -> None:
    """Without `illegal_reward` an illegal action is a ValueError; with it, the episode ends:
    the penalty to the agent that played it, 0 to the others, `illegal_move` in its info."""
    strict = env("flowers", players=3)
    strict.reset(seed=3)
    legal = strict.position.legal_actions()
    illegal = next(code for code in range(NUM_ACTIONS["flowers"]) if code not in legal)
    with pytest.raises(ValueError, match="not legal here"):
        strict.step(illegal)
    game = env("flowers", players=3, illegal_reward=-1)
    game.reset(seed=3)
    offender = game.agent_selection
    game.step(illegal)
    assert all(game.terminations.values())
    assert game.rewards == {a: (-1.0 if a == offender else 0.0) for a in game.agents}
    assert game.infos[offender] == {"illegal_move": True}


def test_state_before_reset_is_one_sentence() -> None:
    with pytest.raises(RuntimeError, match="no state before the first reset"):
        env("mandala").state()


def test_an_unsupported_render_mode_is_refused_and_ours_render(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 34, item 4: a render mode we do not have was accepted silently."""
    with pytest.raises(ValueError, match="render_mode 'rgb_array' is not one of ours: ansi, human"):
        env("mandala", render_mode="rgb_array")
    render_test(lambda render_mode: env("mandala", render_mode=render_mode))  # PettingZoo's own
    game = env("mandala", render_mode="ansi")
    game.reset(seed=2)
    shown = game.render()
    assert isinstance(shown, str) and json.loads(shown) == game.position.spectator_view()
    capsys.readouterr()
    human = env("mandala", render_mode="human")
    human.reset(seed=2)
    assert human.render() is None
    assert json.loads(capsys.readouterr().out) == game.position.spectator_view()
    assert env("mandala").render() is None  # no render mode: nothing rendered


def _openspiel(name: str, players: int, options: dict | None) -> Any:
    pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed")
    import arena.ecosystem.openspiel_games  # noqa: F401  (registers the arena_* games)

    return pyspiel.load_game(f"arena_{name}", {"players": players, **(options or {})})


def _agree(pz: Any, state: Any, players: int) -> None:
    """The env sees what OpenSpiel sees: the agent on turn, each seat's view and its
    vector, the legal actions."""
    from arena import compact_json

    for seat in range(players):
        agent = f"player_{seat}"
        assert compact_json.dumps(pz.view(agent)) == state.observation_string(seat)
        observed = pz.observe(agent)["observation"].tolist()
        assert observed == pytest.approx(state.observation_tensor(seat))
    assert pz.agent_selection == f"player_{state.current_player()}"
    mask = pz.observe(pz.agent_selection)["action_mask"]
    assert np.flatnonzero(mask).tolist() == state.legal_actions()


def _play_along(name: str, players: int, options: dict | None, seed: int, steps: int) -> bool:
    """A random OpenSpiel game (explicit chance), the env started from its position at each
    decision: they agree there, and after a step that draws nothing (the env's engine would
    draw from its own seed, OpenSpiel's chance here) they are in the same position again, or
    the env's rewards are OpenSpiel's returns. Whether an end was so compared."""
    game = _openspiel(name, players, options)
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    while not state.is_terminal() and steps > 0:
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probabilities)))
            continue
        pz = env(name, players=players, options=options)
        pz.reset(options={"position": state.position})
        _agree(pz, state, players)
        action = int(rng.choice(state.legal_actions()))
        state.apply_action(action)
        steps -= 1
        if state.is_chance_node():
            continue
        pz.step(action)
        if state.is_terminal():
            assert [pz.rewards[f"player_{seat}"] for seat in range(players)] == state.returns()
            return True
        _agree(pz, state, players)
    return False


@pytest.mark.parametrize(("name", "players", "options"), TABLES)
def test_the_env_agrees_with_the_openspiel_game_step_by_step(
    name: str, players: int, options: dict | None
) -> None:
    """Issue 34: the env and the OpenSpiel game (chance as the physical game has it) agree
    at the first 60 decisions of a game."""
    _play_along(name, players, options, seed=3, steps=60)


@pytest.mark.parametrize(("name", "players", "options"), [
    ("mandala", 2, {"turn_limit": 8}), ("flowers", 3, {"turn_limit": 6}),
    ("takenoko", 2, {"max_rounds": 2}),
])  # fmt: skip
def test_the_env_and_the_openspiel_game_agree_to_the_end(
    name: str, players: int, options: dict
) -> None:
    """Short games (turn or round limits R12, F24, T14) played to the end: the env's rewards
    are OpenSpiel's returns at an end the two reached by the same step."""
    ends = sum(_play_along(name, players, options, seed, steps=10_000) for seed in range(6))
    assert ends >= 1
