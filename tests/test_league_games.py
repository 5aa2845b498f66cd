"""A bot plays the games it says it plays, and a league's game is said when it is made
(issue 32, items 3 and 4): `arena check` at the game of the bot's `games`, a league refusing
a bot whose bot.toml does not name its game, every command that makes a league saying its
game and seats, `arena submit` of a bundled bot by name. Real bots, a real server on the
loopback; every loop bounded."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli.main import main
from arena.game_sources import GAME_MODULES
from arena.league import web
from arena.league.league import League
from arena.league.store import StoreError
from arena.league.uploads import archive_folder
from arena.players.limits import Limits
from tests.league_support import BOTS, Site, bot_archive, served

SLOW = ["--time-limit", "20000"]  # the machine is shared: no check fails for a late reply


def _arena(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def _without_games(tmp_path: Path, source: str, name: str) -> Path:
    """An archive of bundled bot `source` named `name` whose bot.toml names no games."""
    bot_archive(tmp_path, source, name)  # the folder, in tmp_path/src/
    folder = tmp_path / "src" / name
    lines = (folder / "bot.toml").read_text().splitlines()
    kept = [line for line in lines if not line.startswith("games")]
    (folder / "bot.toml").write_text("\n".join(kept) + "\n")
    return archive_folder(folder, tmp_path)


@contextmanager
def _served_at(tmp_path: Path, game: str) -> Iterator[Site]:
    """A league of `game` (inline games) served on a free loopback port, and its Site."""
    limits = Limits(move_ms=5000, startup_ms=20_000)
    league = League(tmp_path / "league", game=game, workers=0, limits=limits)
    try:
        with web.serving(league) as url:
            yield Site(league, int(url.rsplit(":", 1)[1]))
    finally:
        league.close()


# --- arena check ---


def test_arena_check_plays_the_game_the_bot_says_it_plays(tmp_path: Path) -> None:
    """Before: `arena check` of a Takenoko bot checked Mandala and said all checks passed."""
    code, output = _arena(
        "check", "greedy-takenoko", "-n", "1", "--out", str(tmp_path / "c"), *SLOW
    )
    assert code == 0, output
    assert "against random at takenoko (3 seats)" in output
    assert "takenoko is the first game in greedy-takenoko's bot.toml; --game checks another" in (
        output
    )
    assert "All" in output and "checks passed at takenoko" in output


def test_arena_check_refuses_a_game_the_bot_says_it_does_not_play(tmp_path: Path) -> None:
    """Before: a warning, then the checks at the other game, passed."""
    code, output = _arena("check", "greedy", "--game", "flowers", "--out", str(tmp_path / "c"))
    assert code == 1
    assert output.strip() == (
        "Error: greedy's bot.toml says it plays mandala, not flowers: if it plays flowers too, "
        'say so with games = ["mandala", "flowers"].'
    )
    assert not (tmp_path / "c").exists()


def test_arena_check_of_a_bot_naming_no_games_checks_mandala_and_says_so(tmp_path: Path) -> None:
    _without_games(tmp_path, "random", "plain")
    code, output = _arena(
        "check", str(tmp_path / "src" / "plain"), "-n", "1", "--out", str(tmp_path / "c"), *SLOW
    )
    assert code == 0, output
    assert "at mandala (2 seats)" in output
    assert (
        "plain's bot.toml names no games, so it is checked at mandala; --game checks another, "
        "and a league admits it only once games = [...] names the league's game."
    ) in output


# --- a league admits the bots that say they play its game ---


def test_a_league_refuses_a_bot_that_does_not_say_it_plays_its_game(tmp_path: Path) -> None:
    """Before: a Mandala bot was admitted to a Takenoko league (and lost 0-362 playing move 0)."""
    with _served_at(tmp_path, "takenoko") as site:
        mandala = bot_archive(tmp_path / "m", "greedy", "mandalist").read_bytes()
        status, refused = site.call("POST", "/api/bots", site.ada, mandala)
        assert (status, refused) == (400, {"error": (
            "mandalist's bot.toml says it plays mandala, not takenoko: if it plays takenoko "
            'too, say so with games = ["mandala", "takenoko"].'
        )})  # fmt: skip
        silent = _without_games(tmp_path / "s", "random", "silent").read_bytes()
        status, refused = site.call("POST", "/api/bots", site.ada, silent)
        assert (status, refused) == (400, {"error": (
            "silent's bot.toml does not say it plays takenoko: add games = [\"takenoko\"] to it."
        )})  # fmt: skip
        assert site.call("GET", "/api/bots")[1] == []  # nothing stored, no folder left
        assert [path.name for path in (tmp_path / "league" / "bots").iterdir()] == []
        bamboo = bot_archive(tmp_path / "t", "greedy-takenoko", "bamboo").read_bytes()
        status, bot = site.call("POST", "/api/bots", site.ada, bamboo)
        assert status == 202, bot
        site.wait_status("bamboo", "active")  # its check played takenoko


# --- making a league ---


def test_add_author_says_the_league_it_makes_and_an_empty_unchosen_one_takes_a_game(
    tmp_path: Path,
) -> None:
    """Before: `--add-author` on a new folder made a Mandala league without a word, and
    `arena serve --game takenoko` then refused it."""
    folder = str(tmp_path / "league")
    code, output = _arena("serve", "--league", folder, "--add-author", "ada")
    assert code == 0, output
    assert output.splitlines()[0] == (
        f"Made a league of mandala, 2 seats, in {folder}; --game and --seats choose another "
        "when a league is made."
    )
    code, output = _arena("serve", "--league", folder, "--add-author", "bob")
    assert code == 0 and "Made a league" not in output and output.startswith("Author bob")
    code, output = _arena("serve", "--league", folder, "--game", "takenoko", "--invite")
    assert code == 0, output
    assert output.splitlines()[0] == (
        f"Made a league of takenoko, 3 seats, in {folder} (it had no bots nor games, and "
        "played mandala as nobody had chosen a game); --game and --seats choose another when "
        "a league is made."
    )
    code, output = _arena("serve", "--league", folder, "--game", "flowers", "--invite")
    assert code == 1 and output.strip() == (
        "Error: This league plays takenoko; start it with --game takenoko, or give another "
        "--league folder (and --db) for another game (a league's game is chosen when it is "
        "made)."
    )


def test_a_league_with_a_bot_keeps_its_game_even_unchosen(tmp_path: Path) -> None:
    league = League(tmp_path / "league", workers=0)
    assert league.made is not None and league.made.startswith("Made a league of mandala")
    ada = league.store.author_of(league.store.add_author("ada"))
    assert ada is not None
    league.store.add_bot("alpha", ada)
    league.close()
    with pytest.raises(StoreError, match="This league plays mandala; start it with --game"):
        League(tmp_path / "league", game="takenoko", workers=0)
    again = League(tmp_path / "league", workers=0)
    assert again.made is None and again.game == "mandala"
    again.close()


def test_arena_serve_says_the_league_it_makes(tmp_path: Path) -> None:
    folder = tmp_path / "league"
    command = [str(Path(sys.executable).parent / "arena"), "serve", "--league", str(folder),
               "--game", "takenoko", "--seats", "4", "--workers", "0", "--port", "0"]  # fmt: skip
    env = {k: v for k, v in os.environ.items() if k != GAME_MODULES}  # a user's environment
    server = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
        start_new_session=True,
    )  # fmt: skip
    lines: list[str] = []
    try:
        assert server.stdout is not None
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not any(s.startswith("League of") for s in lines):
            line = server.stdout.readline()
            if not line:
                break
            lines.append(line.rstrip("\n"))
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(60)
    assert lines[0] == (
        f"Made a league of takenoko, 4 seats, in {folder}; --game and --seats choose another "
        "when a league is made."
    ), lines
    assert re.fullmatch(r"League of takenoko \(4 seats\) at http://127\.0\.0\.1:\d+/", lines[1])


# --- arena submit by a bundled bot's name ---


def test_arena_submit_sends_a_bundled_bot_by_name(tmp_path: Path) -> None:
    """Before: `arena submit greedy` said the path 'greedy' does not exist."""
    with served(tmp_path) as site:
        code, output = _arena("submit", "greedy", "--to", site.url, "--token", site.ada)
        assert code == 0, output
        assert output.startswith("Submitted greedy ("), output
        status, bot = site.call("GET", "/api/bots/greedy")
        assert status == 200 and bot["author"] == "ada"
        code, output = _arena("submit", "nobody", "--to", site.url, "--token", site.ada)
        assert code == 1 and output.startswith("Error: No bot 'nobody': it is neither a folder")
    assert (BOTS / "greedy" / "bot.toml").is_file()
