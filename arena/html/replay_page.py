"""A game's replay page: every position of the record, what each seat was sent, and a viewer.

The record is replayed with the game's own engine (`arena.record.walk`), so the page shows
exactly the views the referee sent and the legal moves each seat had.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Any

from arena.game_sources import get_game
from arena.html.embed import asset, script_json
from arena.record import start, unanswered, unanswered_words, walk


def replay_data(record: Mapping[str, Any]) -> dict[str, Any]:
    """The positions of `record`, one per decision, and the final one (GameError if the
    record does not replay)."""
    state = start(record)
    steps = []
    for step in walk(record, state):
        position = step.state
        seat = step.decision.seat
        legal = position.legal_moves()
        entry = step.entry
        steps.append(
            {
                "seat": seat,
                "kind": step.decision.kind,
                "turn": position.turn,
                "text": position.describe_move(step.move),
                "legal": [position.describe_move(move) for move in legal],
                "chosen": legal.index(step.move) if step.move in legal else -1,
                "think_ms": entry.get("think_ms"),
                "comment": entry.get("comment"),
                "stderr": entry.get("stderr"),
                "scores": list(position.scores()),
                "spectator": position.spectator_view(),
                "view": position.view(seat),
            }
        )
        if (hands_met := position.cards_met()) is not None:
            steps[-1]["met"] = hands_met
    last = unanswered(record, state)  # the decision its bot did not answer, if kept
    if last is not None:
        steps.append(
            {
                "seat": last.decision.seat,
                "kind": last.decision.kind,
                "turn": state.turn,
                "text": f"was asked and {unanswered_words(last.entry)}",
                "unanswered": str(last.entry.get("reason", "?")),
                "legal": [state.describe_move(move) for move in state.legal_moves()],
                "chosen": -1,
                "scores": list(state.scores()),
                "spectator": state.spectator_view(),
                "view": state.view(last.decision.seat),
            }
        )
    data: dict[str, Any] = {
        "game": record.get("game"),
        "game_id": record.get("game_id"),
        "players": [str(name) for name in record.get("players") or []],
        "seed": record.get("seed"),
        "outcome": record.get("outcome"),
        "steps": steps,
        "final": {"spectator": state.spectator_view(), "scores": list(state.scores())},
    }
    if (hands_met := state.cards_met()) is not None:  # Takenoko: its cards' meanings, met or not
        data["final"]["met"] = hands_met
        data["cards"] = get_game(str(record.get("game"))).card_meanings()
        if last is not None:  # the unanswered decision was asked in the final position
            steps[-1]["met"] = hands_met
    return data


def replay_html(record: Mapping[str, Any]) -> str:
    """The whole replay page of `record`, self-contained."""
    data = replay_data(record)
    players = " vs ".join(data["players"])
    title = html.escape(f"{data['game_id']}: {players}")
    outcome = data.get("outcome") or {}
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>{asset("viewer.css")}</style>
</head><body>
<header><h1>{title}</h1>
<div class="sub">{html.escape(str(data["game"]))}, seed {html.escape(str(data["seed"]))}:
{html.escape(str(outcome.get("reason", "")))}</div></header>
<div id="controls">
<button id="first" title="first (Home)">&#xAB;</button>
<button id="prev" title="previous (&#x2190;)">&#x25C0;</button>
<span id="counter"></span>
<button id="next" title="next (&#x2192;)">&#x25B6;</button>
<button id="last" title="last (End)">&#xBB;</button>
<input id="slider" type="range" min="0" value="0" aria-label="move">
<select id="seat" aria-label="whose view"><option value="-1">Spectator (everything)</option></select>
</div>
<main><section id="board"></section><aside id="info" class="box"></aside></main>
{script_json(data, "replay-data")}
<script>{asset("viewer.js")}</script>
</body></html>
"""
