"""The admin's tools (issue 42, point 6): `arena serve --revoke AUTHOR` and `--reissue AUTHOR`
at the console, the admin's unretire beside retire, the audit log of admin actions (in the
league's database, SQLite and PostgreSQL alike), and what each role may do (README, "Opening
a league to strangers"). Every wait here is bounded."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from arena.cli.main import main
from arena.errors import ArenaError
from arena.league import audit, store
from arena.league.store import Store, StoreError
from tests.league_support import Site, bot_archive, served

TOKEN = re.compile(r"arena_[A-Za-z0-9_-]{20,}")
WRONG = "not one of this league's"


def _serve(folder: Path, db: str | None, *arguments: str) -> Result:
    where = ["--db", db] if db is not None else []
    return CliRunner().invoke(main, ["serve", "--league", str(folder), *where, *arguments])


def _token(result: Result) -> str:
    assert result.exit_code == 0, result.output
    found = TOKEN.search(result.output)
    assert found is not None, result.output
    return found.group(0)


# --- the store: revoke, reissue, the audit log (SQLite and PostgreSQL) ---


def test_a_revoked_token_stops_working_and_a_reissued_one_replaces_it(league_db: str) -> None:
    league = Store(league_db)
    try:
        old = league.add_author("ada")
        ada = league.author_of(old)
        assert ada is not None
        bot = league.set_status(league.add_bot("alpha", ada), "active")
        assert league.revoke("ADA", "console (user test)").name == "ada"  # any case: one name
        assert league.author_of(old) is None
        assert league.bot("alpha") == bot  # the bot and its status stay
        league.revoke("ada", "console (user test)")  # again: still revoked, no error
        author, new = league.reissue("ada", "console (user test)")
        assert author.name == "ada" and new != old
        assert league.author_of(new) == ada and league.author_of(old) is None
        _, newer = league.reissue("ada", "console (user test)")  # the previous one dies
        assert league.author_of(new) is None and league.author_of(newer) == ada
        for act in (league.revoke, league.reissue):
            with pytest.raises(StoreError, match="There is no author called zed in this league"):
                act("zed", "console (user test)")
        with pytest.raises(ArenaError, match="An author's name"):
            league.revoke("../etc", "console (user test)")
        said = [(line.who, line.what) for line in league.audit_lines()]
        assert said == [
            ("console (user test)", "revoked ada's token"),
            ("console (user test)", "revoked ada's token"),
            ("console (user test)", "reissued ada's token"),
            ("console (user test)", "reissued ada's token"),
        ]
    finally:
        league.close()


def test_the_audit_log_keeps_its_latest_lines_each_on_one_bounded_line(
    league_db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(audit, "KEEP", 5)
    league = Store(league_db)
    try:
        before = time.time()
        for n in range(12):
            with league.db.transaction():
                league.audit("admin", f"act {n}")
        lines = league.audit_lines()
        assert [line.what for line in lines] == [f"act {n}" for n in range(7, 12)]
        assert all(before - 1 <= line.at <= time.time() + 1 for line in lines)
        assert [line.what for line in league.audit_lines(2)] == ["act 10", "act 11"]
        with league.db.transaction():
            league.audit("admin\n" + "w" * 500, "made\nan invite\x1b[31m" + "x" * 5000)
        last = league.audit_lines(1)[0]
        assert len(last.who) == audit.MAX_WHO_CHARS and len(last.what) == audit.MAX_WHAT_CHARS
        assert last.what.startswith("made an invite [31m") and last.what.isprintable()
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ admin w+…: made .*", str(last))
        assert len(league.audit_lines()) == 5
    finally:
        league.close()


def test_a_league_of_the_previous_schema_opens_with_its_tokens_working(
    league_db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    steps = len(store.MIGRATIONS)
    with monkeypatch.context() as older:  # the arena before this schema step
        older.setattr(store, "MIGRATIONS", store.MIGRATIONS[:-1])
        old = Store(league_db)
        token = old.add_author("ada", admin=True)
        assert old.version == steps - 1
        old.close()
    league = Store(league_db)
    try:
        assert league.version == steps
        author = league.author_of(token)
        assert author is not None and (author.name, author.admin) == ("ada", True)
        assert league.audit_lines() == []
    finally:
        league.close()


# --- the console: arena serve --add-author, --revoke, --reissue, --audit ---


def test_the_console_revokes_reissues_and_reads_the_audit_log(
    tmp_path: Path, league_db: str
) -> None:
    folder = tmp_path / "league"
    admin = _token(_serve(folder, league_db, "--add-author", "boss", "--admin"))
    bob = _token(_serve(folder, league_db, "--add-author", "bob"))
    invited = _serve(folder, league_db, "--invite")
    assert invited.exit_code == 0 and "/join#invite_" in invited.output
    revoked = _serve(folder, league_db, "--revoke", "bob")
    assert revoked.exit_code == 0, revoked.output
    assert "Author bob's token is revoked: it no longer works; they have no active bot." in (
        revoked.output
    )
    assert "arena serve --reissue bob" in revoked.output and TOKEN.search(revoked.output) is None
    reissued = _serve(folder, league_db, "--reissue", "Bob")
    new = _token(reissued)
    assert "Author bob's new token (shown once, keep it; the old one no longer works)" in (
        reissued.output
    )
    league = Store(league_db)
    try:
        assert league.author_of(bob) is None
        assert league.author_of(new) is not None and league.author_of(admin) is not None
    finally:
        league.close()
    shown = _serve(folder, league_db, "--audit")
    assert shown.exit_code == 0, shown.output
    lines = shown.output.splitlines()
    acts = [line.split(": ", 1)[1] for line in lines]
    assert acts == [
        "added author boss (admin)",
        "added author bob",
        "made an invite link",
        "revoked bob's token",
        "reissued bob's token",
    ]
    assert all(
        re.match(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ console \(user .+\): ", line) for line in lines
    )
    assert not TOKEN.search(shown.output) and "invite_" not in shown.output  # no secret in it


def test_the_consoles_refusals_are_one_sentence(tmp_path: Path) -> None:
    folder = tmp_path / "league"
    for act in (["--revoke", "bob"], ["--reissue", "bob"], ["--audit"]):
        result = _serve(folder, None, *act)
        assert result.exit_code == 1 and f"There is no league in {folder}" in result.output
    assert not folder.exists(), "only --add-author and --invite make a league"
    _token(_serve(folder, None, "--add-author", "ada"))
    empty = _serve(folder, None, "--audit")
    assert empty.exit_code == 0 and "added author ada" in empty.output
    result = _serve(folder, None, "--revoke", "zed")
    assert result.exit_code == 1 and "There is no author called zed in this league" in result.output
    assert "Traceback" not in result.output
    both = _serve(folder, None, "--revoke", "ada", "--reissue", "ada")
    assert both.exit_code == 2 and "Give one of --add-author, --invite, --revoke" in both.output
    alone = _serve(folder, None, "--admin")
    assert alone.exit_code == 2 and "--admin goes with --add-author NAME" in alone.output


# --- the web side: the roles, unretire, the audit log; a revocation at once ---


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    """A league served on the loopback where ada's alpha (random) is active."""
    with served(tmp_path) as running:
        archive = bot_archive(tmp_path, "random", "alpha")
        assert running.call("POST", "/api/bots", running.ada, archive.read_bytes())[0] == 202
        running.wait_status("alpha", "active")
        yield running


def test_the_admin_retires_and_unretires_any_bot_and_reads_the_log_of_it(site: Site) -> None:
    status, answer = site.call("POST", "/api/bots/alpha/retire", site.bob, b"")
    assert status == 403 and "alpha belongs to ada; you may retire only yours" in answer["error"]
    status, bot = site.call("POST", "/api/bots/alpha/retire", site.admin, b"")
    assert status == 200 and bot["status"] == "retired"
    for token, refusal in (
        (site.ada, "Only the league's admin may unretire a bot; ask them for alpha."),
        (site.bob, "Only the league's admin may unretire a bot; ask them for alpha."),
    ):
        assert site.call("POST", "/api/bots/alpha/unretire", token, b"") == (
            403,
            {"error": refusal},
        )
    status, answer = site.call("POST", "/api/bots/alpha/unretire", None, b"")
    assert status == 401 and "needs an author's token" in answer["error"]
    status, answer = site.call("POST", "/api/bots/alpha/unretire", "arena_" + "x" * 40, b"")
    assert status == 401 and WRONG in answer["error"]
    status, bot = site.call("POST", "/api/bots/alpha/unretire", site.admin, b"")
    assert status == 200 and bot["status"] == "active"
    assert site.league.store.bots("active")[0].label == "alpha"  # matched again
    status, answer = site.call("POST", "/api/bots/alpha/unretire", site.admin, b"")
    assert (
        status == 403
        and "alpha is active, not retired; there is nothing to unretire" in (answer["error"])
    )
    assert site.call("POST", "/api/bots/nobody/unretire", site.admin, b"")[0] == 403
    assert site.call("POST", "/api/pause", site.admin, b"")[0] == 200
    assert site.call("POST", "/api/resume", site.admin, b"")[0] == 200
    assert site.call("POST", "/api/invites", site.admin, b"")[0] == 201
    status, answer = site.call("GET", "/api/audit")
    assert status == 401 and "needs an author's token" in answer["error"]
    status, answer = site.call("GET", "/api/audit", site.ada)
    assert status == 403 and answer["error"] == "Only the league's admin may read the audit log."
    status, lines = site.call("GET", "/api/audit", site.admin)
    assert status == 200
    assert [(line["who"], line["what"]) for line in lines] == [  # newest first
        ("admin", "made an invite link"),
        ("admin", "resumed the league"),
        ("admin", "paused the league"),
        ("admin", "unretired alpha (ada's)"),
        ("admin", "retired alpha (ada's)"),
    ]
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", line["at"]) for line in lines)
    # an author's acts on their own bots are theirs, not the admin's: not in the log
    assert site.call("POST", "/api/bots/alpha/retire", site.ada, b"")[0] == 200
    assert len(site.call("GET", "/api/audit", site.admin)[1]) == len(lines)


def test_a_token_revoked_at_the_console_stops_working_at_once_and_the_bots_play_on(
    site: Site,
) -> None:
    """`arena serve --revoke` beside the running league: the next request with the token is
    refused, while the author's bot stays active with its page; `--reissue` lets them in."""
    folder = site.league.folder
    assert site.call("GET", "/api/me", site.ada)[0] == 200
    revoked = _serve(folder, None, "--revoke", "ada")
    assert revoked.exit_code == 0, revoked.output
    assert "their active bot (alpha) plays on: the admin retires it to stop it" in (revoked.output)
    for method, path in (("GET", "/api/me"), ("POST", "/api/bots"), ("POST", "/api/play")):
        status, answer = site.call(method, path, site.ada, b"" if method == "POST" else None)
        assert status == 401 and WRONG in answer["error"], (path, answer)
    status, bot = site.call("GET", "/api/bots/alpha")
    assert status == 200 and bot["status"] == "active" and bot["author"] == "ada"
    new = _token(_serve(folder, None, "--reissue", "ada"))
    assert site.call("GET", "/api/me", new) == (200, {"author": "ada", "admin": False})
    assert site.call("GET", "/api/me", site.ada)[0] == 401
    status, lines = site.call("GET", "/api/audit", site.admin)
    assert [line["what"] for line in lines][:2] == ["reissued ada's token", "revoked ada's token"]
    assert lines[0]["who"].startswith("console (user ")
