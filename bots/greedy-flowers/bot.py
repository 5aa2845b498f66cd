#!/usr/bin/env python3
"""The greedy Flowers bot: a one-ply heuristic for Flowers: A Mandala Game (stdlib only).

Every legal move gets a value in points (the game's own unit) and the best one is played.
It reads only the view and the legal moves it is sent and keeps no memory (the view has
everything a seat has seen, F27 in docs/rules/flowers.md).

How a play is valued: the Mandala it goes into is looked at before and after it.
* A Mandala is worth something to the player holding its claim marker (they will choose a
  tile) and to second place (they will get the other), in proportion to how close it is
  to complete: a Mandala with 5 of 6 colours may be destroyed on the next turn.
* A play that completes a Mandala is valued exactly: who takes which tile, Flowers made.
* Denying: what the play gives the best-placed opponent counts against it.
* Cards: playing one card draws up to four (F11); playing several spends them. Cards in
  a Mandala come back when you take no tile there (F19), so they are only half spent.
The tile choice (as marker holder) takes the tile worth most to me, minus what the other
tile gives second place.
"""

import json
import sys

COLOURS = ("grey", "purple", "red", "green", "orange", "yellow")
VALUES = {"2": 2, "3": 3, "4": 4, "5": 5, "7": 7, "x3": 0}

# A tile of a colour I have no single of may pair up later: this much of a later Flower.
PAIR_HOPE = 0.3
# A Mandala that is not complete yet is worth its tiles times (colours present / 6) ** 2.
CLOSENESS_POWER = 2
# A point an opponent gains counts this much against me (they are several; I am one).
DENY = 0.6
# Each card drawn is worth this much; each card played into a Mandala costs this much.
DRAW_VALUE = 0.6
CARD_COST = 0.35
# Holding more cards than needed to keep the marker is waste: each extra card costs more.
OVERKILL_COST = 0.4


def tile_colour(tile):
    return tile.split()[0]


def tile_value(tile):
    return VALUES[tile.split()[1]]


def flower_score(a, b):
    """F25: a Flower with a x3 tile scores 3 x the other; otherwise 2 x lower + higher."""
    va, vb = tile_value(a), tile_value(b)
    if a.endswith("x3"):
        return 3 * vb
    if b.endswith("x3"):
        return 3 * va
    return 2 * min(va, vb) + max(va, vb)


def worth(player, tile):
    """What taking `tile` adds to a player's score, with a little hope for a later Flower."""
    colour = tile_colour(tile)
    for single in player["singles"]:
        if tile_colour(single) == colour:  # F18: it makes a Flower at once
            return flower_score(single, tile) - tile_value(single)
    best_partner = 7 if not tile.endswith("x3") else 7 * 3
    return tile_value(tile) + PAIR_HOPE * best_partner


def places(sides, players_count):
    """F13, F15, F16: (holder, second place) of a Mandala whose sides are [(cards, up)]."""
    qualified = [s for s in range(players_count) if sides[s][1] > 0]
    if not qualified:
        return None, None
    # The marker goes to the qualified player with the most cards (ties: it stays; this
    # is close enough for a one-ply look ahead).
    holder = max(qualified, key=lambda s: sides[s])
    others = [s for s in qualified if s != holder]
    if not others:
        return holder, None
    if players_count == 2:
        other = others[0]
        return holder, (other if 2 * sides[other][0] >= sides[holder][0] else None)
    best = max(sides[s] for s in others)
    tied = [s for s in others if sides[s] == best]
    return holder, (tied[0] if len(tied) == 1 else None)


def mandala_value(view, mandala, sides, marker, present):
    """The Mandala's worth to each seat: tiles times the chance it completes soon."""
    players = view["players"]
    n = len(players)
    tiles = mandala["tiles"]
    values = [0.0] * n
    if len(tiles) < 2:
        return values
    holder, second = places(sides, n)
    if marker is not None:
        holder = marker  # the marker stays on a tie (F13)
    if holder is None:
        return values
    closeness = (len(present) / 6) ** CLOSENESS_POWER
    if second is None:
        values[holder] = closeness * sum(worth(players[holder], t) for t in tiles)
        return values
    # The holder takes the better tile for them; second place gets the other.
    a, b = tiles
    if worth(players[holder], a) >= worth(players[holder], b):
        mine, theirs = a, b
    else:
        mine, theirs = b, a
    values[holder] = closeness * worth(players[holder], mine)
    values[second] = closeness * worth(players[second], theirs)
    return values


def standing(values, me):
    """My share minus the best opponent's share."""
    others = [v for s, v in enumerate(values) if s != me]
    return values[me] - DENY * max(others, default=0.0)


def value_play(view, move):
    me = view["seat"]
    n = len(view["players"])
    m, colour, count = move["mandala"], move["colour"], move["count"]
    mandala = view["mandalas"][m]
    present = set(mandala["colours"])
    sides = [(side["cards"], sum(side["face_up"].values())) for side in mandala["sides"]]
    marker = mandala["marker"]
    before = standing(mandala_value(view, mandala, sides, marker, present), me)

    face_up = colour not in present  # F9: a new colour goes face up
    cards, up = sides[me]
    after_sides = list(sides)
    after_sides[me] = (cards + count, up + (count if face_up else 0))
    after_present = present | {colour}
    # F13: the marker moves to me only with strictly more cards than every qualified rival.
    new_marker = marker
    mine = after_sides[me]
    if mine[1] > 0 and all(
        s == me or after_sides[s][1] == 0 or after_sides[s][0] < mine[0] for s in range(n)
    ):
        new_marker = me
    # A play that completes the Mandala (F14) has all 6 colours: its closeness is 1, so
    # its tiles count in full.
    after = standing(mandala_value(view, mandala, after_sides, new_marker, after_present), me)
    if len(after_present) == 5 and new_marker != me:
        after -= 1.0  # one colour short and not mine: the next player may complete it
    value = after - before

    # F11: playing exactly one card draws up to 4; more cards draw nothing.
    hand_after = view["players"][me]["hand_size"] - count
    if count == 1 and hand_after < 8:
        drawable = view["deck_size"] + sum(view["discard"].values())
        value += DRAW_VALUE * min(4, 8 - hand_after, drawable)
    value -= CARD_COST * count
    # Cards beyond what keeps the marker are wasted.
    rivals = [after_sides[s][0] for s in range(n) if s != me and after_sides[s][1] > 0]
    if rivals and new_marker == me:
        spare = after_sides[me][0] - max(rivals) - 1
        value -= OVERKILL_COST * max(0, spare)
    return value


def choose_tile(view, moves):
    """F17: as marker holder, take the tile worth most to me minus what second place gets."""
    me = view["seat"]
    destroying = view["destroying"]
    tiles = view["mandalas"][destroying["mandala"]]["tiles"]
    second = view["players"][destroying["second_place"]]
    best_index, best_value = 0, None
    for index, move in enumerate(moves):
        mine = next(t for t in tiles if tile_colour(t) == move["colour"])
        theirs = next(t for t in tiles if t != mine)
        value = worth(view["players"][me], mine) - DENY * worth(second, theirs)
        if best_value is None or value > best_value:
            best_index, best_value = index, value
    return best_index


def decide(message):
    """The index of the chosen move for one `decide` message."""
    moves = message.get("legal_moves") or []
    view = message.get("view") or {}
    if len(moves) <= 1:
        return 0
    try:
        if message.get("decision") == "tile":
            return choose_tile(view, moves)
        values = [value_play(view, move) for move in moves]
        return max(range(len(moves)), key=values.__getitem__)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, StopIteration) as error:
        # A view we do not understand must never cost the game: play a legal move.
        print(f"greedy-flowers: falling back to move 0 after {error!r}", file=sys.stderr)
        return 0


def send(message):
    """Write one JSON line and flush it."""
    sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def main():
    for line in iter(sys.stdin.readline, ""):
        line = line.strip()
        if not line:
            continue
        try:
            message = json.loads(line)
        except ValueError:
            print(
                f"greedy-flowers: ignoring a line that is not JSON: {line[:80]!r}", file=sys.stderr
            )
            continue
        if not isinstance(message, dict):
            continue
        kind = message.get("type")
        if kind == "hello":
            send({"type": "hello", "name": "greedy-flowers", "version": "1.0"})
        elif kind == "decide":
            send({"type": "move", "move": decide(message), "id": message["id"]})
        elif kind == "goodbye":
            return


if __name__ == "__main__":
    main()
