"""Issue 33, items 6 and 7: what a bot author meets after following the README.

The test suite keeps passing with the author's own bot in `bots/` (the tests name the
bundled bots, `tests/bundled_bots.py`); the README's and the guide's examples work for a
JavaScript and a Java bot; the conformance check, the leaderboard and the progress line say
what they mean in plain words.
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli.main import main
from arena.cli.progress import Progress
from arena.players.manifest import discover_bots, plays
from tests.bundled_bots import BUNDLED, FIELDS, bundled_folder

ROOT = Path(__file__).resolve().parents[1]
SKIP = shutil.ignore_patterns("__pycache__", "*.pyc", ".pytest_cache")
DEFAULT_FIELD_TESTS = [
    "tests/test_takenoko_end_to_end.py::"
    "test_t14_the_default_field_finishes_every_game_before_the_round_cap",
    "tests/test_flowers_end_to_end.py::"
    "test_the_default_field_of_flowers_leaves_out_the_mandala_only_bots",
]


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.output


def test_the_bundled_list_is_every_bot_folder_the_repository_ships() -> None:
    try:
        listed = subprocess.run(
            ["git", "ls-files", "bots"], cwd=ROOT, capture_output=True, text=True, timeout=60
        )
    except FileNotFoundError:
        pytest.skip("git is not installed")
    if listed.returncode != 0:
        pytest.skip("not a git checkout")
    tracked = {Path(path).parent.name for path in listed.stdout.split() if path.endswith("toml")}
    assert tracked == set(BUNDLED)


def test_each_games_default_field_among_the_bundled_bots_is_its_list(tmp_path: Path) -> None:
    bots = discover_bots(bundled_folder(tmp_path))
    assert sorted(bot.name for bot in bots) == sorted(BUNDLED)
    for game, field in FIELDS.items():
        assert sorted(bot.name for bot in bots if bot.default and plays(bot, game)) == list(field)


def test_the_default_field_tests_pass_with_a_users_bot_in_bots(tmp_path: Path) -> None:
    """Issue 33, item 6: a copy of the checkout with `bots/bamboo-js` beside the bundled bots
    (a starter renamed, as the README tells an author) passes the tests that play a default
    field; before, 'Extra items in the left set: bamboo-js'."""
    clone = tmp_path / "clone"
    for part in ("arena", "tests", "bots"):
        shutil.copytree(ROOT / part, clone / part, ignore=SKIP, symlinks=True)
    shutil.copy(ROOT / "pyproject.toml", clone / "pyproject.toml")
    mine = clone / "bots" / "bamboo-js"
    shutil.copytree(ROOT / "bots" / "starter-js", mine, ignore=SKIP)
    toml = (mine / "bot.toml").read_text().replace('name = "starter-js"', 'name = "bamboo-js"')
    (mine / "bot.toml").write_text(toml)
    env = {key: value for key, value in os.environ.items() if not key.startswith("PYTEST")}
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *DEFAULT_FIELD_TESTS],
        cwd=clone, env={**env, "PYTHONPATH": str(clone)}, capture_output=True, text=True,
        timeout=900,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert "2 passed" in result.stdout


def _readme_pipe() -> str:
    """The README's example that pipes one recorded request into the author's bot."""
    lines = (ROOT / "README.md").read_text().splitlines()
    pipes = [line for line in lines if line.startswith("arena replay") and "--json |" in line]
    assert len(pipes) == 1, pipes
    return pipes[0]


def test_the_readmes_replay_pipe_runs_a_javascript_bot(tmp_path: Path) -> None:
    """Issue 33, item 7: `... --json | bots/mine/bot.js` was 'Permission denied' for the
    JavaScript starter; the example runs the bot's command in its folder."""
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    mine = tmp_path / "bots" / "mine"
    shutil.copytree(ROOT / "bots" / "starter-js", mine, ignore=SKIP)
    code, output = run("play", str(mine), str(ROOT / "bots" / "random"), "-n", "1",
                       "--seed", "3", "--out", str(tmp_path / "p"))  # fmt: skip
    assert code == 0, output
    record = next((tmp_path / "p").glob("g*.json*"))
    command = _readme_pipe().replace("results/run-*/records/GAME.json.gz", str(record))
    command = command.replace("arena replay", f"{Path(sys.executable).parent / 'arena'} replay")
    env = {key: value for key, value in os.environ.items() if key != "ARENA_GAME_MODULES"}
    done = subprocess.run(
        ["bash", "-c", f"set -o pipefail; {command}"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    reply = json.loads(done.stdout.splitlines()[-1])
    assert "Permission denied" not in done.stderr and isinstance(reply, dict), done.stdout


def test_the_guides_java_options_are_read_by_java(tmp_path: Path) -> None:
    """Issue 33, item 7: the guide's `[env]` example named JAVA_OPTS, which `java` ignores."""
    if shutil.which("java") is None:
        pytest.skip("java is not installed")
    guide = (ROOT / "bots" / "README.md").read_text()
    example = re.search(r"```toml\n(\[limits\].*?)```", guide, re.DOTALL)
    assert example is not None
    variables = tomllib.loads(example.group(1))["env"]
    flags = subprocess.run(
        ["java", "-XX:+PrintFlagsFinal", "-version"],
        env={**os.environ, **variables}, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    heap = re.search(r"\bMaxHeapSize\s*=\s*(\d+)", flags.stdout)
    assert heap is not None, flags.stdout[-2000:] + flags.stderr
    assert int(heap.group(1)) == 256 * 1024 * 1024


def test_the_checks_games_line_says_plainly_what_was_played(tmp_path: Path) -> None:
    """Issue 33, item 7: 'games: 24 games with unknown fields in every message' was not
    understood; the line says the games were played with extra fields to ignore."""
    code, output = run("check", str(ROOT / "bots" / "random"), "-n", "2",
                       "--out", str(tmp_path / "c"))  # fmt: skip
    assert code == 0, output
    line = next(line for line in output.splitlines() if "decisions, all legal" in line)
    assert "games with unknown fields in every message" not in line
    assert "2 games played" in line
    assert "every message carrying extra fields a bot must ignore" in line


def test_the_leaderboards_p95_is_explained_in_plain_words(tmp_path: Path) -> None:
    """Issue 33, item 7: 'p95 to 25%' under "Time per decision" could not be understood."""
    out = tmp_path / "run"
    bots = bundled_folder(tmp_path)
    code, output = run("run", str(bots / "random"), str(bots / "starter-c"), "--rounds", "1",
                       "--seed", "2", "--no-charts", "--out", str(out))  # fmt: skip
    assert code == 0, output
    board = (out / "leaderboard.md").read_text()
    assert "## Time per decision" in board and "p95 to 25%" not in board
    assert "p95 is the time 95% of decisions took at most" in board
    assert "up to 25% above the exact figure" in board


def test_the_first_progress_lines_give_no_time_left_from_too_few_games() -> None:
    """Issue 33, item 7: the first line said '1:15:32 left' from one game's time; time left
    is shown once 5% of the run's games are played (or 30 s have passed)."""
    stream = io.StringIO()
    progress = Progress(1000, stream=stream, plain_every_s=0)
    progress.update(1, 1000, 1)
    progress.update(49, 1000, 49)
    progress.update(50, 1000, 50)
    progress.update(1000, 1000, 1000)
    lines = stream.getvalue().splitlines()
    clock = re.compile(r"\d+:\d\d left")
    assert [bool(clock.search(line)) for line in lines] == [False, False, True, True], lines
    assert "time left: estimating" in lines[0]


def test_a_resumed_runs_estimate_counts_only_the_games_it_plays() -> None:
    """A run resumed at 900 of 1000 games has 100 to play: 5 of them make 5%."""
    stream = io.StringIO()
    progress = Progress(1000, stream=stream, plain_every_s=0)
    progress.update(904, 1000, 4)
    progress.update(905, 1000, 5)
    first, second = stream.getvalue().splitlines()
    assert "estimating" in first and re.search(r"\d+:\d\d left", second), (first, second)


_AWK_BOT = r"""
function field(name,    s) {
  if (!match($0, "\"" name "\" *: *\"[^\"]*\"")) return ""
  s = substr($0, RSTART, RLENGTH); sub(/^[^:]*: *"/, "", s); sub(/"$/, "", s); return s
}
{
  type = field("type")
  if (type == "hello") { print "{\"type\":\"hello\",\"name\":\"awky\"}"; fflush() }
  else if (type == "decide") { printf "{\"move\":0,\"id\":\"%s\"}\n", field("id"); fflush() }
  else if (type == "goodbye") exit 0
}
"""
_SHELL_BOT = r"""
while IFS= read -r line; do
  case "$line" in
    '{"type":"hello"'*|'{"type": "hello"'*) printf '{"type":"hello","name":"shelly"}\n' ;;
    '{"type":"decide"'*|'{"type": "decide"'*)
      id=${line#*\"id\"}; id=${id#*\"}; id=${id%%\"*}
      printf '{"type":"move","move":0,"id":"%s"}\n' "$id" ;;
    '{"type":"goodbye"'*|'{"type": "goodbye"'*) exit 0 ;;
  esac
done
"""


@pytest.mark.parametrize(
    ("name", "command", "source"),
    [
        ("awky", ["awk", "-W", "interactive", "-f", "bot.awk"], _AWK_BOT),
        ("shelly", ["sh", "bot.sh"], _SHELL_BOT),
    ],
)
def test_a_bot_in_a_language_without_a_starter_plays_from_the_guide_alone(
    tmp_path: Path, name: str, command: list[str], source: str
) -> None:
    """awk and a POSIX shell, no JSON reader: the id picked out of the line, the first legal
    move by index. mawk (Debian's awk) reads a full buffer before its first line unless run
    with `-W interactive`: without it the bot never sees `hello` (the guide says so)."""
    if shutil.which(command[0]) is None:
        pytest.skip(f"no {command[0]}")
    folder = tmp_path / name
    folder.mkdir()
    (folder / "bot.toml").write_text(
        f'name = "{name}"\ncommand = {json.dumps(command)}\n'
        'games = ["mandala", "flowers", "takenoko"]\n'
    )
    (folder / Path(command[-1]).name).write_text(source)
    for game in ("mandala", "flowers", "takenoko"):
        code, said = run("check", str(folder), "--game", game, "--out", str(tmp_path / game))
        assert code == 0, said
    guide = " ".join((ROOT / "bots" / "README.md").read_text().split())
    assert "`awk -W interactive -f bot.awk`" in guide and "`fflush()` after each" in guide


def test_the_guides_walkthrough_runs_as_written_in_a_folder_of_ones_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its bot.toml and bot.py, then its steps 4 and 5 as printed, where bots/ holds only
    that bot (pip installed: the bundled bots are found by name). Step 5 named
    `bots/random`, which is no folder there."""
    guide = (ROOT / "bots" / "README.md").read_text(encoding="utf-8")
    start = guide.index("## Walkthrough")
    section = guide[start : guide.index("\n## ", start + 1)]
    blocks = dict(re.findall(r"```(toml|python)\n(.*?)```", section, re.S))
    folder = tmp_path / "bots" / "mine"
    folder.mkdir(parents=True)
    for language, name in (("toml", "bot.toml"), ("python", "bot.py")):
        lines = blocks[language].splitlines()
        indent = min(len(line) - len(line.lstrip()) for line in lines if line.strip())
        (folder / name).write_text("\n".join(line[indent:] for line in lines) + "\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    steps = re.findall(r"`arena (check|play) ([^`]*)`", section)
    assert [verb for verb, _ in steps[:2]] == ["check", "play"], steps
    for verb, rest in steps[:2]:
        code, said = run(verb, *rest.split(), "--out", str(tmp_path / verb))
        assert code == 0, said
