"""`arena serve`'s acts at the console, done in the league's store alone and then stopped:
--add-author, --invite, --revoke, --reissue and --audit, one at a time (issue 42, point 6)."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from click.core import ParameterSource

from arena.errors import ArenaError

if TYPE_CHECKING:
    from arena.league.store import Store

ADDRESS_SETTING = "address"
"""The store's setting where a running `arena serve` keeps the address it serves."""


def in_store(
    folder: Path, db: str | None, table_asked: tuple[str | None, int | None, dict[str, Any] | None],
    act: tuple[str, str], making: bool, public_url: str | None, host: str, port: int,
) -> str:  # fmt: skip
    """An act at the console (`console_act`), done in the league's store alone: what to
    print. Only --add-author and --invite may make a new league."""
    from arena.league.league import DEFAULT_DB
    from arena.league.store import Store
    from arena.league.table import made_line, settle

    try:
        if not making and db is None and not (folder / DEFAULT_DB).is_file():
            raise ArenaError(f"There is no league in {folder}; give its folder with --league.")
        folder.mkdir(parents=True, exist_ok=True)
        store = Store(folder / DEFAULT_DB if db is None else db)
        try:
            table = settle(store, *table_asked)  # as serving
            done = _at_console(store, act, public_url or _address_to_invite(store, host, port))
            made = made_line(table, folder)  # a new league: its game and seats, said
            return done if made is None else f"{made}\n{done}"
        finally:
            store.close()
    except (ArenaError, OSError) as error:
        raise click.ClickException(str(error)) from None


CONSOLE_ACTS = ("--add-author", "--invite", "--revoke", "--reissue", "--audit")
"""What `arena serve` does in the league's store and stops, one at a time."""


def console_act(
    add_author: str | None, admin: bool, invite: bool, revoke: str | None, reissue: str | None,
    show_audit: bool,
) -> tuple[str, str] | None:  # fmt: skip
    """The one console act asked for, as (verb, author): `add-author`, `add-admin`,
    `revoke`, `reissue` with an author's name, `invite` and `audit` with none; None when
    none is (serve the league)."""
    asked = [
        None if add_author is None else ("add-admin" if admin else "add-author", add_author),
        ("invite", "") if invite else None,
        None if revoke is None else ("revoke", revoke),
        None if reissue is None else ("reissue", reissue),
        ("audit", "") if show_audit else None,
    ]
    given = [act for act in asked if act is not None]
    if len(given) > 1:
        raise click.UsageError(f"Give one of {', '.join(CONSOLE_ACTS)} at a time.")
    if admin and add_author is None:
        raise click.UsageError("--admin goes with --add-author NAME: the author made admin.")
    return given[0] if given else None


def _at_console(store: Store, act: tuple[str, str], address: str) -> str:
    """Do the console act `act` (`console_act`) in `store`, each in the audit log as the
    console's: what to print."""
    from arena.league.audit import console

    verb, name = act
    who = console()
    if verb in ("add-author", "add-admin"):
        token = store.add_author(name, admin=verb == "add-admin", who=who)
        return f"Author {name} added. Their token (shown once, keep it): {token}"
    if verb == "invite":
        return _invite(store, address, who)
    if verb == "revoke":
        author = store.revoke(name, who)
        return (
            f"Author {author.name}'s token is revoked: it no longer works; "
            f"{_still_playing(store, author.name)}. `arena serve --reissue {author.name}` "
            "gives them a new one."
        )
    if verb == "reissue":
        author, token = store.reissue(name, who)
        return (
            f"Author {author.name}'s new token (shown once, keep it; the old one no longer "
            f"works): {token}"
        )
    lines = store.audit_lines()
    return "\n".join(str(line) for line in lines) if lines else "No admin action yet."


def _still_playing(store: Store, author: str) -> str:
    """What a revocation leaves as it was: the author's active bots, which play on."""
    active = [bot.label for bot in store.bots("active") if bot.author == author]
    if not active:
        return "they have no active bot"
    shown = ", ".join(active[:5]) + (f" and {len(active) - 5} more" if len(active) > 5 else "")
    bots, play, them = ("bot", "plays", "it") if len(active) == 1 else (f"{len(active)} bots", "play", "them")  # fmt: skip
    return f"their active {bots} ({shown}) {play} on: the admin retires {them} to stop {them}"


def web_address(host: str, port: int) -> str:
    """The address a browser reaches a server listening on `host` and `port` at: this
    machine's name for a wildcard address, an IPv6 address in brackets."""
    if host in ("", "0.0.0.0", "::"):
        host = socket.gethostname()
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def _address_to_invite(store: Store, host: str, port: int) -> str:
    """The league's address for an invite link without --public-url: the --host and --port
    given (--port 0 names no port), else where the league was last served (a running
    `arena serve` stores it), else the defaults."""
    context = click.get_current_context()
    given = port != 0 and any(
        context.get_parameter_source(name) != ParameterSource.DEFAULT for name in ("host", "port")
    )
    stored = store.setting(ADDRESS_SETTING)
    return stored if stored and not given else web_address(host, port)


def _invite(store: Store, address: str, who: str) -> str:
    from arena.league.accounts import INVITE_DAYS

    code = store.add_invite(who=who)
    return (
        f"Invite link (one author, valid {INVITE_DAYS:g} days; shown once): {address}/join#{code}"
    )
