"""Issue 43: every move is narrated in the game's words, as a board-game player says it.

Random games of each game (several seeds, every option, Takenoko with Chibis too): the words
of every legal move (`describe_move`, which the human seat's list, the replays and the log
use), the replay's lines (`narrate_step`, `narrate_after`) and the words another seat hears
of a move (arena/human/narration.py) hold no machine form: no bracket, no quote, no raw card
or tile id, no Python repr.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from arena.game_sources import get_game
from arena.human.narration import move_words

MACHINE = re.compile(
    r"[\[\]{}\"]"  # lists, dicts, JSON
    r"|'(?!s\b)"  # a quote (an apostrophe of "Kami's Garden" is words)
    r"|\b(?:P[GYP]\d\d|CX\d|PL\d\d|GA\d\d|PA\d\d|B[GYP]-(?:IRR|IMP|OBJ))\b"  # card and tile ids
    r"|\b(?:None|True|False|SUN|RAIN|WIND|STORM|CLOUDS|CHOICE)\b"  # reprs, the die's codes
    r"|\b[GYP]\b"  # a colour as its letter
)

TABLES = [
    ("mandala", {}, 2),
    ("flowers", {}, 2),
    ("flowers", {}, 4),
    ("takenoko", {}, 2),
    ("takenoko", {"redraw_met_objectives": True}, 3),
    ("takenoko", {"chibis": True}, 2),
    ("takenoko", {"chibis": True}, 4),
]


def _clean(text: str, where: str) -> None:
    found = MACHINE.search(text)
    assert found is None, f"{where}: {text!r} has machine words ({found.group()!r})"


def _names(seat: int) -> str:
    return f"seat {seat} (bot)"


@pytest.mark.parametrize(("game", "options", "players"), TABLES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_narrated_move_is_in_words(
    game: str, options: dict[str, Any], players: int, seed: int
) -> None:
    rules = get_game(game)
    state = rules.new_state(seed, rules.config(options), num_players=players)
    rng = random.Random(seed)
    actions: set[str] = set()
    while not state.is_over() and state.turn < 400:
        decision = state.decision()
        assert decision is not None
        legal = state.legal_moves()
        for move in legal:
            _clean(state.describe_move(move), f"{game} move {move}")
        move = rng.choice(legal)
        actions.add(str(move.get("action")))
        for line in rules.narrate_step(state, decision, move, _names):
            _clean(line, f"{game} step {move}")
        for seat in range(players):  # what each other seat hears of it
            _clean(move_words(game, state, move, decision.seat, seat), f"{game} heard {move}")
        before = state.turn
        state.apply_move(move)
        for line in rules.narrate_after(state, move, before, _names):
            _clean(line, f"{game} after {move}")
    for line in rules.narrate_end(state, [_names(seat) for seat in range(players)]):
        _clean(line, f"{game} end")
    assert len(actions) > 1


def test_takenoko_tells_hexes_cards_and_the_die_in_words() -> None:
    """A few moves word for word: hexes by their tile and label, plots and objective cards by
    their meaning, the die's face, what a skip declines."""
    rules = get_game("takenoko")
    state = rules.new_state(4, rules.config({"chibis": True}), num_players=2)
    assert state.describe_move({"action": "move_panda", "to": [0, 0]}) == (
        "moves the panda to the pond at 0,0"
    )
    assert state.describe_move({"action": "place", "plot": "PG09", "to": [1, -1]}) == (
        "places a green plot with an enclosure at 1,-1"
    )
    assert state.describe_move({"action": "return", "order": ["PY01", "CX2"]}) == (
        "puts back under the plot deck a yellow plot, then Kami's Garden"
    )
    assert state.describe_move({"action": "complete", "card": "PA13"}) == (
        "completes a panda objective (a green, a yellow and a pink section eaten, 6 points)"
    )
    assert state.describe_move({"action": "complete", "card": "PA01"}) == (
        "completes a panda objective (two green sections eaten, 3 points)"
    )
    assert state.describe_move({"action": "baby", "colour": "G"}) == (
        "pays a green section for a baby panda"
    )
    state.apply_move({"action": "plot"})
    plot = state.legal_moves()[0]
    state.apply_move(plot)
    if state.decision() is not None and state.decision().kind == "return":  # type: ignore[union-attr]
        state.apply_move(state.legal_moves()[0])
    at = ",".join(map(str, plot["to"]))
    channel = {"action": "channel", "edge": [[0, 0], plot["to"]]}
    assert state.describe_move(channel) == (
        f"places a channel between the pond at 0,0 and {_tile_words(plot)} at {at}"
    )
    state.pending = "baby"
    assert state.describe_move({"action": "skip"}) == "adopts no baby panda"
    state.pending = "rain"
    assert state.describe_move({"action": "skip"}) == "lets no plot grow in the rain"
    state.pending = None
    state.rolled_face = "RAIN"
    assert rules.narrate_after(state, {"action": "roll"}, 0, _names) == [
        "          the weather die shows rain"
    ]


def _tile_words(place: dict[str, Any]) -> str:
    from arena.games.takenoko.components import COLOUR_NAMES, TILE_NAMES, TILES

    plot = place["plot"]
    if plot in TILE_NAMES:
        return TILE_NAMES[plot]
    return f"the {COLOUR_NAMES[TILES[plot].colour]} plot"
