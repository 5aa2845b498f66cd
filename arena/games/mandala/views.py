"""What a seat of Mandala sees (R14), as data and as JSON text made directly (the hot path),
and what a spectator sees."""

from __future__ import annotations

import json
from typing import Any

from arena.games.base import View
from arena.games.mandala.cards import CLAIM_DECISION, COLOURS, TURN, pile_json
from arena.games.mandala.position import Position

SEAT_KEYS = ("seat", "hand", "cup", "since_reshuffle")
"""A seat's view's keys about that seat alone (its hand, whole Cup, what it saw drawn)."""


def public_view(state: Position) -> View:
    """R14's public part: seat 0's view without its seat-bound keys, every setup Cup unseen."""
    whole = view(state, 0)
    for key in SEAT_KEYS:
        whole.pop(key, None)
    for player, setup in zip(whole["players"], state.cup_setup, strict=True):
        player["cup_unknown"] = sum(setup)
    return whole


def spectator_view(state: Position) -> View:
    """Everything: seat 0's view without its seat-bound keys, every hand and whole Cup,
    and the deck in order (its top card last)."""
    whole = public_view(state)
    whole["hands"] = [pile_json(hand) for hand in state.hands]
    whole["cups"] = [pile_json(state.cup(seat)) for seat in range(2)]
    whole["deck"] = [COLOURS[colour] for colour in state.deck]
    for player in whole["players"]:
        player["cup_unknown"] = 0
    return whole


def view(state: Position, seat: int) -> View:
    """R14: everything `seat` has seen, and never the opponent's hand, setup Cup or deck order."""
    decision = state.decision()
    players = []
    for other in range(2):
        claimed = state.cup_claimed[other]
        players.append(
            {
                "hand_size": state.hand_sizes[other],
                "river": [COLOURS[c] for c in state.rivers[other]],
                "cup_size": sum(state.cup_setup[other]) + sum(claimed),
                "cup_claimed": pile_json(claimed),
                "cup_unknown": 0 if other == seat else sum(state.cup_setup[other]),
            }
        )
    return {
        "seat": seat,
        "turn": state.turns,
        "to_move": state.current,
        "decision": decision.kind if decision else None,
        "deciding_seat": decision.seat if decision else None,
        "hand": pile_json(state.hands[seat]),
        "cup": pile_json(state.cup(seat)),
        "deck_size": len(state.deck),
        "discard": pile_json(state.discard),
        "end_triggered": state.end_triggered,
        "since_reshuffle": _since_reshuffle(state, seat),
        "mandalas": [
            {
                "mountain": pile_json(state.mountains[m]),
                "fields": [pile_json(state.fields[m][0]), pile_json(state.fields[m][1])],
            }
            for m in range(2)
        ],
        "players": players,
        "destroying": (
            {"mandala": state.destroying, "completed_by": state.completed_by}
            if state.destroying >= 0
            else None
        ),
    }


def view_json(state: Position, seat: int) -> str:
    """`view(seat)` as compact JSON, formatted directly: the referee sends one per decision."""
    known = _PILE_CACHE.get  # each pile's text is looked up inline: no call per pile
    if state.over:
        kind, decider = "null", "null"
    elif state.destroying >= 0:
        kind, decider = _QUOTED_KIND[CLAIM_DECISION], str(state.claimer)
    else:
        kind, decider = _QUOTED_KIND[TURN], str(state.current)
    setups, claims = state.cup_setup, state.cup_claimed
    (f00, f01), (f10, f11) = state.fields
    m0, m1 = state.mountains
    since = None if state.reshuffled is None else _since_reshuffle(state, seat)
    mine, won = setups[seat], claims[seat]
    cup = [mine[0] + won[0], mine[1] + won[1], mine[2] + won[2],
           mine[3] + won[3], mine[4] + won[4], mine[5] + won[5]]  # fmt: skip
    return _VIEW_JSON % (
        seat,
        state.turns,
        state.current,
        kind,
        decider,
        known(tuple(state.hands[seat])) or _pile_json(state.hands[seat]),
        known(tuple(cup)) or _pile_json(cup),
        len(state.deck),
        known(tuple(state.discard)) or _pile_json(state.discard),
        "true" if state.end_triggered else "false",
        "null" if since is None else json.dumps(since, separators=(",", ":")),
        known(tuple(m0)) or _pile_json(m0),
        known(tuple(f00)) or _pile_json(f00),
        known(tuple(f01)) or _pile_json(f01),
        known(tuple(m1)) or _pile_json(m1),
        known(tuple(f10)) or _pile_json(f10),
        known(tuple(f11)) or _pile_json(f11),
        _player_json(state, 0, seat),
        _player_json(state, 1, seat),
        "null"
        if state.destroying < 0
        else f'{{"mandala":{state.destroying},"completed_by":{state.completed_by}}}',
    )


def _player_json(state: Position, player: int, seat: int) -> str:
    """One entry of `players` as `seat` sees it (R14: another player's setup Cup unknown)."""
    setup = state.cup_setup[player]
    claimed = state.cup_claimed[player]
    key = (state.hand_sizes[player], tuple(state.rivers[player]), tuple(claimed), tuple(setup),
           player == seat)  # fmt: skip
    text = _PLAYER_CACHE.get(key)
    if text is None:
        if len(_PLAYER_CACHE) > 100_000:
            _PLAYER_CACHE.clear()
        hidden = sum(setup)
        text = _PLAYER_CACHE[key] = _PLAYER_JSON % (
            state.hand_sizes[player],
            ",".join([_QUOTED[c] for c in state.rivers[player]]),
            hidden + sum(claimed),
            _pile_json(claimed),
            0 if player == seat else hidden,
        )
    return text


_PLAYER_CACHE: dict[tuple[Any, ...], str] = {}


def _since_reshuffle(state: Position, seat: int) -> dict[str, Any] | None:
    """R14: what this seat saw of the deck since the last reshuffle, so memory adds nothing."""
    if state.reshuffled is None:
        return None
    deck, *drawn, refills = state.reshuffled
    return {
        "deck": pile_json(deck),
        "drawn_by_you": pile_json(drawn[seat]),
        "drawn_by_opponent": sum(drawn[1 - seat]),
        "refills": pile_json(refills),
    }


_PILE_JSON = "{" + ",".join(f'"{name}":%d' for name in COLOURS) + "}"
_QUOTED = [f'"{name}"' for name in COLOURS]
_PILE_CACHE: dict[tuple[int, ...], str] = {}


def _pile_json(pile: list[int]) -> str:
    """A pile as JSON text, memoised: most piles on the table recur (empty Fields, say)."""
    key = tuple(pile)
    text = _PILE_CACHE.get(key)
    if text is None:
        if len(_PILE_CACHE) > 100_000:
            _PILE_CACHE.clear()
        text = _PILE_CACHE[key] = _PILE_JSON % key
    return text


_QUOTED_KIND = {TURN: f'"{TURN}"', CLAIM_DECISION: f'"{CLAIM_DECISION}"'}
_PLAYER_JSON = '{"hand_size":%d,"river":[%s],"cup_size":%d,"cup_claimed":%s,"cup_unknown":%d}'
_VIEW_JSON = (
    '{"seat":%d,"turn":%d,"to_move":%d,"decision":%s,"deciding_seat":%s,"hand":%s,"cup":%s,'
    '"deck_size":%d,"discard":%s,"end_triggered":%s,"since_reshuffle":%s,"mandalas":['
    '{"mountain":%s,"fields":[%s,%s]},{"mountain":%s,"fields":[%s,%s]}],'
    '"players":[%s,%s],"destroying":%s}'
)
