"""A bot's stderr is its author's alone, and the league's public pages name none of the
server's paths (issue 31, item 6; arena/league/public.py). A real league on the loopback:
a bot that writes a secret to stderr on every decision and crashes in league games, and
one that writes it and fails its check; no public response carries the secret, the league's
folder or the checkout, while the author's own stderr still has it."""

from __future__ import annotations

import time
import uuid
from pathlib import Path

import arena
from arena.league import public
from arena.league.uploads import archive_folder
from tests.league_support import Site, bot_archive, served

CHECKOUT = str(Path(arena.__file__).resolve().parents[1])

LEAKY = """
import json, sys

SECRET = {secret!r}
decisions = {{}}
for line in sys.stdin:
    message = json.loads(line)
    kind = message.get("type")
    if kind == "hello":
        print(SECRET, "says hello", file=sys.stderr, flush=True)
        {start}
        print(json.dumps({{"type": "hello", "name": {name!r}}}), flush=True)
    elif kind == "decide":
        game = str(message.get("game_id"))
        decisions[game] = decisions.get(game, 0) + 1
        print(SECRET, "thinks about", game, file=sys.stderr, flush=True)
        if game.startswith("L") and decisions[game] == 3:  # a league game, not the check's
            print(SECRET, "dies", file=sys.stderr, flush=True)
            sys.exit(3)
        print(json.dumps({{"type": "move", "move": 0, "id": message["id"]}}), flush=True)
    elif kind == "goodbye":
        break
"""


def _bot(tmp_path: Path, name: str, secret: str, fails_check: bool) -> bytes:
    """A bot that writes `secret` to stderr: it crashes at the start (its check fails), or
    in league games only (its check passes)."""
    folder = tmp_path / "src" / name
    folder.mkdir(parents=True)
    (folder / "bot.toml").write_text(
        f'name = "{name}"\ncommand = ["python3", "bot.py"]\ngames = ["mandala"]\n'
    )
    start = "sys.exit(1)" if fails_check else "pass"
    (folder / "bot.py").write_text(LEAKY.format(secret=secret, name=name, start=start))
    return archive_folder(folder, tmp_path / name).read_bytes()


def _public(site: Site, paths: list[str]) -> dict[str, str]:
    """Each path's answer, read without a token, as text."""
    answers = {}
    for path in paths:
        status, answer = site.call("GET", path)
        assert status == 200, (path, answer)
        answers[path] = str(answer)
    return answers


def test_a_bots_stderr_and_the_servers_paths_are_on_no_public_page(tmp_path: Path) -> None:
    secret = f"SECRET-{uuid.uuid4().hex}"
    (tmp_path / "leaky").mkdir()
    (tmp_path / "broken").mkdir()
    with served(tmp_path) as site:
        assert (
            site.call("POST", "/api/bots", site.ada, _bot(tmp_path, "leaky", secret, False))[0]
            == 202
        )
        archive = bot_archive(tmp_path, "random", "alpha").read_bytes()
        assert site.call("POST", "/api/bots", site.bob, archive)[0] == 202
        site.wait_status("leaky", "active")
        site.wait_status("alpha", "active")
        site.league.start()
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            detail = site.call("GET", "/api/bots/leaky")[1]
            if detail["failures"]:
                break
            time.sleep(0.3)
        assert detail["failures"], "leaky never crashed in a league game"
        site.league.stop.set()
        assert (
            site.call("POST", "/api/bots", site.ada, _bot(tmp_path, "broken", secret, True))[0]
            == 202
        )
        site.wait_status("broken", "failed")
        games = [game["game_id"] for game in detail["games"]]
        answers = _public(
            site,
            ["/", "/api/leaderboard", "/api/bots", "/api/bots/leaky", "/api/bots/alpha"]
            + ["/api/bots/broken"]
            + [f"/replay/{game}" for game in games],
        )
        crash = detail["failures"][0]["reason"]
        assert "leaky" in crash and "exit code 3" in crash, crash  # the reason is still told
        assert "GET /api/bots/broken/stderr" in site.call("GET", "/api/bots/broken")[1]["message"]
        for path, answer in answers.items():
            assert secret not in answer, path
            assert str(tmp_path) not in answer and str(tmp_path.resolve()) not in answer, path
            assert CHECKOUT not in answer, path
        # its author still reads it all, the check's whole message included
        for label in ("leaky", "broken"):
            status, logs = site.call("GET", f"/api/bots/{label}/stderr", site.ada)
            assert status == 200 and secret in logs["stderr"], label
        assert (
            "the league's check said"
            in site.call("GET", "/api/bots/broken/stderr", site.ada)[1]["stderr"]
        )
        assert site.call("GET", "/api/bots/leaky/stderr", site.bob)[0] == 403


def test_a_message_is_made_public() -> None:
    folder = Path("/srv/leagues/one")
    said = (
        "games: game 1 (/srv/leagues/one/checks/leaky/check-001.json): Seat 0 (leaky) crashed "
        "at turn 3: it exited (exit code 3). Its stderr: SECRET | Traceback\nmore SECRET"
    )
    assert public.message(said, folder, "leaky") == (
        "games: game 1 (LEAGUE/checks/leaky/check-001.json): Seat 0 (leaky) crashed at turn "
        "3: it exited (exit code 3). What it wrote is for its author "
        "(GET /api/bots/leaky/stderr)."
    )
    built = (
        "build: Bot 'leaky' failed to build: `sh build.sh` exited with code 1 in "
        "/srv/leagues/one/bots/leaky; fix it. Its output:\nSECRET"
    )
    assert "SECRET" not in public.message(built, folder) and " in leaky;" in public.message(
        built, folder
    )
    other = "cannot run `/work/main/.venv/bin/python3 bot.py` (see /tmp/x y): 1/2 of http://h/p"
    assert public.message(other) == "cannot run `… bot.py` (see … y): 1/2 of http://h/p"
    record = {"moves": [{"seat": 0, "move": {}, "stderr": "SECRET"}], "outcome": {"reason": said}}
    shown = public.record(record, folder)
    assert "SECRET" not in str(shown) and record["moves"][0]["stderr"] == "SECRET"
