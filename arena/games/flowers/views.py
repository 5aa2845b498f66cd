"""What a seat of Flowers sees (F27) and what a spectator sees."""

from __future__ import annotations

from arena.games.base import Decision, View
from arena.games.flowers.components import COLOURS, NUM_COLOURS, TILE_NAMES, pile_json
from arena.games.flowers.table import FlowersTable


def view(state: FlowersTable, decision: Decision | None, seat: int) -> View:
    """F27: everything `seat` has seen (perfect recall), and its own hand; never the rest of
    another hand, the deck order or the stacks' order. `decision`: the state's (the rules
    decide it, state.py)."""
    return {"seat": seat, **public_view(state, decision), "hand": pile_json(state.hands[seat])}


def spectator_view(state: FlowersTable, decision: Decision | None) -> View:
    """Everything: the public part, every hand, the deck and both stacks in order (top last)."""
    whole = public_view(state, decision)
    whole["hands"] = [pile_json(hand) for hand in state.hands]
    whole["deck"] = [COLOURS[colour] for colour in state.deck]
    whole["tile_stacks"] = {
        "dark": [TILE_NAMES[t] for t in state.dark],
        "light": [TILE_NAMES[t] for t in state.light],
    }
    return whole


def public_view(state: FlowersTable, decision: Decision | None) -> View:
    """F27's public part: the table, the tiles, hand sizes and known cards, the end."""
    n = state.num_players
    mandalas = []
    for m in range(len(state.tiles)):
        sides = []
        for seat in range(n):
            side = (m * n + seat) * NUM_COLOURS
            sides.append(
                {
                    "cards": state.counts[m * n + seat],
                    "face_up": pile_json(state.up[side : side + NUM_COLOURS]),
                    "face_down": pile_json(state.down[side : side + NUM_COLOURS]),
                }
            )
        present = state.present[m]
        mandalas.append(
            {
                "tiles": [TILE_NAMES[t] for t in state.tiles[m]],
                "marker": state.marker[m] if state.marker[m] >= 0 else None,
                "colours": [name for c, name in enumerate(COLOURS) if present >> c & 1],
                "sides": sides,
            }
        )
    players = [
        {
            "hand_size": state.hand_sizes[seat],
            "known": pile_json(state.known[seat]),
            "singles": [TILE_NAMES[t] for t in state.singles[seat] if t >= 0],
            "flowers": [[TILE_NAMES[a], TILE_NAMES[b]] for a, b in state.flowers[seat]],
            "score": state.score(seat),
        }
        for seat in range(n)
    ]
    destroying = None
    if state.destroying >= 0:
        destroying = {
            "mandala": state.destroying,
            "holder": state.marker[state.destroying],
            "second_place": state.second,
            "final": state.ending is not None,
        }
    return {
        "turn": state.turns,
        "to_move": state.current,
        "decision": decision.kind if decision else None,
        "deciding_seat": decision.seat if decision else None,
        "deck_size": len(state.deck),
        "discard": pile_json(state.discard),
        "stacks": {"dark": len(state.dark), "light": len(state.light)},
        "mandalas": mandalas,
        "players": players,
        "passes": state.passes,
        "destroying": destroying,
        "final_order": list(state.final_order),
        "final_left": list(state.standing),
        "end": state.end if state.over else state.ending,
    }
