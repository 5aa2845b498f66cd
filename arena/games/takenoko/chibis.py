"""The Chibis option's turn rules (TAKENOKO.md §8, T15-T17, T28-T31) on a `TakenokoState`:
the Gardener's Cabin, Miss Panda meeting the panda, the babies and their bonuses, each with
the legal moves of its decision (`cabin`, `baby`, `bonus`).

The board's side of the expansion (the special tiles, Kami's stacks, Miss Panda's moves) is
in board.py; the turn (state.py) calls these where its moves lead here.
"""

from __future__ import annotations

from arena.games.base import Move
from arena.games.takenoko.cards import DECKS, deck_of
from arena.games.takenoko.components import COLOURS, HAND_LIMIT, IMP, IRR, OBJ, TILES, Kind
from arena.games.takenoko.moves import cell_json, cell_of, edge_json, edge_of
from arena.games.takenoko.position import Position

# ---------------------------------------------------------------------- the Cabin


def open_cabin(state: Position) -> None:
    """§8, T15, T29: the gardener stopped on the Cabin: the seat looks at the top card of
    each objective deck (taken off while it decides)."""
    board = state.board
    if board.tiles[board.gardener].kind != Kind.CABIN:
        return
    state.cabin = [state.draw_card(deck) for deck in DECKS if state.decks[deck]]
    if state.cabin:
        state.pending = "cabin"


def keep(state: Position, card: str | None) -> None:
    """§8, T29: keep at most one card seen at the Cabin; the rest go under their own decks,
    in PL, GA, PA order, known to this seat."""
    for seen in state.cabin:
        if seen == card:
            state.hands[state.current].append(seen)
        else:
            state.put_under(seen)
    state.cabin = []


def cabin_moves(state: Position) -> list[Move]:
    """§8, T15, T33: keep one of the cards seen (not with 5 in hand), or none."""
    room = len(state.hands[state.current]) < HAND_LIMIT
    kept: list[Move] = [{"action": "keep", "card": card} for card in state.cabin if room]
    return [*kept, {"action": "keep", "card": None}]


# ---------------------------------------------------------------------- the babies


def meet(state: Position) -> None:
    """§8, T16: Miss Panda ended a move on the panda's tile: the player may pay a section
    for a baby of that colour."""
    if state.board.miss_panda == state.board.panda and baby_colours(state):
        state.pending = "baby"


def baby_colours(state: Position) -> list[str]:
    """T16: the colours the player can pay for a baby: in the stomach, and left in the pool."""
    stomach = state.stomachs[state.current]
    left = {baby[1] for baby in state.baby_pool}
    return [colour for colour in COLOURS if stomach[colour] and colour in left]


def baby_moves(state: Position) -> list[Move]:
    """T16, T28: pay a section of a colour for a baby, or decline."""
    return [*({"action": "baby", "colour": c} for c in baby_colours(state)), {"action": "skip"}]


def adopt(state: Position, colour: str) -> None:
    """§8: pay a section of `colour`, take a random baby of that colour; its bonus next."""
    seat = state.current
    state.stomachs[seat][colour] -= 1
    choices = [baby for baby in state.baby_pool if baby[1] == colour]
    baby = choices[state.random_below("babies_rng", len(choices))]
    state.baby_pool.remove(baby)
    state.babies[seat].append(baby)
    state.baby = baby
    if len(bonus_moves(state)) > 1:  # T17: a bonus with nowhere to go is lost
        state.pending = "bonus"
    else:
        state.baby = None


def bonus_moves(state: Position) -> list[Move]:
    """T17: where the baby's bonus can go, and `skip` (a bonus is optional)."""
    assert state.baby is not None
    bonus = state.baby.split("-")[1]
    board = state.board
    moves: list[Move] = []
    if bonus == IRR and state.channel_supply:
        moves = [{"action": "baby_channel", "edge": edge_json(e)} for e in board.channel_places()]
    elif bonus == IMP:
        places = board.chip_places()
        kinds = [kind for kind, n in state.chip_supply.items() if n]
        if kinds:
            moves = [
                {"action": "baby_chip", "kind": k, "to": cell_json(c)}
                for k in kinds
                for c in places
            ]
        else:  # the supply is empty: move a chip, never a printed improvement (T31)
            chipped = [
                cell
                for cell, tile in sorted(board.tiles.items())
                if tile.improvement is not None
                and (tile.plot is None or TILES[tile.plot].improvement is None)
            ]
            moves = [
                {"action": "baby_move_chip", "from": cell_json(a), "to": cell_json(b)}
                for a in chipped
                for b in places
                if a != b
            ]
    elif bonus == OBJ:
        moves = [{"action": "baby_swap", "card": card} for card in state.hands[state.current]]
    return [*moves, {"action": "skip"}]


def use_bonus(state: Position, move: Move) -> None:
    """T17: the baby's bonus, used at once: a channel from the supply, a chip from the
    supply (or one moved, T31), or a hand card swapped with the top of its deck."""
    action = move["action"]
    board = state.board
    if action == "baby_channel":
        state.channel_supply -= 1
        board.place_channel(edge_of(move["edge"]))
    elif action == "baby_chip":
        state.chip_supply[move["kind"]] -= 1
        board.place_chip(cell_of(move["to"]), move["kind"])
    elif action == "baby_move_chip":
        source = board.tiles[cell_of(move["from"])]
        kind, source.improvement = source.improvement, None
        board.changed()
        assert kind is not None
        board.place_chip(cell_of(move["to"]), kind)
    elif action == "baby_swap":
        card = move["card"]
        hand = state.hands[state.current]
        hand.remove(card)
        state.put_under(card)
        hand.append(state.draw_card(deck_of(card)))
    state.baby = None
