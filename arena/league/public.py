"""What the league shows everyone: a bot's stderr is its author's alone, and no message
names the server's own paths.

A bot's stderr reaches the league in three ways: its log (`logs/`, `checks/LABEL/logs/`),
which only its author reads (`GET /api/bots/LABEL/stderr`); each decision's lines in a game
record, which `record` takes out before a replay page is made; and the quotes of it in a
crash's sentence ("... Its stderr: ...", a build's "Its output: ..."), which `message`
cuts off. `message` also turns the league's folder into `LEAGUE/`, a bot's folder into its
label, and any other absolute path (the checkout, the virtual environment, /tmp) into `…`.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

QUOTES = re.compile(r"\s*\b(?:Its stderr|Its output):.*", re.DOTALL)
"""A quote of a bot's stderr (a crash, BotProcess.explain) or its build's output (build_bot):
always the end of the sentence, which it runs to."""
MESSAGE_BYTES = 64 << 10
"""The most of a check's whole message kept for its author in the check's stderr log."""
_ABSOLUTE = re.compile(r"(?<![\w.:/~\\-])/(?!api/)[^\s'\"`()\[\]{}<>,;|]+")
"""An absolute path: a slash not inside a word, a number, a URL or a relative path; the
league's own API paths are not the server's."""


def message(text: str, folder: Path | None = None, label: str = "") -> str:
    """`text` fit for a public page: its stderr or build-output quote cut off (`label`, when
    given, names where the author reads it), the league's `folder` written `LEAGUE/` (a
    bot's folder in it, `bots/NAME/`, written `NAME/`), other absolute paths `…`."""
    text, cut = QUOTES.subn("", text)
    if cut:
        where = f" (GET /api/bots/{label}/stderr)" if label else ""
        text = text.rstrip(".: ") + f". What it wrote is for its author{where}."
    if folder is not None:
        for where in {str(folder.resolve()), str(folder.absolute())}:
            if where != "/":
                text = re.sub(re.escape(where) + r"/bots/", "", text)
                text = text.replace(where + "/", "LEAGUE/").replace(where, "LEAGUE")
    return _ABSOLUTE.sub("…", text)


def check_message(text: str, folder: Path, label: str) -> str:
    """The public `message` of bot `label`'s check; the whole of `text` (its stderr quotes,
    its build's output, the paths) is added to the check's stderr log, which only the author
    reads, so nothing of what they need to mend their bot is lost."""
    log = folder / "checks" / label / "logs" / f"{label}.stderr.log"
    try:
        log.parent.mkdir(parents=True, exist_ok=True)
        with log.open("ab") as file:
            whole = text.encode("utf-8", "replace")[:MESSAGE_BYTES]
            file.write(b"\n== the league's check said:\n" + whole + b"\n")
    except OSError:
        pass  # the author's copy only; the public message stands
    return message(text, folder, label)


def record(data: Mapping[str, Any], folder: Path | None = None) -> dict[str, Any]:
    """A copy of a game record as everyone may see it: no decision's stderr, and its
    outcome's reason made public (`message`)."""
    shown = {key: value for key, value in data.items() if key not in ("moves", "outcome")}
    moves = data.get("moves")
    if isinstance(moves, list):
        shown["moves"] = [
            {k: v for k, v in move.items() if k != "stderr"} if isinstance(move, dict) else move
            for move in moves
        ]
    outcome = data.get("outcome")
    if isinstance(outcome, dict):
        shown["outcome"] = copy.copy(outcome)
        if isinstance(outcome.get("reason"), str):
            shown["outcome"]["reason"] = message(outcome["reason"], folder)
    elif "outcome" in data:
        shown["outcome"] = outcome
    return shown
