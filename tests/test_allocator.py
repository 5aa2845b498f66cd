"""Issue 45: a league's server hands large freed blocks back to the system (arena/allocator.py).

In a process of its own: an 8 MiB block made and freed (glibc then raises its mmap threshold
to 8 MiB), then 40 blocks of 2 MiB made, written, and every other one freed. Without the
setting the freed 40 MiB stay resident (holes in the heap); with it each block was mmapped
and its memory went back when freed. Both are run, so the test shows the difference it
relies on."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

from arena.allocator import OPERATOR_SETTING, return_large_blocks

_HOLES = textwrap.dedent(
    """
    import json, sys
    from arena.allocator import return_large_blocks
    from arena.bench.league_probe import rss_mib

    set_here = return_large_blocks() if sys.argv[1] == "set" else False
    big = b"x" * (8 << 20)
    del big
    before = rss_mib()[0]
    blocks = [bytes([n % 256]) * (2 << 20) for n in range(40)]
    del blocks[::2]
    print(json.dumps({"set": set_here, "held_mib": rss_mib()[0] - before}))
    """
)


def _held(mode: str) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if k != OPERATOR_SETTING}
    done = subprocess.run([sys.executable, "-c", _HOLES, mode], capture_output=True, text=True,
                          timeout=60, check=True, env=env)  # fmt: skip
    found: dict[str, object] = json.loads(done.stdout)
    return found


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc on Linux")
def test_freed_large_blocks_go_back_to_the_system() -> None:
    unset, set_ = _held("unset"), _held("set")
    assert set_["set"] is True
    assert float(str(unset["held_mib"])) > 70, unset  # 80 MiB made, half freed, all held
    assert float(str(set_["held_mib"])) < 50, set_  # the 40 MiB still in use, the rest back


def test_an_operators_own_setting_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(OPERATOR_SETTING, "4194304")
    assert return_large_blocks() is False
