"""A coarse abstraction of Mandala's decisions, computed from what a bot is sent.

Tabular MCCFR on Mandala's perfect-recall OpenSpiel game keys its tables by the information
state: a seat's first one (its hand, Cup and the Mountains) is one of millions, and perfect
recall keeps every later one apart too, so in the minutes of a training run a table keyed
so holds nothing for the games a bot then plays (and a bot, sent its view at its own
decisions only, could not rebuild the perfect-recall string, which records every change). This module
gives the run (`arena.ecosystem.mccfr_policy`) and the bot that plays its policy
(`bots/mccfr-mandala`) one coarser key they can both compute from a decision's view and
legal moves alone (a `decide` message carries them; the OpenSpiel state gives the same view
as its observation string, and `move_of` each action code's move, the same in every
position):

- each legal move gets a *label*: on a turn `build`, `grow1`, `grow2`, `grow3+` (Grow Field
  by its count) or `discard`; on a claim (R8) `deny` when one's own Field there is empty
  (the claim goes to the discard pile), `score<slot>` for a colour already in one's River
  (its cards go to the Cup and score that slot, R13), else `new` (a new River colour);
- the *key* is the decision, the labels on offer, and a few facts of the view: one's hand
  size, and the River lengths of both seats (how far the scoring has come);
- the label a policy picks is played as its *representative*: the label's move with the most
  cards (the count of a Grow Field or Discard & Redraw, the Mountain's cards of a claimed
  colour), ties broken by its action, Mandala and colour, so the pick does not depend on
  the order of the legal moves.

It is an abstraction of the game (an imperfect-recall one: different information states
share a key), the usual way to make a large game fit a table; the game played and its
rules are unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from arena.games.mandala.moves import move_of

__all__ = ["abstract", "decision_key", "move_label", "move_of"]

Move = Mapping[str, Any]


def move_label(view: Mapping[str, Any], move: Move) -> str:
    """The label of one legal `move` in the position `view` shows (the module's list)."""
    action = move.get("action")
    if action == "build_mountain":
        return "build"
    if action == "grow_field":
        count = int(move.get("count", 1))
        return "grow3+" if count >= 3 else f"grow{count}"
    if action == "discard_redraw":
        return "discard"
    seat = int(view["seat"])
    destroying = view.get("destroying") or {}
    field = view["mandalas"][int(destroying.get("mandala", 0))]["fields"][seat]
    if not any(field.values()):
        return "deny"  # R8: the claim of a player whose Field there is empty is discarded
    river = list(view["players"][seat]["river"])
    colour = move.get("colour")
    return f"score{river.index(colour) + 1}" if colour in river else "new"


def _cards(view: Mapping[str, Any], move: Move) -> int:
    if move.get("action") == "claim":
        destroying = view.get("destroying") or {}
        mountain = view["mandalas"][int(destroying.get("mandala", 0))]["mountain"]
        return int(mountain.get(move.get("colour"), 0))
    return int(move.get("count", 1))


def _spelled(move: Move) -> tuple[str, int, str]:
    """The move's own words, to break ties the same whatever the legal moves' order."""
    return str(move.get("action")), int(move.get("mandala", -1)), str(move.get("colour"))


def decision_key(view: Mapping[str, Any], labels: Sequence[str]) -> str:
    """The abstract information state: the decision, the labels on offer and a few facts."""
    seat = int(view["seat"])
    players = view["players"]
    rivers = f"{len(players[seat]['river'])}-{len(players[1 - seat]['river'])}"
    hand = sum(view["hand"].values())
    return f"{view.get('decision')} {','.join(labels)} hand{hand} rivers{rivers}"


def abstract(view: Mapping[str, Any], moves: Sequence[Move]) -> tuple[str, list[str], list[int]]:
    """The key, the labels on offer (sorted) and each label's representative: the index in
    `moves` of the move played when a policy picks that label."""
    best: dict[str, tuple[Any, ...]] = {}
    for index, move in enumerate(moves):
        label = move_label(view, move)
        rank = (-_cards(view, move), *_spelled(move), index)
        if label not in best or rank < best[label]:
            best[label] = rank
    labels = sorted(best)
    return decision_key(view, labels), labels, [best[label][-1] for label in labels]
