"""`arena replay RECORD`: a recorded game, decision by decision, in words.

Every decision's line starts with its number ("#381  turn  47: seat 1 ..."), the number
`--at N`, the viewer and the error messages count by; a decision its bot did not answer (kept
in the record as `unanswered`) is the last, and `--at N` and `--json` reach it too.
"""

from __future__ import annotations

import copy
import itertools
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from arena.bounded import visible
from arena.errors import ArenaError
from arena.game_sources import get_game
from arena.games import Decision, GameState, Move
from arena.narration import narrate
from arena.record import Step, decision_count, request_at, unanswered_words


@click.command()
@click.argument("record_path", metavar="RECORD", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--at", "number", type=click.IntRange(min=1), help="Show decision N (from 1).")
@click.option(
    "--seat", type=click.IntRange(min=0), help="With --at: what this seat saw [the spectator's]."
)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="With --at: print the exact decide request the seat received, to pipe into a bot.",
)
@click.option(
    "--html",
    "html_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the game's replay page (to open in a browser) to this file.",
)
def replay(
    record_path: Path, number: int | None, seat: int | None, as_json: bool, html_path: Path | None
) -> None:
    """Tell the game recorded in RECORD (a .json or .json.gz game record) move by move,
    each decision's line led by its number (#N, as --at N counts).

    `--at N` shows the position at decision N instead; `--at N --json` prints the exact
    request its seat was sent (`arena replay R --at 12 --json | ./mybot` replays it);
    `--html FILE` writes a page that shows the game move by move in a browser.
    """
    record = _load(record_path)
    if html_path is not None:
        from arena.html.replay_page import replay_html

        try:
            html_path.write_text(replay_html(record), encoding="utf-8")
        except ArenaError as error:
            raise click.ClickException(f"{record_path}: {error}") from None
        except OSError as error:
            raise click.ClickException(f"Cannot write {html_path}: {error.strerror}.") from None
        click.echo(f"Replay: {html_path}")
        return
    if number is None:
        if as_json or seat is not None:
            raise click.UsageError("--json and --seat go with --at N (a decision's number).")
        try:
            lines = numbered_narration(record)
        except ArenaError as error:
            raise click.ClickException(f"{record_path}: {error}") from None
        click.echo("\n".join(map(visible, lines)))  # a bot's words too: safe to print
        return
    try:
        step, line = request_at(record, number)
    except ArenaError as error:
        raise click.ClickException(f"{record_path}: {error}") from None
    names = [str(name) for name in record.get("players") or []]
    decider = step.decision.seat
    if as_json:
        if seat is not None and seat != decider:
            raise click.ClickException(
                f"Decision {number} was seat {decider}'s; seat {seat} was sent no request then."
            )
        click.echo(line.decode().rstrip("\n"))
        return
    if seat is not None and seat >= step.state.num_players:
        raise click.ClickException(f"The game has seats 0 to {step.state.num_players - 1}.")
    click.echo("\n".join(map(visible, position_lines(record, step, names, seat))))


def numbered_narration(record: dict[str, Any]) -> list[str]:
    """The game's own account of `record` (`narration.narrate`), each decision's first line led
    by its number, and the unanswered decision, if the record keeps one, before the end."""
    game = copy.copy(get_game(str(record.get("game"))))
    numbers = itertools.count(1)
    told_step, told_end = game.narrate_step, game.narrate_end

    def narrate_step(
        state: GameState, decision: Decision, move: Move, who: Callable[[int], str]
    ) -> list[str]:
        told = told_step(state, decision, move, who)
        return [numbered(next(numbers), told[0]), *told[1:]] if told else told

    def narrate_end(state: GameState, names: list[str]) -> list[str]:
        last = unanswered_line(record, state, names)
        return ([last] if last else []) + told_end(state, names)

    game.narrate_step = narrate_step  # type: ignore[method-assign]
    game.narrate_end = narrate_end  # type: ignore[method-assign]
    lines = narrate(game, record)
    told: list[str] = []
    for line in lines:  # the unanswered decision follows the others, before the blank line
        if told and told[-1] == "" and line.startswith(f"#{decision_count(record)} "):
            told[-1:] = [line, ""]
        else:
            told.append(line)
    return told


def numbered(number: int, line: str) -> str:
    """A decision's line led by its number: "#381  turn  47: seat 1 ..."."""
    if line.startswith("Turn "):
        line = "turn" + line[4:]
    return f"#{number}".ljust(6) + line


def unanswered_line(record: dict[str, Any], state: GameState, names: list[str]) -> str:
    """The record's unanswered decision in words, told in the state it was asked in ('' if
    the record keeps none)."""
    entry = record.get("unanswered")
    decision = state.decision()
    if not isinstance(entry, dict) or decision is None:
        return ""
    seat = decision.seat
    who = f"seat {seat} ({names[seat]})" if seat < len(names) else f"seat {seat}"
    return numbered(
        decision_count(record),
        f"turn {state.turn + 1:>3}: {who} was asked ({decision.kind}) and "
        f"{unanswered_words(entry)}",
    )


def position_lines(
    record: dict[str, Any], step: Step, names: list[str], seat: int | None
) -> list[str]:
    """Decision `step` in words: who decides, the view (a seat's or the spectator's), the
    legal moves, and the move chosen with its time, comment and stderr."""
    state, decision, entry = step.state, step.decision, step.entry
    who = names[decision.seat] if decision.seat < len(names) else "?"
    lines = [
        f"Decision {step.number} of {decision_count(record)}, turn {state.turn}: "
        f"seat {decision.seat} ({who}) decides ({decision.kind})",
        "",
        "Spectator's view:" if seat is None else f"Seat {seat}'s view:",
    ]
    view = state.spectator_view() if seat is None else state.view(seat)
    lines += ["  " + text for text in view_lines(view)]
    lines += ["", "Legal moves:"]
    chosen = step.move if step.answered else None
    for index, move in enumerate(state.legal_moves()):
        mark = "  <- chosen" if move == chosen else ""
        lines.append(f"  {index:>3}. {state.describe_move(move)}{mark}")
    if chosen is None:
        return lines + [
            "",
            f"Not answered: seat {decision.seat} {unanswered_words(entry)}; the game ended here.",
            f"(`arena replay RECORD --at {step.number} --json` prints the request it was sent.)",
        ]
    think = entry.get("think_ms")
    lines += ["", f"Chosen: {state.describe_move(chosen)}"]
    if isinstance(think, int | float):
        lines.append(f"Think time: {think:.1f} ms")
    if entry.get("comment"):
        lines.append(f"Comment: {entry['comment']}")
    if entry.get("stderr"):
        lines.append("Stderr during this decision:")
        lines += ["  " + text for text in str(entry["stderr"]).splitlines()]
    return lines


def view_lines(value: Any, depth: int = 0) -> list[str]:
    """A view as indented text: a pile (colour -> count) on one line, lists numbered."""
    lines: list[str] = []
    if isinstance(value, dict):
        for key, item in value.items():
            if _scalar(item) or _pile(item) or _flat(item):
                lines.append(f"{key}: {_inline(item)}")
            else:
                lines.append(f"{key}:")
                lines += ["  " + text for text in view_lines(item, depth + 1)]
    elif isinstance(value, list):
        for index, item in enumerate(value):
            inner = view_lines(item, depth + 1)
            if _scalar(item) or _pile(item) or _flat(item):
                lines.append(f"{index}: {_inline(item)}")
            else:
                lines.append(f"{index}:")
                lines += ["  " + text for text in inner]
    else:
        lines.append(_inline(value))
    return lines


def _scalar(value: Any) -> bool:
    return value is None or isinstance(value, str | int | float | bool)


def _pile(value: Any) -> bool:
    return isinstance(value, dict) and all(isinstance(n, int) for n in value.values())


def _flat(value: Any) -> bool:
    return isinstance(value, list) and all(_scalar(item) or _flat(item) for item in value)


def _inline(value: Any) -> str:
    if _pile(value):
        shown = [f"{name} {count}" for name, count in value.items() if count]
        return ", ".join(shown) or "none"
    if isinstance(value, list):
        return "[" + ", ".join(_inline(item) for item in value) + "]"
    if isinstance(value, str):
        return value
    return "-" if value is None else json.dumps(value)


def _load(record_path: Path) -> dict[str, Any]:
    from arena.record import load_record

    try:
        return load_record(record_path)
    except ArenaError as error:
        raise click.ClickException(str(error)) from None
