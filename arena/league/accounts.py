"""Authors' tokens and invite codes: made at random, shown once, stored only as a hash,
compared in constant time.

A token is 32 random bytes (`secrets`), so a fast hash (SHA-256) is enough to store it: no
one can guess a token from its hash, and there is no password to stretch. The league keeps
the hash; a request's token is hashed and compared with `hmac.compare_digest`.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from arena.errors import ArenaError
from arena.names import name_problem

TOKEN_PREFIX = "arena_"
INVITE_PREFIX = "invite_"
MAX_TOKEN_CHARS = 200
INVITE_DAYS = 7.0
"""How long an invite link stays valid."""


class AccountError(ArenaError):
    """A bad author name or token; the text says what is wrong."""


def new_token() -> str:
    """A fresh token to give an author (once: only its hash is kept)."""
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


def new_invite() -> str:
    """A fresh invite code: one author joins with it, once (only its hash is kept)."""
    return INVITE_PREFIX + secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """What the league stores for a token."""
    if len(token) > MAX_TOKEN_CHARS:
        raise AccountError("That is not a token of this league (too long).")
    return hashlib.sha256(token.encode("utf-8", "surrogateescape")).hexdigest()


def same_token(token: str, stored_hash: str) -> bool:
    """True when `token` is the one whose hash is `stored_hash`, compared in constant time."""
    try:
        mine = token_hash(token)
    except AccountError:
        return False
    return hmac.compare_digest(mine, stored_hash)


def author_name(name: str) -> str:
    """`name` when it is a valid author name (the one rule of arena/names.py, as for bots);
    AccountError otherwise."""
    problem = name_problem(name, "An author's name")
    if problem is not None:
        raise AccountError(problem)
    return name


def revoked_mark() -> str:
    """What a revoked author's token hash becomes: unique, and never a SHA-256 hex digest,
    so no token matches it."""
    return "revoked:" + secrets.token_hex(16)
