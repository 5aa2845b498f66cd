"""The Python examples of README's "Use the games elsewhere" run as printed (issue 25)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from arena.game_sources import GAME_MODULES

pytest.importorskip("pyspiel", reason="open_spiel is not installed (the ecosystem extra)")
pytest.importorskip("pettingzoo", reason="pettingzoo is not installed (the ecosystem extra)")

README = Path(__file__).resolve().parents[1] / "README.md"


def _examples() -> list[str]:
    text = README.read_text(encoding="utf-8")
    start = text.index("## Use the games elsewhere")
    section = text[start : text.index("\n## ", start + 1)]
    return re.findall(r"```python\n(.*?)```", section, re.S)


def test_the_section_has_its_examples() -> None:
    assert len(_examples()) == 2


@pytest.mark.parametrize("index", [0, 1])
def test_a_readme_example_runs(index: int, tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != GAME_MODULES}  # a user's environment
    done = subprocess.run(
        [sys.executable, "-c", _examples()[index]],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip()
