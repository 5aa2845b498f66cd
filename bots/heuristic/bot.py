#!/usr/bin/env python3
"""The heuristic bot: Mandala by rules of thumb (standard library only, about 1 ms a move).

It reads the view it is sent (R14) and keeps no memory. Every legal move gets a value in
points, the game's own unit, and the best is played. The rules of thumb behind the values:

* The River decides what a Cup is worth: a colour placed early scores little for every
  Cup card of that colour. So keep the colours of my own Cup out of the low River slots,
  and start the River with colours I hold few Cup cards of.
* Claim colours that are already in my River (they score their slot at once) and large
  piles; deny the opponent the colours their River pays most for. During a destruction
  the remaining claims are played out exactly (both sides best for themselves).
* Grow a Field to claim first from a rich Mountain, but a Field card is spent (it goes to
  the discard pile after the destruction), so only when the lead is worth it.
* Build Mountains with singleton colours (a pair or more is a Field in waiting) and with
  colours I would claim, and draw the cards a Build Mountain brings.
* Complete a Mandala only when its destruction pays me; do not leave the opponent a
  Mandala that only needs one more colour when its destruction would pay them.
* Near the end (the deck ran out, R3/R9), the next destruction ends the game: complete
  one when ahead, avoid it when behind.
* Discard & Redraw only as a last resort, throwing away the colour I can use least.
"""

import json
import sys

COLOURS = ("black", "green", "orange", "purple", "red", "yellow")
SIX = range(6)

# --- the weights, in points ------------------------------------------------------------
# A Cup card of a colour not yet in the River may never score (the game can end first):
# it counts for this fraction of the slot it would probably get.
UNPLACED_WEIGHT = 0.3
# Claiming a colour the opponent wants denies it: a point denied counts this much.
DENY = 0.8
# A Mandala not complete yet will be shared later and its Mountain will still change.
PROSPECT_WEIGHT = 0.8
# One card drawn into the hand (a Build Mountain draws up to 3).
DRAW_VALUE = 0.5
# One card played into a Field: it buys claim order, then it is discarded.
FIELD_CARD_COST = 0.3
# Building with a colour I hold k of breaks up a set meant for a Field: cost per extra card.
BUILD_SET_COST = 0.35
# Discard & Redraw: the last resort.
DISCARD_COST = 5.0
# When a destruction ends the game, being ahead is worth this much more.
WIN_BONUS = 30.0
# How likely the opponent holds a given colour, per card in their hand (capped below).
HOLD_CHANCE_PER_CARD = 0.12


def pile(obj):
    """A JSON pile (colour name -> count) as a list of six counts."""
    return [int(obj.get(name, 0)) for name in COLOURS]


def exact_score(river, cup):
    """R13: each Cup card scores its colour's River slot (1..6); River cards score nothing."""
    return sum(cup[c] * (slot + 1) for slot, c in enumerate(river))


def worth(river, cup, unknown=0):
    """What a River and Cup will probably be worth at the end of the game.

    Colours in the River score their slot. A colour not in the River may get one of the
    free slots later; the ones with the most Cup cards will be placed as late as possible
    (that is the plan), so they are given the highest free slots, discounted because the
    game may end first. `unknown` Cup cards (the opponent's setup cards) count on average.
    """
    total = 0.0
    slot = 0
    for c in river:
        slot += 1
        total += cup[c] * slot
    free = sorted(cup[c] for c in SIX if c not in river)  # fewest first: the lower slots
    for n in free:
        slot += 1
        total += UNPLACED_WEIGHT * n * slot
    if unknown:
        placed = len(river)
        total += unknown * (placed * (placed + 1) / 2 + UNPLACED_WEIGHT * 3.5 * len(free)) / 6
    return total


class Table:
    """The Rivers and Cups of both players, as far as this seat knows them."""

    def __init__(self, view):
        self.me = int(view["seat"])
        self.opp = 1 - self.me
        players = view["players"]
        self.rivers = [[COLOURS.index(c) for c in p["river"]] for p in players]
        self.cups = [pile(p["cup_claimed"]) for p in players]
        self.cups[self.me] = pile(view["cup"])  # my whole Cup, setup cards included
        self.unknown = int(players[self.opp].get("cup_unknown", 2))
        self.end_triggered = bool(view.get("end_triggered"))

    def balance(self, rivers, cups, final):
        """My advantage in points for these Rivers and Cups; exact when the game ends."""
        me, opp = self.me, self.opp
        if final:
            mine = exact_score(rivers[me], cups[me])
            theirs = exact_score(rivers[opp], cups[opp])
            theirs += self.unknown * sum(range(1, len(rivers[opp]) + 1)) / 6
            return mine - theirs + (WIN_BONUS if mine > theirs else -WIN_BONUS)
        return worth(rivers[me], cups[me]) - worth(rivers[opp], cups[opp], self.unknown)

    def destroy(self, mountain, first, active, exact=True):
        """My advantage after a destruction of `mountain`, `first` claiming first.

        With `exact`, the claims are played out exactly (every order of up to 4 colours,
        each side choosing what is best for itself); otherwise, and for larger Mountains,
        each side greedily takes the colour that helps it most right away, which is good
        enough for a Mandala that is not complete yet and ten times cheaper.
        `active[seat]` is false when that seat's Field is empty: its claims are discarded.
        """
        colours = tuple(c for c in SIX if mountain[c])
        if exact and len(colours) <= 4:
            return self._claims(colours, mountain, first, active, self.rivers, self.cups,
                                self.end_triggered, {})
        return self._greedy(colours, mountain, first, active, self.rivers, self.cups,
                            self.end_triggered)

    def _claim_into(self, rivers, cups, seat, colour, count, final):
        """New Rivers, Cups and end flag after `seat` claims `count` cards of `colour`."""
        rivers = [rivers[0][:], rivers[1][:]]
        cups = [cups[0][:], cups[1][:]]
        if colour not in rivers[seat]:
            rivers[seat].append(colour)
            count -= 1
            if len(rivers[seat]) == 6:
                final = True  # a 6th River colour ends the game (R9b)
        cups[seat][colour] += count
        return rivers, cups, final

    def _greedy(self, left, mountain, seat, active, rivers, cups, final):
        left = list(left)
        while left:
            other = 1 - seat

            def value(c, seat=seat, other=other, rivers=rivers, cups=cups):
                # What the claim brings me, and what it denies the other (its claims to the
                # discard pile, with an empty Field, only deny).
                mine = self._gain(rivers, cups, seat, c, mountain[c]) if active[seat] else 0.0
                theirs = self._gain(rivers, cups, other, c, mountain[c]) if active[other] else 0.0
                return mine + DENY * theirs

            best = max(left, key=value)
            if active[seat]:
                rivers, cups, final = self._claim_into(rivers, cups, seat, best, mountain[best],
                                                       final)
            left.remove(best)
            seat = 1 - seat
        return self.balance(rivers, cups, final)

    def _gain(self, rivers, cups, seat, colour, count):
        """How much a claim adds to the worth of `seat`'s River and Cup."""
        river, cup = rivers[seat], cups[seat]
        before = worth(river, cup)
        river = river + [colour] if colour not in river else river
        cup = cup[:]
        cup[colour] += count - (1 if len(river) != len(rivers[seat]) else 0)
        return worth(river, cup) - before

    def _claims(self, left, mountain, seat, active, rivers, cups, final, memo):
        if not left:
            return self.balance(rivers, cups, final)
        key = (left, seat, tuple(rivers[0]), tuple(rivers[1]))
        if key in memo:
            return memo[key]
        best = None
        for colour in left:
            rest = tuple(c for c in left if c != colour)
            new_rivers, new_cups, new_final = rivers, cups, final
            if active[seat]:
                new_rivers = [rivers[0][:], rivers[1][:]]
                new_cups = [cups[0][:], cups[1][:]]
                count = mountain[colour]
                if colour not in new_rivers[seat]:
                    new_rivers[seat].append(colour)
                    count -= 1
                    if len(new_rivers[seat]) == 6:
                        new_final = True  # a 6th River colour ends the game (R9b)
                new_cups[seat][colour] += count
            value = self._claims(rest, mountain, 1 - seat, active, new_rivers, new_cups,
                                 new_final, memo)
            # I maximise my advantage, the opponent minimises it.
            if best is None or (value > best if seat == self.me else value < best):
                best = value
        memo[key] = best
        return best


def present(mandala):
    """The colours present in a Mandala (its Mountain and both Fields)."""
    m, f0, f1 = mandala
    return {c for c in SIX if m[c] or f0[c] or f1[c]}


def first_claimer(fields, completer):
    """R8: the larger Field claims first; on a tie, the player who did not complete."""
    a, b = sum(fields[0]), sum(fields[1])
    if a != b:
        return 0 if a > b else 1
    return 1 - completer


class Mind:
    """Values the moves of one decision."""

    def __init__(self, view):
        self.view = view
        self.table = Table(view)
        self.me = self.table.me
        self.opp = self.table.opp
        self.hand = pile(view["hand"])
        self.hand_size = sum(self.hand)
        self.opp_hand = int(view["players"][self.opp]["hand_size"])
        self.mandalas = [
            (pile(m["mountain"]), pile(m["fields"][0]), pile(m["fields"][1]))
            for m in view["mandalas"]
        ]
        self.base = self.table.balance(self.table.rivers, self.table.cups, False)
        self._cache = {}

    def completed(self, mountain, fields, completer):
        """My advantage over the current balance if this Mandala is destroyed now."""
        key = (tuple(mountain), tuple(fields[0]), tuple(fields[1]), completer)
        if key not in self._cache:
            active = (sum(fields[0]) > 0, sum(fields[1]) > 0)
            first = first_claimer(fields, completer)
            exact = len(present((mountain, fields[0], fields[1]))) == 6
            self._cache[key] = self.table.destroy(mountain, first, active, exact) - self.base
        return self._cache[key]

    def prospect(self, mountain, f0, f1):
        """What an incomplete Mandala is worth to me: its sharing as it stands, discounted.

        Who completes it is open, so on equal Fields both claim orders count half.
        """
        fields = (f0, f1)
        if sum(f0) == sum(f1):
            value = (self.completed(mountain, fields, 0) + self.completed(mountain, fields, 1)) / 2
        else:
            value = self.completed(mountain, fields, self.me)
        return PROSPECT_WEIGHT * value

    def handed_over(self, mountain, f0, f1):
        """The risk of leaving a Mandala one colour short on the opponent's turn.

        The missing colour can be played by the opponent into the Mountain (claim order
        by the Fields, a tie going to me) or into their Field; they pick what pays them.
        """
        missing = [c for c in SIX if not (mountain[c] or f0[c] or f1[c])]
        if len(missing) != 1:
            return 0.0
        c = missing[0]
        fields = [f0, f1]
        built = mountain[:]
        built[c] += 1
        options = [self.completed(built, fields, self.opp)]
        grown = [f0[:], f1[:]]
        grown[self.opp][c] += 1
        options.append(self.completed(mountain, grown, self.opp))
        worst = min(options)  # their best is my worst
        if worst >= 0:
            return 0.0
        chance = min(0.9, HOLD_CHANCE_PER_CARD * self.opp_hand + 0.1)
        return chance * worst

    def value_after(self, m, mountain, f0, f1, completer):
        """The value of Mandala `m` in a new arrangement, my move done."""
        if len(present((mountain, f0, f1))) == 6:
            return self.completed(mountain, (f0, f1), completer)
        return self.prospect(mountain, f0, f1) + self.handed_over(mountain, f0, f1)

    def value_now(self, m):
        mountain, f0, f1 = self.mandalas[m]
        return self.prospect(mountain, f0, f1) + self.handed_over(mountain, f0, f1)

    def turn_values(self, moves):
        """The value in points of each turn move (Build Mountain, Grow Field, Discard)."""
        now = [self.value_now(m) for m in range(2)]
        values = []
        for move in moves:
            action = move.get("action")
            colour = COLOURS.index(move["colour"])
            if action == "build_mountain":
                m = move["mandala"]
                mountain, f0, f1 = self.mandalas[m]
                mountain = mountain[:]
                mountain[colour] += 1
                value = self.value_after(m, mountain, f0, f1, self.me) - now[m]
                # A Build Mountain draws up to 3 cards, to a hand of 8 at most (R5).
                value += DRAW_VALUE * min(3, 8 - (self.hand_size - 1))
                # Build with singletons; pairs and more are Fields in waiting.
                value -= BUILD_SET_COST * (self.hand[colour] - 1)
            elif action == "grow_field":
                m, count = move["mandala"], move["count"]
                mountain, f0, f1 = self.mandalas[m]
                fields = [f0[:], f1[:]]
                fields[self.me][colour] += count
                value = self.value_after(m, mountain, fields[0], fields[1], self.me) - now[m]
                value -= FIELD_CARD_COST * count
                # A hand of one card left can only build or discard next turn.
                if self.hand_size - count == 1:
                    value -= 0.5
            else:
                value = self.discard_value(colour, move.get("count", 1))
            values.append(value)
        return values

    def discard_value(self, colour, count):
        """Discard & Redraw: last resort. Throw away what I can use least, all of it."""
        usable = 0
        for mountain, f0, f1 in self.mandalas:
            fields = (f0, f1)
            opp_field = fields[self.opp]
            if not mountain[colour] and not opp_field[colour]:
                usable += 1  # I could still grow a Field with it
        in_river = colour in self.table.rivers[self.me]
        value = -DISCARD_COST - 0.6 * usable - (0.4 if in_river else 0.0)
        # Throwing all of a useless colour at once redraws more fresh cards.
        value += 0.2 * count if count == self.hand[colour] else -0.3 * count
        return value

    def claim_values(self, moves):
        """The value of each claim: the exact outcome of the rest of the destruction."""
        destroying = self.view["destroying"]
        mountain, f0, f1 = self.mandalas[int(destroying["mandala"])]
        active = (sum(f0) > 0, sum(f1) > 0)
        table = self.table
        values = []
        for move in moves:
            colour = COLOURS.index(move["colour"])
            rivers = [table.rivers[0][:], table.rivers[1][:]]
            cups = [table.cups[0][:], table.cups[1][:]]
            final = table.end_triggered
            if active[self.me]:
                count = mountain[colour]
                if colour not in rivers[self.me]:
                    rivers[self.me].append(colour)
                    count -= 1
                    final = final or len(rivers[self.me]) == 6
                cups[self.me][colour] += count
            rest = tuple(c for c in SIX if mountain[c] and c != colour)
            if len(rest) <= 4:
                value = table._claims(rest, mountain, self.opp, active, rivers, cups, final, {})
            else:
                value = table._greedy(rest, mountain, self.opp, active, rivers, cups, final)
            values.append(value)
        return values


def move_values(message):
    """The value in points of every legal move of a `decide` message (higher is better).

    Other bots may use it as a prior: bots/ismcts searches only the best few of these.
    """
    moves = message.get("legal_moves") or []
    mind = Mind(message["view"])
    if message.get("decision") == "claim":
        return mind.claim_values(moves)
    return mind.turn_values(moves)


def decide(message):
    """The index of the chosen move for one `decide` message."""
    moves = message.get("legal_moves") or []
    if len(moves) <= 1:
        return 0
    try:
        values = move_values(message)
        return max(range(len(moves)), key=values.__getitem__)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
        # A view this bot does not understand must never cost the game: play a legal move.
        print(f"heuristic: falling back to move 0 after {error!r}", file=sys.stderr)
        return 0


def send(message):
    """Write one JSON line and flush, so the referee sees it at once."""
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
            print(f"heuristic: ignoring a line that is not JSON: {line[:80]!r}", file=sys.stderr)
            continue
        if not isinstance(message, dict):
            continue
        kind = message.get("type")
        if kind == "hello":
            send({"type": "hello", "name": "heuristic", "version": "1.0"})
        elif kind == "decide":
            send({"type": "move", "move": decide(message), "id": message["id"]})
        elif kind == "goodbye":
            return
        # new_game, game_over and unknown message types need no reply.


if __name__ == "__main__":
    main()
