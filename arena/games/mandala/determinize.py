"""Build a full `MandalaState` from one seat's view, sampling what that seat cannot see.

A search bot sees only its view (R14). To simulate, it needs a whole state: this module
deals the unseen cards (the opponent's hand, the opponent's 2 setup Cup cards and the deck
order) at random from the multiset of cards the seat has not seen, so that the sampled
state shows the seat exactly the view it was built from. Sampling many such states and
searching each is "determinized" search; information-set MCTS samples one per iteration.

    rng = random.Random(7)
    state = determinize(view, rng)        # a MandalaState; state.view(seat) == view
    state.apply_action(state.legal_actions()[0])

`determinize` reads the whole view; a search that samples thousands of times can call it
once and then deal again on copies, which is ten times cheaper:

    sample = state.copy()
    redeal(sample, seat, rng)             # new opponent hand, setup Cup, deck order, seed

The deck order after a future reshuffle comes from the state's seed, so the sampled state
gets a fresh random seed: a search never learns a real future shuffle.

After a reshuffle the view recalls what the new deck was made of (`since_reshuffle`: the
discard pile was face up, R14). The sampled deck is then drawn from those cards only:
the reshuffled cards that neither this seat nor a Mountain refill drew, which the deck and
the opponent's draws since the reshuffle share at random. (What the opponent played
since then is not used to tell which of them they drew: a small, deliberate approximation.)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from arena.games.base import View
from arena.games.determinize import Sampler
from arena.games.mandala.cards import (
    CARDS_PER_COLOUR,
    CLAIM_DECISION,
    COLOUR_INDEX,
    COLOURS,
    NUM_COLOURS,
)
from arena.games.mandala.ends import (
    DECK_EXHAUSTED,
    SIXTH_RIVER_COLOUR,
    STALLED,
    TURN_LIMIT,
    stalled,
)
from arena.games.mandala.state import MandalaState

__all__ = ["MandalaDeterminizer", "determinize", "pile_from_json", "redeal", "unseen_cards"]


def pile_from_json(pile: Mapping[str, Any]) -> list[int]:
    """A JSON pile (colour name -> count) as a list of six counts by colour index."""
    return [int(pile.get(name, 0)) for name in COLOURS]


def _river(names: Sequence[str]) -> list[int]:
    return [COLOUR_INDEX[name] for name in names]


def unseen_cards(view: Mapping[str, Any]) -> list[int]:
    """How many cards of each colour the seat of `view` has not seen (R14).

    108 cards (R1) minus the seat's hand and Cup, the discard pile, every Mountain and
    Field, both Rivers and the opponent's openly claimed Cup cards. These are exactly the
    opponent's hand, the opponent's setup Cup cards and the deck.
    """
    seat = int(view["seat"])
    unseen = [CARDS_PER_COLOUR] * NUM_COLOURS
    seen: list[list[int]] = [
        pile_from_json(view["hand"]),
        pile_from_json(view["cup"]),
        pile_from_json(view["discard"]),
        pile_from_json(view["players"][1 - seat]["cup_claimed"]),
    ]
    for mandala in view["mandalas"]:
        seen.append(pile_from_json(mandala["mountain"]))
        seen.extend(pile_from_json(field) for field in mandala["fields"])
    for player in view["players"]:
        for colour in _river(player["river"]):
            unseen[colour] -= 1
    for pile in seen:
        for colour in range(NUM_COLOURS):
            unseen[colour] -= pile[colour]
    return unseen


def determinize(
    view: Mapping[str, Any], rng: random.Random, turn_limit: int = 1000
) -> MandalaState:
    """A state consistent with `view`, its hidden cards dealt at random from the unseen ones.

    The result gives the view's seat the same view (`state.view(seat) == view`), holds
    all 108 cards, and has a random seed for any later reshuffle. `turn_limit` is the
    game's configuration (R12), which the view does not carry (it is in `new_game`).
    Raises ValueError when the view's counts do not add up to 108 cards.
    """
    return _SAMPLER.determinize(dict(view), rng, {"turn_limit": turn_limit})


def redeal(state: MandalaState, seat: int, rng: random.Random) -> None:
    """Deal again, in place, every card `seat` cannot see, and give the state a new seed.

    The opponent's hand, their setup Cup cards and the deck are pooled and dealt back in
    the same sizes (the deck only from cards it can hold, see the module's docstring), so
    `state.view(seat)` does not change (R14).
    """
    _deal_hidden(state, seat, _pool(state, seat), rng)


def _check(view: Mapping[str, Any], unseen: list[int]) -> None:
    """ValueError unless the unseen cards are exactly the opponent's hand, their unknown
    Cup cards and the deck (R1: 108 cards)."""
    opponent = view["players"][1 - int(view["seat"])]
    opponent_hand = int(opponent["hand_size"])
    opponent_setup = int(opponent["cup_unknown"])
    deck_size = int(view["deck_size"])
    if min(unseen) < 0 or sum(unseen) != opponent_hand + opponent_setup + deck_size:
        raise ValueError(
            f"The view does not add up to {CARDS_PER_COLOUR * NUM_COLOURS} cards: "
            f"{sum(unseen)} unseen, but the opponent's hand ({opponent_hand}), their unknown "
            f"Cup cards ({opponent_setup}) and the deck ({deck_size}) need "
            f"{opponent_hand + opponent_setup + deck_size}."
        )


def _show(state: MandalaState, view: Mapping[str, Any]) -> list[int]:
    """Set what `view` shows in `state`; the cards its seat has not seen, by colour."""
    unseen = unseen_cards(view)
    _check(view, unseen)
    seat = int(view["seat"])
    state.turns = int(view["turn"])
    state.current = int(view["to_move"])
    state.end_triggered = bool(view["end_triggered"])
    state.discard = pile_from_json(view["discard"])
    for m, mandala in enumerate(view["mandalas"]):
        state.mountains[m] = pile_from_json(mandala["mountain"])
        state.fields[m] = [pile_from_json(field) for field in mandala["fields"]]
    for s, player in enumerate(view["players"]):
        state.rivers[s] = _river(player["river"])
        state.cup_claimed[s] = pile_from_json(player["cup_claimed"])
        state.hand_sizes[s] = int(player["hand_size"])

    own_cup = pile_from_json(view["cup"])
    state.hands[seat] = pile_from_json(view["hand"])
    state.cup_setup[seat] = [a - b for a, b in zip(own_cup, state.cup_claimed[seat], strict=True)]

    since = view.get("since_reshuffle")
    if since is not None:
        state.reshuffled = [
            pile_from_json(since["deck"]),
            [0] * NUM_COLOURS,
            [0] * NUM_COLOURS,
            pile_from_json(since["refills"]),
        ]
        state.reshuffled[1 + seat] = pile_from_json(since["drawn_by_you"])
    # Only the sizes matter here: `_deal_hidden` deals the cards (and the opponent's draws).
    state.hands[1 - seat] = [int(view["players"][1 - seat]["hand_size"]), 0, 0, 0, 0, 0]
    state.deck = [0] * int(view["deck_size"])
    return unseen


def _settle(state: MandalaState, view: Mapping[str, Any]) -> None:
    """The destruction under way, and the end the sampled cards imply."""
    # A 6th River colour can only have appeared during the destruction under way (R9b).
    state.sixth_colour = any(len(river) == NUM_COLOURS for river in state.rivers)
    destroying = view.get("destroying")
    if destroying is not None:
        state.destroying = int(destroying["mandala"])
        state.completed_by = int(destroying["completed_by"])
        if view["decision"] == CLAIM_DECISION:
            state.claimer = int(view["deciding_seat"])
    if view["decision"] is None:  # the end the sampled cards imply; a stall before the limit
        state.over = True
        if state.sixth_colour:
            state.end = SIXTH_RIVER_COLOUR
        elif stalled(state):
            state.end = STALLED  # R15, R16, even on the limit's turn (R17)
        elif state.turns >= state.turn_limit:
            state.end = TURN_LIMIT
        else:
            state.end = DECK_EXHAUSTED


def _pool(state: MandalaState, seat: int) -> list[int]:
    """The cards `seat` cannot see, by colour: the deck, the opponent's hand and setup Cup."""
    other = 1 - seat
    unseen = [0] * NUM_COLOURS
    for colour in state.deck:
        unseen[colour] += 1
    for pile in (state.hands[other], state.cup_setup[other]):
        for colour in range(NUM_COLOURS):
            unseen[colour] += pile[colour]
    return unseen


def _shuffle(cards: list[int], rng: random.Random) -> None:
    """Fisher-Yates with random(): three times cheaper than rng.shuffle, called per sample."""
    draw = rng.random
    for i in range(len(cards) - 1, 0, -1):
        j = int(draw() * (i + 1))
        cards[i], cards[j] = cards[j], cards[i]


def _deal_hidden(state: MandalaState, seat: int, unseen: list[int], rng: random.Random) -> None:
    """Deal the `unseen` cards to the deck, the opponent's hand and their setup Cup.

    Keeps the sizes the state has; after a reshuffle the deck takes only cards of the
    reshuffled deck that `seat` and the refills did not draw (the rest of those were drawn
    by the opponent).
    """
    other = 1 - seat
    deck_size = len(state.deck)
    opponent_hand = sum(state.hands[other])
    reshuffled = state.reshuffled
    if reshuffled is None:
        rest = [colour for colour in range(NUM_COLOURS) for _ in range(unseen[colour])]
        _shuffle(rest, rng)
        deck = rest[len(rest) - deck_size :] if deck_size else []
        rest = rest[: len(rest) - deck_size]
    else:
        made, mine, refills = reshuffled[0], reshuffled[1 + seat], reshuffled[3]
        left = [made[c] - mine[c] - refills[c] for c in range(NUM_COLOURS)]
        pool = [c for c in range(NUM_COLOURS) for _ in range(min(left[c], unseen[c]))]
        if len(pool) < deck_size:
            raise ValueError(
                f"The deck holds {deck_size} cards but only {len(pool)} unseen cards of the "
                "reshuffled deck are left for it."
            )
        _shuffle(pool, rng)
        deck = pool[:deck_size]
        in_deck = [0] * NUM_COLOURS
        for colour in deck:
            in_deck[colour] += 1
        # The opponent drew the others since the reshuffle (only their number is seen).
        reshuffled[1 + other] = [left[c] - in_deck[c] for c in range(NUM_COLOURS)]
        rest = [c for c in range(NUM_COLOURS) for _ in range(unseen[c] - in_deck[c])]
        _shuffle(rest, rng)
    hand = [0] * NUM_COLOURS
    setup = [0] * NUM_COLOURS
    for colour in rest[:opponent_hand]:
        hand[colour] += 1
    for colour in rest[opponent_hand:]:
        setup[colour] += 1
    state.hands[other] = hand
    state.cup_setup[other] = setup
    state.deck = deck
    state.seed = rng.getrandbits(62)
    state.shuffles = 0


class MandalaDeterminizer(Sampler[MandalaState, list[int]]):
    """Mandala's sampling of hidden information, for game-neutral search bots."""

    state_type = MandalaState

    def fresh(self, view: View, seed: int, config: Mapping[str, Any]) -> MandalaState:
        return MandalaState.empty(seed=seed, turn_limit=int(config.get("turn_limit", 1000)))

    def show(self, state: MandalaState, view: View) -> list[int]:
        return _show(state, view)

    def deal(self, state: MandalaState, seat: int, unseen: list[int], rng: random.Random) -> None:
        _deal_hidden(state, seat, unseen, rng)

    def settle(self, state: MandalaState, view: View) -> None:
        _settle(state, view)

    def pool(self, state: MandalaState, seat: int) -> list[int]:
        return _pool(state, seat)


_SAMPLER = MandalaDeterminizer()
