"""Checks shared by the property tests of the games (hypothesis drives the choices)."""

from __future__ import annotations

from arena.games import GameState


def play_on(state: GameState, picks: list[int]) -> GameState:
    """`state` after choosing by index from `picks` (until the game ends); the same object."""
    for pick in picks:
        if state.is_over():
            break
        actions = state.legal_actions()
        state.apply_action(actions[pick % len(actions)])
    return state


def assert_copies_are_independent(state: GameState, more: list[int]) -> None:
    """A copy that plays on, chance included (its own copy of every random stream), leaves
    the original as it was; the original then playing the same choices reaches the same
    position; a copy left alone stays as it was."""
    players = state.num_players
    before = state.spectator_view()
    views = [state.view(s) for s in range(players)]
    twin, other = state.copy(), state.copy()
    play_on(other, more)
    assert state.spectator_view() == before
    assert [state.view(s) for s in range(players)] == views
    play_on(state, more)
    assert state.spectator_view() == other.spectator_view()
    assert twin.spectator_view() == before
