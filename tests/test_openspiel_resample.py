"""Issue 44: `resample_from_infostate` deals what the seat has not seen once, consistent
with what it saw and uniformly among those deals (arena/ecosystem/resample.py), at every
game and table size.

- Consistency: the seat's information-state string and observation are the real state's.
- Uniformity: over many resamples of one position, the items found in the other seats'
  hidden hands match, by a chi-square test, the share of the unseen items each kind
  would give by chance (every unseen item equally likely in every hidden place). The
  resamples are seeded, so the test gives the same answer every run.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed (the ecosystem extra)")

import arena.ecosystem.openspiel_games  # noqa: E402, F401
from arena.games.takenoko.cards import deck_of  # noqa: E402
from tests.test_ecosystem_openspiel import TABLES  # noqa: E402

SAMPLES = 400
Z_999 = 3.09
"""The normal quantile of 0.999: the chi-square test fails one fair sampler in 1,000."""


def _position(game: Any, seed: int, history: int) -> Any:
    """A random game, played to its first decision after `history` steps."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    while len(state.history()) < history or state.is_chance_node():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probabilities)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert not state.is_terminal()
    return state


def _hidden(name: str, position: Any, seat: int) -> tuple[Counter[Any], Counter[Any]]:
    """What the other seats hold that `seat` has not seen (items by kind), and every item
    `seat` has not seen that could be there (the pool the deal draws from)."""
    others = [other for other in range(len(position.hands)) if other != seat]
    if name == "mandala":
        other = others[0]
        hand = Counter({("card", c): n for c, n in enumerate(position.hands[other])})
        pool = hand + Counter({("card", c): n for c, n in enumerate(position.cup_setup[other])})
        return +hand, +(pool + Counter(("card", c) for c in position.deck))
    if name == "flowers":
        hand = Counter()
        for other in others:
            for c, n in enumerate(position.hands[other]):
                hand["card", c] += n - position.known[other][c]
        return +hand, +(hand + Counter(("card", c) for c in position.deck))
    mine = set(position.returned[seat])
    cards = [card for other in others for card in position.hands[other]]
    free = [card for deck in position.decks.values() for card in deck if card not in mine]
    if position.current != seat:
        free += position.cabin
    return Counter((deck_of(c), c) for c in cards), Counter((deck_of(c), c) for c in cards + free)


def _chi_square_bound(freedom: int) -> float:
    """The chi-square value a fair sampler exceeds with chance 1/1000 (Wilson-Hilferty)."""
    k = 2 / (9 * freedom)
    return freedom * (1 - k + Z_999 * math.sqrt(k)) ** 3


@pytest.mark.parametrize(("name", "params"), TABLES)
def test_resamples_are_consistent_and_uniform_among_the_deals_the_seat_cannot_tell_apart(
    name: str, params: dict[str, Any]
) -> None:
    game = pyspiel.load_game(f"arena_{name}", params)
    state = _position(game, seed=44, history=40)
    seat = state.current_player()
    real = state._play.position
    mine, observed = state.information_state_string(seat), state.observation_string(seat)
    held, pool = _hidden(name, real, seat)
    draw = random.Random(4).random
    found: Counter[Any] = Counter()
    for _ in range(SAMPLES):
        other = state.resample_from_infostate(seat, draw)
        assert other.information_state_string(seat) == mine
        assert other.observation_string(seat) == observed
        sample, sample_pool = _hidden(name, other._play.position, seat)
        assert sample_pool == pool  # the same unseen items, dealt again
        found += sample
    slots: Counter[str] = Counter()
    pooled: Counter[str] = Counter()
    for (kind, _), count in held.items():
        slots[kind] += count
    for (kind, _), count in pool.items():
        pooled[kind] += count
    statistic = 0.0
    for item, count in pool.items():
        expected = SAMPLES * slots[item[0]] * count / pooled[item[0]]
        if expected > 0:
            statistic += (found[item] - expected) ** 2 / expected
    freedom = len(pool) - len(pooled)
    assert freedom > 0 and sum(slots.values()) > 0
    assert statistic < _chi_square_bound(freedom), (statistic, freedom)
    assert found != Counter({item: SAMPLES * n for item, n in held.items()})  # not the real
