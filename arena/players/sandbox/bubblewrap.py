"""The bubblewrap command line around a bot: no network, a read-only view, its own folder writable."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from arena.players.limits import SandboxLimits


def bwrap_argv(program: str, argv: list[str], folder: Path, limits: SandboxLimits) -> list[str]:
    """`argv` inside bubblewrap: no network, read-only /, its own folder writable, others hidden."""
    folder = folder.resolve()
    hidden = [Path("/tmp")]
    parent = folder.parent
    for path in [parent, *(Path(p).resolve() for p in limits.hidden)]:
        if path == Path("/") or path == folder or _under(path, folder):
            continue  # never hide / itself, nor the bot's folder or anything inside it
        if not any(path == h or _under(path, h) for h in hidden):
            hidden.append(path)
    out = [
        program,
        "--die-with-parent",
        "--new-session",
        "--unshare-net",
        "--unshare-ipc",
        "--unshare-uts",
        "--unshare-pid",
        "--cap-drop",
        "ALL",
        "--ro-bind",
        "/",
        "/",
        "--dev",
        "/dev",
        "--proc",
        "/proc",
        "--size",
        str(limits.tmp_mb << 20),
        "--tmpfs",
        "/tmp",
    ]
    for path in hidden[1:]:
        out += ["--tmpfs", str(path)]
    # What the bot must still see if a hidden folder holds it: the interpreter and the program.
    keep = {Path(sys.prefix), Path(sys.base_prefix)}
    if argv and os.path.isabs(argv[0]):
        keep.add(Path(os.path.realpath(argv[0])).parent)
    for path in sorted(keep):
        if path.exists() and any(path == h or _under(path, h) for h in hidden):
            out += ["--ro-bind", str(path), str(path)]
    out += ["--bind", str(folder), str(folder), "--chdir", str(folder), "--", *argv]
    return out


def _under(path: Path, ancestor: Path) -> bool:
    return path != ancestor and path.is_relative_to(ancestor)
