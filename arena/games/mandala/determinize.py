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
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from arena.games.mandala.cards import CARDS_PER_COLOUR, COLOUR_INDEX, COLOURS, NUM_COLOURS
from arena.games.mandala.state import CLAIM_DECISION, MandalaState
from arena.outcome import Termination

__all__ = ["determinize", "pile_from_json", "redeal", "unseen_cards"]


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
    seat = int(view["seat"])
    other = 1 - seat
    opponent = view["players"][other]
    unseen = unseen_cards(view)
    hidden = [colour for colour in range(NUM_COLOURS) for _ in range(unseen[colour])]
    opponent_hand = int(opponent["hand_size"])
    opponent_setup = int(opponent["cup_unknown"])
    deck_size = int(view["deck_size"])
    if min(unseen) < 0 or len(hidden) != opponent_hand + opponent_setup + deck_size:
        raise ValueError(
            f"The view does not add up to {CARDS_PER_COLOUR * NUM_COLOURS} cards: "
            f"{len(hidden)} unseen, but the opponent's hand ({opponent_hand}), their unknown "
            f"Cup cards ({opponent_setup}) and the deck ({deck_size}) need "
            f"{opponent_hand + opponent_setup + deck_size}."
        )
    rng.shuffle(hidden)

    state = MandalaState.empty(seed=rng.getrandbits(62), turn_limit=turn_limit)
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

    # The hidden cards: the opponent's hand, then their setup Cup, then the deck.
    hand = [0] * NUM_COLOURS
    for colour in hidden[:opponent_hand]:
        hand[colour] += 1
    setup = [0] * NUM_COLOURS
    for colour in hidden[opponent_hand : opponent_hand + opponent_setup]:
        setup[colour] += 1
    state.hands[other] = hand
    state.cup_setup[other] = setup
    state.deck = hidden[opponent_hand + opponent_setup :]

    # A 6th River colour can only have appeared during the destruction under way (R9b).
    state.sixth_colour = any(len(river) == NUM_COLOURS for river in state.rivers)
    destroying = view.get("destroying")
    if destroying is not None:
        state.destroying = int(destroying["mandala"])
        state.completed_by = int(destroying["completed_by"])
        if view["decision"] == CLAIM_DECISION:
            state.claimer = int(view["deciding_seat"])
    if view["decision"] is None:
        state.over = True
        if state.sixth_colour:
            state.termination = Termination.SIXTH_RIVER_COLOUR
        elif state.turns >= turn_limit:
            state.termination = Termination.TURN_LIMIT
        else:
            state.termination = Termination.DECK_EXHAUSTED
    return state


def redeal(state: MandalaState, seat: int, rng: random.Random) -> None:
    """Deal again, in place, every card `seat` cannot see, and give the state a new seed.

    The opponent's hand, their setup Cup cards and the deck are pooled, shuffled and dealt
    back in the same sizes, so `state.view(seat)` does not change (R14).
    """
    other = 1 - seat
    hidden = state.deck[:]
    for pile in (state.hands[other], state.cup_setup[other]):
        for colour in range(NUM_COLOURS):
            hidden.extend([colour] * pile[colour])
    rng.shuffle(hidden)
    hand = [0] * NUM_COLOURS
    setup = [0] * NUM_COLOURS
    opponent_hand = sum(state.hands[other])
    opponent_setup = sum(state.cup_setup[other])
    for colour in hidden[:opponent_hand]:
        hand[colour] += 1
    for colour in hidden[opponent_hand : opponent_hand + opponent_setup]:
        setup[colour] += 1
    state.hands[other] = hand
    state.cup_setup[other] = setup
    state.deck = hidden[opponent_hand + opponent_setup :]
    state.seed = rng.getrandbits(62)
    state.shuffles = 0
