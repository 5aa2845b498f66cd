"""The one rule for the names of bots and authors, and the key they are unique under.

A name is 1 to 40 ASCII letters, digits, `_`, `-`, `.` or `+`, starting with a letter or a
digit, with no `..` in it: it becomes a folder and file names (`bots/<label>/`,
`logs/<label>.stderr.log`), a word on the page and in URLs, so it may be nothing a path, a
command line or a reader could take for something else (`.`, `..`, `-x`, a trailing newline, a
letter from another script that looks like an ASCII one). The whole string is matched
(`fullmatch`: a `$` would let a trailing newline through). Two names are the same name when
their keys are equal: NFKC-normalised and case-folded, so `Greedy` and `GREEDY` are `greedy`.
Every door applies it: bot.toml (players/manifest.py), the league's store (authors, invites,
bots), and so the CLI and the HTTP API, which go through them.
"""

from __future__ import annotations

import re
import unicodedata

MAX_NAME_CHARS = 40
RULE = (
    f"1 to {MAX_NAME_CHARS} ASCII letters, digits, '_', '-', '.' or '+', starting with a "
    "letter or digit and with no '..'"
)
_NAME = re.compile(rf"[A-Za-z0-9][A-Za-z0-9_.+-]{{0,{MAX_NAME_CHARS - 1}}}", re.ASCII)


def name_problem(name: object, what: str = "A name") -> str | None:
    """None when `name` is a valid name; else one sentence, beginning with `what` (e.g.
    "`name`" or "An author's name"), that says what a name may be."""
    if isinstance(name, str) and _NAME.fullmatch(name) and ".." not in name:
        return None
    return f"{what} must be a string of {RULE}, not {name!r:.60}."


def is_name(name: object) -> bool:
    """True when `name` follows the rule."""
    return name_problem(name) is None


def name_key(name: str) -> str:
    """The key names are unique under: NFKC-normalised, then case-folded."""
    return unicodedata.normalize("NFKC", name).casefold()


_VERSION = re.compile(r"\.v[0-9]{1,9}\Z")


def is_label(label: str) -> bool:
    """True when `label` is a name, or a name and `.vN` (how the league names a version)."""
    return is_name(_VERSION.sub("", label, count=1))
