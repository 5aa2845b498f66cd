"""The OpenSpiel games for research (issue 34): chance where the physical game draws,
perfect recall, OpenSpiel's own tools (playthroughs), parameters refused as SpielError."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed (the ecosystem extra)")

from absl import flags  # noqa: E402
from open_spiel.python.algorithms import generate_playthrough  # noqa: E402

import arena.ecosystem.openspiel_games  # noqa: E402, F401

PLAYTHROUGHS = Path(__file__).parent / "playthroughs"
TABLES = [
    ("mandala", {"players": 2}),
    ("flowers", {"players": 2}),
    ("flowers", {"players": 4}),
    ("takenoko", {"players": 2}),
    ("takenoko", {"players": 3, "chibis": True}),
]


def _play(state: pyspiel.State, rng: random.Random, steps: int) -> pyspiel.State:
    """`steps` random steps (chance outcomes by their probabilities)."""
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probabilities)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_the_deal_is_chance_nodes_of_the_cards_still_in_the_deck() -> None:
    """Item 1, R1, R2: the root draws a Mandala card, each colour 18 of 108; every later
    node's probabilities are the counts of what is still in the pile."""
    game = pyspiel.load_game("arena_mandala")
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert state.chance_outcomes() == [(colour, 1 / 6) for colour in range(6)]
    state.apply_action(0)  # a black card to Mandala 0's Mountain
    assert dict(state.chance_outcomes())[0] == pytest.approx(17 / 107)
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 4) == "deck: red"


@pytest.mark.parametrize(("name", "params"), TABLES)
def test_a_seat_information_is_the_same_for_every_deal_it_cannot_see(
    name: str, params: dict
) -> None:
    """Item 1: a resample deals again what the seat has not seen (another hand, another
    seat's draws); the seat's information state and observation do not change, and the
    hidden cards do. Its history() is the real one (issue 44: the unseen is dealt once,
    not by replaying a history that would lead to it), so it replays to the real state."""
    game = pyspiel.load_game(f"arena_{name}", params)
    rng = random.Random(5)
    state = _play(game.new_initial_state(), rng, 60)
    changed = 0
    for seat in range(game.num_players()):
        for _ in range(3):
            other = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0.0, 1.0))
            assert other.information_state_string(seat) == state.information_state_string(seat)
            if not state.is_chance_node():
                assert other.observation_string(seat) == state.observation_string(seat)
            replayed = game.new_initial_state()
            for action in other.history():
                replayed.apply_action(action)
            assert str(replayed) == str(state) and other.history() == state.history()
            changed += str(other) != str(state)
    assert changed > 0


def test_the_information_state_is_perfect_recall() -> None:
    """Item 2: a seat's information state holds its own actions and every change of its
    view, in order: each earlier one is a prefix of the later ones; the observation is the
    view as it is now."""
    game = pyspiel.load_game("arena_flowers", {"players": 3})
    state = game.new_initial_state()
    rng = random.Random(2)
    earlier = [""] * 3
    for _ in range(150):
        _play(state, rng, 1)
        if state.is_terminal():
            break
        if state.is_chance_node():
            continue
        seat = state.current_player()
        now = state.information_state_string(seat)
        assert now.startswith(earlier[seat]) and now != earlier[seat]
        earlier[seat] = now
        json.loads(state.observation_string(seat))  # the view, as the referee sends it
    mine = [line for line in earlier[0].splitlines() if line.startswith("you: ")]
    assert len(mine) > 5


def test_the_information_state_tensor_holds_the_view_and_the_actions() -> None:
    """Item 2: the tensor is the view's numbers, then (seat + 1, own action + 1) per step."""
    game = pyspiel.load_game("arena_mandala", {"turn_limit": 50})
    state = _play(game.new_initial_state(), random.Random(3), 40)
    view = len(state.observation_tensor(0))
    assert game.information_state_tensor_size() == view + 2 * game.max_game_length()
    for seat in range(2):
        tensor = state.information_state_tensor(seat)
        assert tensor[:view] == state.observation_tensor(seat)
        pairs = list(zip(tensor[view::2], tensor[view + 1 :: 2], strict=True))
        acted = [(int(who) - 1, int(code) - 1) for who, code in pairs if who]
        mine = [int(line.split()[1]) for line in state.information_state_string(seat).splitlines()
                if line.startswith("you: ")]  # fmt: skip
        assert [code for who, code in acted if who == seat] == mine


def test_observers_return_none_for_the_types_the_games_do_not_provide() -> None:
    """Item 3: OpenSpiel's convention (kuhn_poker.py): None, not a ValueError."""
    game = pyspiel.load_game("arena_mandala")
    public = pyspiel.IIGObservationType(
        public_info=True, perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE
    )
    private = pyspiel.IIGObservationType(
        public_info=False, perfect_recall=False, private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER
    )
    assert game.make_py_observer(public) is None
    assert game.make_py_observer(private) is None
    assert game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True)) is not None


@pytest.mark.parametrize("name", ["arena_mandala", "arena_flowers", "arena_takenoko"])
def test_the_playthrough_regenerates_as_stored(name: str) -> None:
    """Item 3: OpenSpiel's generate_playthrough runs, and its file in tests/playthroughs
    (short games: a few turns) comes out the same again, as OpenSpiel's integration tests
    check theirs. Regenerate with `python -m arena.ecosystem.playthroughs`."""
    if not flags.FLAGS.is_parsed():
        flags.FLAGS.mark_as_parsed()
    original, again = generate_playthrough.replay(str(PLAYTHROUGHS / f"{name}.txt"))
    assert again == original


@pytest.mark.parametrize(
    ("name", "params"),
    [
        ("arena_mandala", {"turn_limit": -3}),
        ("arena_mandala", {"players": 3}),
        ("arena_flowers", {"players": 9}),
        ("arena_takenoko", {"max_rounds": 0}),
        ("arena_takenoko", {"chibis": 2}),
    ],
)
def test_a_value_the_game_refuses_is_a_spiel_error(name: str, params: dict) -> None:
    with pytest.raises(pyspiel.SpielError, match="turn_limit|players|max_rounds|chibis"):
        pyspiel.load_game(name, params)
