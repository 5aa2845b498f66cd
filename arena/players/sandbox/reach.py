"""Whether bots can start in a folder's subfolders (a league's `bots/`), checked once, at start.

Issue 31, item 8: a league under a folder only its owner may enter (0700) failed every bot
with "Permission denied", and nothing said why. Under bubblewrap the allow-list view makes
the folders above a bot's own (bubblewrap.py), so that case now plays; this check starts
one sandboxed `true`, as a bot is started, in a fresh folder there, and where it cannot
run, says why in one sentence before any bot is submitted.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import uuid
from pathlib import Path

from arena.errors import ArenaError
from arena.players.limits import SandboxLimits
from arena.players.sandbox.bubblewrap import SANDBOX_UID
from arena.players.sandbox.launch import prepare

PROBE_TIMEOUT_S = 30.0


class BotsUnreachableError(ArenaError):
    """Bots cannot start in the folder they would be put in; one sentence with the fix."""


def check_reachable(folder: Path, limits: SandboxLimits, fix: str) -> None:
    """BotsUnreachableError when a bot, started as the sandbox starts bots, cannot run in a
    new folder of `folder` (opened to others, as unpacked bots are); `fix` ends the sentence
    (e.g. "give another --league")."""
    probe = folder / f".reach-{uuid.uuid4().hex[:8]}"
    try:
        probe.mkdir(mode=0o755)
    except OSError as refused:
        raise BotsUnreachableError(
            f"bots cannot be put in {folder} ({refused.strerror or refused}); {fix}."
        ) from None
    try:
        probe.chmod(0o755)  # whatever the umask
        true = shutil.which("true") or "/bin/true"
        launch = prepare("reach", [true], probe, limits)
        try:
            done = subprocess.run(
                launch.argv,
                cwd=probe,
                env={"PATH": os.environ.get("PATH", os.defpath)},
                pass_fds=launch.pass_fds,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                timeout=PROBE_TIMEOUT_S,
                check=False,
            )
            error = done.stderr.decode("utf-8", "replace").strip()
            ok = done.returncode == 0
        except (OSError, subprocess.SubprocessError) as failure:
            ok, error = False, str(failure)
        finally:
            for fd in launch.pass_fds:
                with contextlib.suppress(OSError):
                    os.close(fd)
            for step in launch.teardown:
                step()
        uid = SANDBOX_UID if launch.user == f"uid {SANDBOX_UID}" else os.geteuid()
    finally:
        shutil.rmtree(probe, ignore_errors=True)
    if ok:
        return
    closed = closed_parent(folder, uid) if "Permission denied" in error else None
    if closed is not None:
        who = "nobody" if uid == SANDBOX_UID else f"uid {uid}"
        mode = closed.stat().st_mode & 0o777
        raise BotsUnreachableError(
            f"bots run as {who} cannot reach {folder} (its parent {closed} is mode {mode:04o}); "
            f"chmod o+x the folders above it or {fix}."
        )
    last = error.splitlines()[-1] if error else "no reason given"
    raise BotsUnreachableError(f"bots cannot start in {folder} ({last}); {fix}.")


def closed_parent(folder: Path, uid: int) -> Path | None:
    """The first folder from / down to `folder` that user `uid` (not root, not its owner,
    in none of its groups) may not pass through, or None."""
    if uid == 0:
        return None
    folder = folder.resolve()
    for path in [*reversed(folder.parents), folder]:
        info = path.stat()
        if info.st_uid != uid and not info.st_mode & 0o001:
            return path
    return None
