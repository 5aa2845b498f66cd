"""Issue 47: the arena installed from its wheel, outside the checkout, works in an empty folder.

The wheel is built offline from a copy of the checkout's sources (`pip wheel
--no-build-isolation --no-index` with the setuptools of .venv: no download, and no build/
folder left in the checkout) and installed with `--no-deps` into a fresh virtual environment
in a temporary folder. Its dependencies are .venv's: a `.pth` file puts .venv's
site-packages after the new environment's own, so `arena` itself is the wheel's (the editable
install's finder in .venv is a `.pth` of .venv's, which a plain path line never runs). The
commands run in an empty folder with a cache folder of their own, from the new environment's
`arena` script: `arena run --rounds 2` (the bundled field, starter-c built in the cache's
working copy), `arena new c mine` then `arena check mine` (built in ./mine), and `arena play
human random --no-open` up to its page.
"""

from __future__ import annotations

import os
import queue
import re
import shutil
import subprocess
import sys
import sysconfig
import threading
import urllib.request
import zipfile
from pathlib import Path

import pytest

from arena.players.bot_files import source_files

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("pyproject.toml", "setup.py", "README.md", "arena", "bots")
"""What a wheel is built from (setup.py and pyproject.toml name nothing else)."""
LEFT_BEHIND = shutil.ignore_patterns("__pycache__", "*.egg-info", ".*")
NEEDS_CC = pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler (starter-c)")
NEEDS_NODE = pytest.mark.skipif(shutil.which("node") is None, reason="no node (starter-js)")


def _run(*argv: str | Path, cwd: Path | None = None, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        [str(part) for part in argv],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, f"{argv}: {done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment holding the arena's wheel and nothing else of its own."""
    base = tmp_path_factory.mktemp("wheel")
    source = base / "source"
    source.mkdir()
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=LEFT_BEHIND)
        else:
            shutil.copy2(ROOT / name, source / name)
    python = sys.executable
    pip = [python, "-m", "pip", "--disable-pip-version-check", "--no-input", "-q"]
    _run(*pip, "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-w", base, source)
    (wheel,) = base.glob("mandala_arena-*.whl")
    _run(python, "-m", "venv", "--without-pip", base / "venv")
    new_python = base / "venv" / "bin" / "python"
    site = Path(
        _run(new_python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])").strip()
    )
    (site / "dependencies-from-dot-venv.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    _run(*pip, "--python", new_python, "install", "--no-deps", "--no-index", "--no-compile", wheel)
    return base / "venv"


def _wheel(venv: Path) -> Path:
    (wheel,) = venv.parent.glob("mandala_arena-*.whl")
    return wheel


@pytest.fixture
def folder(venv: Path, tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """An empty folder, and the environment of a user of `venv` (its bin first on PATH, a
    cache folder of its own, nothing of the checkout's or the tests')."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "ARENA_"))}
    env.pop("VIRTUAL_ENV", None)
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    env["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    (tmp_path / "empty").mkdir()
    return tmp_path / "empty", env


def _installed_files(venv: Path) -> set[Path]:
    return {path for path in venv.rglob("*") if "__pycache__" not in path.parts}


def test_the_wheel_carries_the_bundled_bots_and_imports_from_the_environment(
    venv: Path, folder: tuple[Path, dict[str, str]]
) -> None:
    here, env = folder
    code = (
        "import arena, importlib.resources as r; print(arena.__file__); "
        "print(r.files('arena.bundled_bots'))"
    )
    package, bundled = _run(venv / "bin" / "python", "-c", code, cwd=here, env=env).split()
    assert Path(package).is_relative_to(venv) and Path(bundled).is_relative_to(venv)
    assert (Path(bundled) / "starter-c" / "bot.c").is_file()
    with zipfile.ZipFile(_wheel(venv)) as wheel:
        names = wheel.namelist()
    shipped = {
        name.removeprefix("arena/bundled_bots/") for name in names if "bundled_bots/" in name
    }
    assert shipped == set(source_files(ROOT / "bots"))  # no build output of the checkout's
    assert {"README.md", "protocol.schema.json", "random/bot.toml"} <= shipped
    assert {"arena/html/assets/seat.js", "arena/html/assets/report.css"} <= set(names)


@NEEDS_CC
@NEEDS_NODE
def test_a_tournament_in_an_empty_folder(venv: Path, folder: tuple[Path, dict[str, str]]) -> None:
    here, env = folder
    before = _installed_files(venv)
    said = _run(venv / "bin" / "arena", "run", "--rounds", "2", cwd=here, env=env)
    assert "starter-c" in said and "random" in said, said
    (run,) = (here / "results").glob("run-*")
    assert (run / "report.html").is_file() and (run / "games.jsonl").stat().st_size > 0
    built = list(Path(env["XDG_CACHE_HOME"]).glob("mandala-arena/bots-*/starter-c/bot"))
    assert len(built) == 1  # built in the user's cache folder ...
    new = {path for path in _installed_files(venv) - before if path.suffix != ".pyc"}
    assert not new, new  # ... and nothing written into the installed package
    assert sorted(p.name for p in here.iterdir()) == ["results"]


@NEEDS_CC
def test_a_new_bot_from_a_starter_passes_its_check(
    venv: Path, folder: tuple[Path, dict[str, str]]
) -> None:
    here, env = folder
    listed = _run(venv / "bin" / "arena", "new", cwd=here, env=env)
    assert re.search(r"^  c  ", listed, re.MULTILINE) and "js" in listed, listed
    _run(venv / "bin" / "arena", "new", "c", "mine", cwd=here, env=env)
    assert 'name = "mine"' in (here / "mine" / "bot.toml").read_text()
    said = _run(venv / "bin" / "arena", "check", "mine", cwd=here, env=env)
    assert "mine" in said
    assert (here / "mine" / "bot").is_file()  # built in the author's folder


def test_a_human_seat_serves_its_page(venv: Path, folder: tuple[Path, dict[str, str]]) -> None:
    here, env = folder
    argv = [venv / "bin" / "arena", "play", "human", "random", "--no-open"]
    with subprocess.Popen(argv, cwd=here, env=env, stdout=subprocess.PIPE, text=True) as process:
        lines: queue.Queue[str] = queue.Queue()
        assert process.stdout is not None
        threading.Thread(
            target=lambda: [lines.put(line) for line in process.stdout or ()], daemon=True
        ).start()
        try:
            first = lines.get(timeout=60)
            address = re.search(r"http://127\.0\.0\.1:\d+/", first)
            assert address, first
            with urllib.request.urlopen(address.group(0), timeout=60) as page:
                assert page.status == 200 and "<script" in page.read().decode()
        finally:
            process.terminate()
            process.wait(30)
