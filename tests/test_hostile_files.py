"""Issue 20.4: every file the arena reads back is input, and may be hostile.

Records, games.jsonl lines and config.json files made by hand or by an attacker crashed or
flooded `arena replay`, `arena report`, `arena leaderboard` and `arena run --resume`. Each
reader now gives one sentence (which file, which line, what is wrong) and a non-zero exit,
in bounded memory. Fuzzed with Hypothesis: arbitrary bytes, arbitrary JSON, and mutations of
the files of a real tournament.
"""

from __future__ import annotations

import contextlib
import gzip
import json
import shutil
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tournament_support import make_bots

from arena.cli.main import main
from arena.errors import ArenaError
from arena.execution import InlineExecutor
from arena.players.manifest import discover_bots
from arena.record import load_record, replay
from arena.results.log import read_games
from arena.results.report import load_config, make_report
from arena.tournament import create_run, play

FUZZ = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)


@pytest.fixture(scope="module")
def real_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small finished tournament of fake bots: its files are what the fuzzers mutate."""
    root = tmp_path_factory.mktemp("real")
    bots = make_bots(
        root / "bots", {"alpha": ["--strategy", "first"], "beta": ["--strategy", "seeded"]}
    )
    run = root / "run"
    config = create_run(run, discover_bots(bots), rounds=2, seed=5, limits={})
    play(run, config, workers=0, executor=InlineExecutor())
    return run


def _copy(run: Path, to: Path) -> Path:
    if to.exists():
        shutil.rmtree(to)
    shutil.copytree(run, to, ignore=shutil.ignore_patterns("*.png", "replays"))
    return to


def _one_sentence(result: Any) -> None:
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


# --- records -----------------------------------------------------------------------------


def test_a_gzip_bomb_is_refused_in_bounded_memory(tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.json.gz"
    with gzip.open(bomb, "wb", compresslevel=9) as out:
        chunk = b" " * (1 << 20)
        for _ in range(1024):  # 1 GiB of spaces, about 1 MB packed
            out.write(chunk)
    tracemalloc.start()
    try:
        with pytest.raises(ArenaError, match="unpacks to more than 64 MiB"):
            load_record(bomb)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 200 << 20
    result = CliRunner().invoke(main, ["replay", str(bomb)])
    _one_sentence(result)


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"\x1f\x8b\x08\x00garbage", "damaged gzip"),
        (b"[" * 100_000, "nests too deeply"),
        (b'{"game": "mandala", "seed": NaN, "moves": []}', "NaN"),
        (b'{"game": "mandala", "seed": ' + b"9" * 5000 + b', "moves": []}', "4300 digits"),
        (
            b'{"game": "mandala", "seed": "7", "players": ["a", "b"], "moves": [{}]}',
            "its seed must be a whole number",
        ),
        (b'{"game": "mandala", "seed": 7, "players": ["a"], "moves": [{}]}', "its players"),
        (
            b'{"game": "mandala", "seed": 7, "players": ["a", "b"], "config": [1], "moves": [{}]}',
            "config must be",
        ),
    ],
)
def test_a_hostile_record_is_one_sentence(tmp_path: Path, data: bytes, words: str) -> None:
    path = tmp_path / "record.json"
    path.write_bytes(data)
    result = CliRunner().invoke(main, ["replay", str(path), "--at", "1"])
    _one_sentence(result)
    assert words in result.output


@FUZZ
@given(data=st.binary(max_size=300))
def test_any_bytes_as_a_record_are_a_clean_error(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "fuzz.json"
    path.write_bytes(data)
    with contextlib.suppress(ArenaError):
        replay(load_record(path))


@FUZZ
@given(key=st.sampled_from(["game", "seed", "players", "config", "moves"]), value=json_values)
def test_a_real_record_with_any_field_changed_is_replayed_or_refused(
    real_run: Path, tmp_path: Path, key: str, value: Any
) -> None:
    record = load_record(next((real_run / "records").iterdir()))
    record[key] = value
    path = tmp_path / "mutated.json"
    path.write_text(json.dumps(record))
    for args in (["replay", str(path)], ["replay", str(path), "--at", "1", "--json"]):
        result = CliRunner().invoke(main, args)
        assert result.exit_code in (0, 1), result.output
        assert result.exception is None or isinstance(result.exception, SystemExit), result.output


@FUZZ
@given(index=st.integers(min_value=0, max_value=30), value=json_values)
def test_a_real_record_with_a_move_changed_is_replayed_or_refused(
    real_run: Path, tmp_path: Path, index: int, value: Any
) -> None:
    record = load_record(next((real_run / "records").iterdir()))
    moves = record["moves"]
    moves[index % len(moves)] = {"seat": moves[index % len(moves)]["seat"], "move": value}
    path = tmp_path / "mutated.json"
    path.write_text(json.dumps(record))
    result = CliRunner().invoke(main, ["replay", str(path)])
    assert result.exit_code in (0, 1) and "Traceback" not in result.output


# --- games.jsonl -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"faulty_seat": 7}, "faulty_seat must be a whole number from 0 to 1"),
        ({"scores": [1e300, 0]}, "scores must be a finite number"),
        ({"seed": "x"}, "seed must be a whole number"),
        ({"players": ["a"] * 1000}, "players must be a list of 1 to 16 names"),
        ({"ranks": [0]}, "ranks must be a list of one value per seat"),
    ],
)
def test_a_hostile_games_line_is_one_sentence(
    real_run: Path, tmp_path: Path, change: dict[str, Any], words: str
) -> None:
    run = _copy(real_run, tmp_path / "run")
    log = run / "games.jsonl"
    lines = log.read_text().splitlines()
    lines[1] = json.dumps({**json.loads(lines[1]), **change})
    log.write_text("\n".join(lines) + "\n")
    for command in (["leaderboard", str(run)], ["report", str(run)]):
        result = CliRunner().invoke(main, command)
        _one_sentence(result)
        assert "games.jsonl, line 2" in result.output and words in result.output
    result = CliRunner().invoke(main, ["run", "--resume", "--out", str(run), "--workers", "0"])
    _one_sentence(result)


def test_a_huge_last_line_is_refused_without_reading_it(real_run: Path, tmp_path: Path) -> None:
    run = _copy(real_run, tmp_path / "run")
    with open(run / "games.jsonl", "ab") as log:
        log.truncate((run / "games.jsonl").stat().st_size + (8 << 30))  # 8 GiB, no newline
    result = CliRunner().invoke(main, ["run", "--resume", "--out", str(run), "--workers", "0"])
    _one_sentence(result)
    assert "longer than any game's line" in result.output


@FUZZ
@given(line=st.binary(max_size=200) | json_values.map(lambda v: json.dumps(v).encode()))
def test_any_games_line_is_read_or_refused(tmp_path: Path, line: bytes) -> None:
    path = tmp_path / "games.jsonl"
    path.write_bytes(line.replace(b"\n", b" ") + b"\n")
    with contextlib.suppress(ArenaError):
        list(read_games(path))


@FUZZ
@given(key=st.sampled_from(["seq", "scores", "ranks", "winner", "faulty_seat", "players",
                            "termination", "decisions", "think_hist", "turns"]),
       value=json_values)  # fmt: skip
def test_a_real_log_with_any_field_changed_reports_or_refuses(
    real_run: Path, tmp_path: Path, key: str, value: Any
) -> None:
    run = _copy(real_run, tmp_path / "run")
    log = run / "games.jsonl"
    lines = log.read_text().splitlines()
    lines[0] = json.dumps({**json.loads(lines[0]), key: value})
    log.write_text("\n".join(lines) + "\n")
    with contextlib.suppress(ArenaError):
        make_report(run, charts=False)


# --- config.json -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"total_games": 10**18}, "total_games must be a whole number"),
        ({"seats": 1000000}, "seats must be a whole number from 1 to 16"),
        ({"seed": "nine"}, "seed must be a whole number"),
        ({"bots": "all"}, "bots must be a list"),
        ({"limits": [1]}, "limits must be an object"),
    ],
)
def test_a_hostile_config_is_one_sentence(
    real_run: Path, tmp_path: Path, change: dict[str, Any], words: str
) -> None:
    run = _copy(real_run, tmp_path / "run")
    config = json.loads((run / "config.json").read_text())
    (run / "config.json").write_text(json.dumps({**config, **change}))
    for command in (["leaderboard", str(run)], ["report", str(run)],
                    ["run", "--resume", "--out", str(run), "--workers", "0"]):  # fmt: skip
        result = CliRunner().invoke(main, command)
        _one_sentence(result)
        assert "config.json is damaged" in result.output and words in result.output


def test_a_run_without_its_config_has_no_leaderboard(real_run: Path, tmp_path: Path) -> None:
    run = _copy(real_run, tmp_path / "run")
    (run / "config.json").unlink()
    result = CliRunner().invoke(main, ["leaderboard", str(run)])
    _one_sentence(result)
    assert "config.json is missing" in result.output


@FUZZ
@given(data=st.binary(max_size=200) | json_values.map(lambda v: json.dumps(v).encode()))
def test_any_config_is_read_or_refused(tmp_path: Path, data: bytes) -> None:
    (tmp_path / "config.json").write_bytes(data)
    with contextlib.suppress(ArenaError):
        load_config(tmp_path)
