#!/usr/bin/env python3
"""The greedy bot: a fast one-ply heuristic for Mandala (standard library only).

Every legal move gets a score in "points" (the game's scoring unit) and the best one is
played. The score is the sum of a few simple terms, each explained where it is computed:

* claims: what the claimed cards add to my River and Cup, plus how the rest of the
  Mountain will then be shared when both players go on claiming greedily;
* Mountains: how the Mountain of each Mandala will be shared when it is destroyed, given
  who claims first (the larger Field, R8), discounted because that is still in the future;
  a move that completes a Mandala is valued by playing its destruction out at once;
* Fields: growing a Field to claim first; each card played into a Field is a card spent;
* drawing cards (Build Mountain draws up to 3) is worth a little per card;
* Discard & Redraw is a last resort.

It reads only the view and the legal moves it is sent; it keeps no memory between
decisions (R14 makes that safe). A decision typically takes a fraction of a millisecond.
"""

import json
import sys

COLOURS = ("black", "green", "orange", "purple", "red", "yellow")

# A colour not yet in a River scores nothing now, but may be placed later: its Cup cards
# count for this fraction of the slot they would probably get.
UNPLACED_DISCOUNT = 0.5
# When a claim is chosen, a point denied to the opponent is worth this much of a point
# of my own (the game is won on the difference, but their future is less certain).
DENY = 0.8
# A Mandala that is not complete will be shared later, after more cards arrive: the
# current sharing of its Mountain counts for this fraction.
PROSPECT = 0.8
# Value of one card drawn into the hand, and the cost of one card played into a Field
# (Field cards are discarded when the Mandala is destroyed: they buy claim order only).
DRAW_VALUE = 0.5
FIELD_CARD_COST = 0.3
# Building a Mountain with a colour I hold many of breaks up a set meant for a Field.
BUILD_SET_COST = 0.3
# Discard & Redraw only when nothing else is any good.
DISCARD_COST = 4.0
# When the destruction being valued ends the game, winning is worth this much more.
WIN_BONUS = 40.0


def score(river, cup):
    """The exact score of a River and Cup (R13)."""
    return sum(cup.get(c, 0) * (slot + 1) for slot, c in enumerate(river))


def expected_slot(filled):
    """The slot a colour not yet in a River of `filled` colours will probably get."""
    return (filled + 1 + 6) / 2


def claim_gain(river, cup, colour, count, final):
    """Estimated points a River and Cup gain by claiming `count` cards of `colour`.

    `final` is true when the game ends after this destruction: then only exact points
    count. Otherwise Cup cards of colours not yet in the River keep some future value.
    """
    if colour in river:
        return count * (river.index(colour) + 1)
    slot = len(river) + 1
    # The first card goes to the River, the others to the Cup, all scoring `slot` each.
    gain = (cup.get(colour, 0) + count - 1) * slot
    if final:
        return gain
    unplaced = sum(cup.get(c, 0) for c in COLOURS if c not in river and c != colour)
    # The Cup cards of this colour no longer wait for a better (later) slot ...
    gain -= UNPLACED_DISCOUNT * cup.get(colour, 0) * expected_slot(len(river))
    if slot == 6:
        # ... and a sixth River colour ends the game: other unplaced Cup cards are lost.
        gain -= UNPLACED_DISCOUNT * unplaced * expected_slot(len(river))
    else:
        # ... while the other unplaced colours can now only land in later slots.
        gain += UNPLACED_DISCOUNT * unplaced * 0.5
    return gain


class Table:
    """What the bot knows of both players: Rivers, Cups and current scores."""

    def __init__(self, view):
        self.me = view["seat"]
        self.opp = 1 - self.me
        players = view["players"]
        self.rivers = [list(players[0]["river"]), list(players[1]["river"])]
        self.cups = [None, None]
        self.cups[self.me] = dict(view["cup"])
        # The opponent's Cup: the cards they claimed in the open (their 2 setup cards
        # are unknown; they add about the same to every choice, so they are ignored).
        self.cups[self.opp] = dict(players[self.opp].get("cup_claimed") or {})
        self.end_triggered = bool(view.get("end_triggered"))
        self._cache = {}

    def share(self, mountain, first, active):
        """Play out a destruction: both players claim greedily, `first` starting.

        `active[seat]` is false when that seat's Field is empty (its claims are discarded).
        Returns (my points minus the opponent's, whether the game ends after it).
        """
        key = (tuple(mountain.get(c, 0) for c in COLOURS), first, active)
        if key in self._cache:
            return self._cache[key]
        rivers = [list(self.rivers[0]), list(self.rivers[1])]
        cups = [dict(self.cups[0]), dict(self.cups[1])]
        piles = {c: n for c, n in mountain.items() if n > 0}
        final = self.end_triggered
        points = [0.0, 0.0]
        seat = first
        while piles:
            other = 1 - seat
            best, best_value, best_gain = None, None, 0.0
            for colour, count in piles.items():
                mine = (
                    claim_gain(rivers[seat], cups[seat], colour, count, final)
                    if active[seat]
                    else 0.0
                )
                theirs = (
                    claim_gain(rivers[other], cups[other], colour, count, final)
                    if active[other]
                    else 0.0
                )
                value = mine + DENY * theirs
                if best_value is None or value > best_value:
                    best, best_value, best_gain = colour, value, mine
            count = piles.pop(best)
            if active[seat]:
                points[seat] += best_gain
                if best not in rivers[seat]:
                    rivers[seat].append(best)
                    count -= 1
                cups[seat][best] = cups[seat].get(best, 0) + count
                if len(rivers[seat]) == 6:
                    final = True  # a sixth River colour ends the game (R9)
            seat = other
        diff = points[self.me] - points[self.opp]
        if final:
            # The game ends: what matters now is who wins.
            mine = score(rivers[self.me], cups[self.me])
            theirs = score(rivers[self.opp], cups[self.opp])
            # The opponent's 2 unknown setup cards: each matches one of their River
            # colours with probability 1/6 per colour.
            theirs += 2 * sum(range(1, len(rivers[self.opp]) + 1)) / 6
            diff += WIN_BONUS if mine > theirs else -WIN_BONUS
        self._cache[key] = (diff, final)
        return diff, final

    def prospect(self, mountain, fields, completer=None):
        """The value of a Mandala's Mountain to me: complete now (`completer` set) or later."""
        mine, theirs = sum(fields[self.me].values()), sum(fields[self.opp].values())
        active = (sum(fields[0].values()) > 0, sum(fields[1].values()) > 0)
        if mine != theirs:
            first = self.me if mine > theirs else self.opp
        elif completer is not None:
            first = 1 - completer  # on a tie the player who did not complete goes first (R8)
        else:
            first = None
        if first is None:
            # A tie now: who completes it, and so who goes first, is still open.
            value = (
                self.share(mountain, self.me, active)[0] + self.share(mountain, self.opp, active)[0]
            ) / 2
        else:
            value = self.share(mountain, first, active)[0]
        return value if completer is not None else PROSPECT * value


def present_colours(mandala):
    """The colours present anywhere in a Mandala (Mountain and both Fields)."""
    areas = (mandala["mountain"], mandala["fields"][0], mandala["fields"][1])
    return {c for area in areas for c, n in area.items() if n > 0}


def choose_claim(view, moves):
    """Pick the claim worth most, looking ahead at how the rest of the Mountain goes."""
    table = Table(view)
    mandala = view["mandalas"][view["destroying"]["mandala"]]
    fields = mandala["fields"]
    active = (sum(fields[0].values()) > 0, sum(fields[1].values()) > 0)
    me, opp = table.me, table.opp
    best_index, best_value = 0, None
    for index, move in enumerate(moves):
        colour = move.get("colour")
        count = mandala["mountain"].get(colour, 0)
        gain = 0.0
        rest = dict(mandala["mountain"])
        rest.pop(colour, None)
        saved_river, saved_cup = list(table.rivers[me]), dict(table.cups[me])
        if active[me]:
            gain = claim_gain(table.rivers[me], table.cups[me], colour, count, table.end_triggered)
            # Apply the claim, value what follows (the opponent claims next), then undo.
            if colour not in table.rivers[me]:
                table.rivers[me].append(colour)
                count -= 1
            table.cups[me][colour] = table.cups[me].get(colour, 0) + count
        if len(table.rivers[me]) == 6:
            table.end_triggered = True
        table._cache = {}
        after, _ = table.share(rest, opp, active)
        table.rivers[me], table.cups[me] = saved_river, saved_cup
        table.end_triggered = bool(view.get("end_triggered"))
        value = gain + after
        if best_value is None or value > best_value:
            best_index, best_value = index, value
    return best_index


def choose_turn(view, moves):
    """Pick the turn action worth most (Build Mountain, Grow Field or Discard & Redraw)."""
    table = Table(view)
    me = table.me
    hand = view["hand"]
    hand_size = sum(hand.values())
    mandalas = view["mandalas"]
    now = [table.prospect(m["mountain"], m["fields"]) for m in mandalas]
    present = [present_colours(m) for m in mandalas]
    best_index, best_value = 0, None
    for index, move in enumerate(moves):
        action = move.get("action")
        colour = move.get("colour")
        if action == "build_mountain":
            m = move["mandala"]
            mountain = dict(mandalas[m]["mountain"])
            mountain[colour] = mountain.get(colour, 0) + 1
            completes = len(present[m] | {colour}) == 6
            later = table.prospect(mountain, mandalas[m]["fields"], me if completes else None)
            # Build Mountain refills the hand up to 8, at most 3 cards (R5).
            drawn = min(3, 8 - (hand_size - 1))
            value = later - now[m] + DRAW_VALUE * drawn
            # Keep colours I hold many of for a Field; build with the odd ones.
            value -= BUILD_SET_COST * (hand.get(colour, 0) - 1)
        elif action == "grow_field":
            m, count = move["mandala"], move["count"]
            fields = [dict(f) for f in mandalas[m]["fields"]]
            fields[me][colour] = fields[me].get(colour, 0) + count
            completes = len(present[m] | {colour}) == 6
            later = table.prospect(mandalas[m]["mountain"], fields, me if completes else None)
            value = later - now[m] - FIELD_CARD_COST * count
        else:
            # Discard & Redraw: a last resort; throw away the colour I hold fewest of
            # (many cards of one colour are a Field in waiting).
            value = -DISCARD_COST - 0.1 * move.get("count", 1)
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
        if message.get("decision") == "claim":
            return choose_claim(view, moves)
        return choose_turn(view, moves)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
        # A view we do not understand must never cost the game: play a legal move.
        print(f"greedy: falling back to move 0 after {error!r}", file=sys.stderr)
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
            print(f"greedy: ignoring a line that is not JSON: {line[:80]!r}", file=sys.stderr)
            continue
        if not isinstance(message, dict):
            continue
        kind = message.get("type")
        if kind == "hello":
            send({"type": "hello", "name": "greedy", "version": "1.0"})
        elif kind == "decide":
            send({"type": "move", "move": decide(message), "id": message["id"]})
        elif kind == "goodbye":
            return


if __name__ == "__main__":
    main()
