"""Issue 43: what a spectator of a human game is told (`Desk.watch`): the game's public view
after every move, never a seat's, and the moves as a seat of none hears them: every seat's
hidden choice (the human's own too) without what it hides."""

from __future__ import annotations

import json
import random

import pytest

from arena import compact_json
from arena.game_sources import get_game
from arena.human.desk import Desk
from arena.human.narration import PRIVATE_WORDS
from arena.human.seat import Narrator


@pytest.mark.parametrize(
    ("game", "options", "players"),
    [("takenoko", {"chibis": True}, 3), ("mandala", {}, 2), ("flowers", {}, 3)],
)
def test_a_spectator_sees_the_public_view_and_hears_no_hidden_choice(
    game: str, options: dict[str, object], players: int
) -> None:
    names = ["human:ann"] + [f"bot{seat}" for seat in range(1, players)]
    desk = Desk(game, names, 0, 1000)
    narrator = Narrator(desk, seed=3)
    narrator.start(game, options, players)
    rules = get_game(game)
    state = rules.new_state(3, rules.config(options), num_players=players)  # the same deal
    assert desk.watch()["view"] == json.loads(compact_json.dumps(state.public_view()))
    rng = random.Random(3)
    private = PRIVATE_WORDS.get(game, {})
    hidden = 0
    while not state.is_over() and state.turn < 300:
        decision = state.decision()
        assert decision is not None
        move = rng.choice(state.legal_moves())
        request = {"view": state.view(decision.seat), "decision": decision.kind}
        narrator.told(decision.seat, request, move)
        state.apply_move(move)
        watched = desk.watch(told=10**6)
        public = json.loads(compact_json.dumps(state.public_view()))
        assert watched["view"] == public and watched["last"]["seat"] == decision.seat
        line = desk.watch(told=watched["lines"] - 1)["narration"][0]
        seat_line = desk.snapshot(told=watched["lines"] - 1)["narration"][0]
        if move["action"] in private:  # told without it, the human's own too
            hidden += 1
            assert watched["last"]["move"] is None
            assert line.endswith(private[move["action"]]) or private[move["action"]] + ";" in line
            if decision.seat == 0:
                assert seat_line != line and watched["last"]["text"] not in seat_line
        else:
            assert line.replace("seat 0 (human:ann)", "you") == seat_line
    assert game != "takenoko" or hidden > 3
    assert "hand" not in watched["view"] and "hands" not in watched["view"]
