"""Bad input from people, through the CLI: one clear sentence, a non-zero exit, nothing written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli.main import main

RANDOM = str(Path(__file__).resolve().parents[1] / "bots" / "random")


def _bot(folder: Path, toml: str, files: dict[str, str] | None = None) -> str:
    folder.mkdir(parents=True)
    (folder / "bot.toml").write_text(toml, encoding="utf-8")
    for name, text in (files or {}).items():
        (folder / name).write_text(text, encoding="utf-8")
    return str(folder)


@pytest.fixture
def runner(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    monkeypatch.chdir(tmp_path)  # anything written by mistake would land here
    return CliRunner()


def _fails(runner: CliRunner, args: list[str], sentence: str) -> str:
    result = runner.invoke(main, args)
    assert result.exit_code != 0, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert sentence in result.output, result.output
    assert "Traceback" not in result.output
    return result.output


def _nothing_written(out: Path) -> None:
    assert not (out / "config.json").exists()
    assert not (out / "games.jsonl").exists()


@pytest.mark.parametrize("command", ["check", "play", "run"])
def test_a_manifest_that_is_not_toml(runner: CliRunner, tmp_path: Path, command: str) -> None:
    bad = _bot(tmp_path / "bad", 'name = "bad"\ncommand = [\n')
    args = {"check": [bad], "play": [bad, RANDOM], "run": [bad, RANDOM]}[command]
    out = tmp_path / "out"
    extra = [] if command == "check" else ["--out", str(out)]
    _fails(runner, [command, *args, *extra], "is not valid TOML")
    _nothing_written(out)


def test_a_manifest_without_command(runner: CliRunner, tmp_path: Path) -> None:
    bad = _bot(tmp_path / "bad", 'name = "bad"\n')
    _fails(runner, ["play", bad, RANDOM, "--out", str(tmp_path / "out")], "`command` is missing")


def test_a_manifest_with_bad_limits(runner: CliRunner, tmp_path: Path) -> None:
    bad = _bot(
        tmp_path / "bad", 'name = "bad"\ncommand = ["./bot"]\n[limits]\nmemory_mb = "lots"\n'
    )
    _fails(runner, ["check", bad], "[limits] memory_mb must be a positive whole number")
    other = _bot(tmp_path / "other", 'name = "other"\ncommand = ["./bot"]\n[limits]\ngpu = 1\n')
    _fails(runner, ["check", other], "unknown key `gpu` in [limits]")


def test_a_missing_command(runner: CliRunner, tmp_path: Path) -> None:
    bot = _bot(tmp_path / "nocmd", 'name = "nocmd"\ncommand = ["./does-not-exist"]\n')
    out = tmp_path / "out"
    _fails(
        runner,
        ["play", bot, RANDOM, "--out", str(out)],
        "Bot 'nocmd' cannot start: its program './does-not-exist' (no such file or directory)",
    )
    _nothing_written(out)


def test_an_unbuildable_bot(runner: CliRunner, tmp_path: Path) -> None:
    bot = _bot(
        tmp_path / "nobuild",
        'name = "nobuild"\ncommand = ["./bot"]\nbuild = ["sh", "-c", "echo no compiler; exit 3"]\n',
    )
    out = tmp_path / "out"
    _fails(runner, ["play", bot, RANDOM, "--out", str(out)], "Bot 'nobuild' failed to build")
    _nothing_written(out)


def test_a_tournament_with_a_bot_that_cannot_start_stops_before_playing(
    runner: CliRunner, tmp_path: Path
) -> None:
    """Issue 20: a field with a bot that cannot be built (or whose program is missing) once
    played on, the bot forfeiting every game, and printed a leaderboard of forfeits with
    exit status 0. Now the run stops before its first game with one sentence and status 1."""
    _bot(tmp_path / "bots" / "nocmd", 'name = "nocmd"\ncommand = ["./does-not-exist"]\n')
    _bot(
        tmp_path / "bots" / "nobuild",
        'name = "nobuild"\ncommand = ["./bot"]\n'
        'build = ["sh", "-c", "echo no compiler here; exit 3"]\n',
    )
    for broken, said in [("nobuild", "failed to build"), ("nocmd", "cannot start: its program")]:
        out = tmp_path / f"out-{broken}"
        args = ["run", str(tmp_path / "bots" / broken), RANDOM, "--workers", "0"]
        result = runner.invoke(main, [*args, "--out", str(out)])
        assert result.exit_code == 1, result.output
        assert f"Bot {broken!r} cannot start, so no game was played" in result.output
        assert said in result.output and "--resume" in result.output
        assert "Traceback" not in result.output and "Leaderboard" not in result.output
        assert not (out / "games.jsonl").exists()
        assert said in (out / "run.log").read_text()
    assert "no compiler here" in (tmp_path / "out-nobuild" / "run.log").read_text()


def test_a_tournament_stops_when_a_bot_starts_none_of_its_first_tables_games(
    runner: CliRunner, tmp_path: Path
) -> None:
    """Issue 20: a bot that dies before `hello` (as every bot did in a clone in root's home,
    the sandbox failing to start) stops the run after its first table, with status 1, one
    sentence quoting its start-up error and no leaderboard; its games are logged."""
    _bot(
        tmp_path / "bots" / "dies",
        'name = "dies"\ncommand = ["sh", "-c", "echo sandbox says no >&2; exit 1"]\n',
    )
    out = tmp_path / "out"
    args = ["run", str(tmp_path / "bots" / "dies"), RANDOM, "--rounds", "3", "--workers", "0"]
    result = runner.invoke(main, [*args, "--out", str(out)])
    assert result.exit_code == 1, result.output
    assert "Bot 'dies' could not start in any of its first 2 games" in result.output
    assert "--resume" in result.output and "Leaderboard" not in result.output
    lines = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    assert [line["termination"] for line in lines] == ["startup_failure"] * 2
    assert "sandbox says no" in (out / "logs" / "dies.stderr.log").read_text()


def test_two_bots_with_one_name(runner: CliRunner, tmp_path: Path) -> None:
    toml = 'name = "twin"\ncommand = ["python3", "bot.py"]\n'
    _bot(tmp_path / "bots" / "a", toml)
    _bot(tmp_path / "bots" / "b", toml)
    out = tmp_path / "out"
    _fails(
        runner, ["run", "--bots", str(tmp_path / "bots"), "--out", str(out)], "Two bots are named"
    )
    _nothing_written(out)


def test_an_empty_bots_folder(runner: CliRunner, tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    out = tmp_path / "out"
    _fails(
        runner,
        ["run", "--bots", str(tmp_path / "empty"), "--out", str(out)],
        "has 0 bot(s) in its default field",
    )
    _nothing_written(out)


@pytest.mark.parametrize("command", ["play", "run"])
def test_an_output_folder_that_cannot_be_written(
    runner: CliRunner, tmp_path: Path, command: str
) -> None:
    (tmp_path / "a-file").write_text("not a folder")
    out = tmp_path / "a-file" / "results"
    greedy = str(Path(RANDOM).parent / "greedy")
    _fails(runner, [command, RANDOM, greedy, "--out", str(out)], "Not a directory")


@pytest.mark.parametrize("command", ["play", "check", "run", "leaderboard"])
def test_unknown_options(runner: CliRunner, command: str) -> None:
    result = runner.invoke(main, [command, "--frobnicate"])
    assert result.exit_code == 2
    assert "No such option: --frobnicate" in result.output or "--frobnicate" in result.output


def test_a_report_of_a_play_folder_says_where_its_games_pages_come_from(
    runner: CliRunner, tmp_path: Path
) -> None:
    """`arena report results/play-...` (a newcomer opening a lost game of `arena play`)
    said only that config.json was missing."""
    played = tmp_path / "play-20261201-190024"
    played.mkdir()
    (played / "g0001.json").write_text("{}")
    result = runner.invoke(main, ["report", str(played)])
    assert result.exit_code == 1 and "Traceback" not in result.output
    said = " ".join(result.output.split())
    assert "holds no tournament (config.json is missing): give the folder of an `arena run`" in said
    assert "`arena replay RECORD --html PAGE`" in said


def test_a_bots_folder_with_only_the_authors_bot_says_how_to_name_bundled_ones(
    runner: CliRunner, tmp_path: Path
) -> None:
    """A newcomer's own folder (pip install, `arena new python bots/mine`) holds one bot, so
    `arena run` has no tournament: it says which command has one, with bundled bots."""
    _bot(tmp_path / "bots" / "mine", 'name = "mine"\ncommand = ["python3", "bot.py"]\n')
    out = tmp_path / "out"
    said = " ".join(_fails(runner, ["run", "--out", str(out)], "has 1 bot(s)").split())
    assert "bundled ones too, e.g. `arena run mine random starter-c`" in said
    _nothing_written(out)


def test_a_run_into_a_folder_of_other_files_is_refused_and_writes_nothing(
    runner: CliRunner, tmp_path: Path
) -> None:
    """`arena run --out .` (or ~) wrote config.json, report.html, ratings.csv... among the
    folder's own files, over any of the same name."""
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "report.html").write_text("my own page")
    _fails(
        runner,
        ["run", RANDOM, RANDOM.replace("random", "greedy"), "--out", str(mine)],
        "already holds files (report.html) and no tournament; give --out a new or empty folder.",
    )
    assert [p.name for p in mine.iterdir()] == ["report.html"]
    assert (mine / "report.html").read_text() == "my own page"


HUMAN_SEAT = ["play", "human", RANDOM, "--no-open"]
"""`arena play` with a human seat, no browser opened (a game begun would wait for one)."""


@pytest.mark.parametrize(
    "command",
    [["play", RANDOM, "random"], ["check", RANDOM], HUMAN_SEAT],
    ids=["play", "check", "play-human"],
)
def test_play_or_check_into_a_folder_of_other_files_is_refused(
    runner: CliRunner, tmp_path: Path, command: list[str]
) -> None:
    """`arena play --out DIR` wrote g0001.json... over a folder's own files of that name
    (another match's records too); with a human seat it did still."""
    used = tmp_path / "used"
    used.mkdir()
    (used / "g0001.json").write_text("an earlier match's record")
    args = [*command, "--out", str(used)]
    _fails(runner, args, "already holds files (g0001.json); give --out a new or empty folder.")
    assert (used / "g0001.json").read_text() == "an earlier match's record"
    assert [p.name for p in used.iterdir()] == ["g0001.json"]
