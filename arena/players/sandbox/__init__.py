"""The sandbox around a bot process: what this machine allows, and the launch that uses it.

Three layers, each used where the machine has it (probed once per process, see `probe`):

1. Resource limits (always): RLIMIT_DATA, RLIMIT_CPU, RLIMIT_FSIZE, RLIMIT_NOFILE, set by a
   tiny `/bin/sh` wrapper with `ulimit` before it execs the bot, so there is no window in
   which the bot runs unlimited (and no `preexec_fn`, which is unsafe with threads).
2. Cgroups per bot process (when the cgroup folders are writable): the wrapper joins them
   before the exec, so every descendant is inside. Teardown kills the whole group
   (`cgroup.kill` on v2, a kill loop on v1), which reaches grandchildren that called
   setsid() and escaped the process group. A `pids` controller bounds forks and a `memory`
   controller the memory of the whole process tree (cgroups.py).
3. Isolation: bubblewrap (bubblewrap.py: no network, a seccomp filter against unix sockets
   (seccomp.py), an allow-list view of the filesystem that shows only the system's
   read-only folders, the interpreter, the arena package and the bot's own folder, a
   private /tmp and /dev/shm, no capabilities, an unprivileged user, its own PID
   namespace), else `unshare -n` (no network only), else nothing, each fallback with one
   warning (facilities.py finds what the machine allows).

Under bubblewrap its own processes hold a copy of the bot's stdout, so a bot that closes
stdout gives no end of file; on a timeout the bot's cgroup is asked whether any process of
the bot still holds it (process.py), and if none does, the bot crashed.
"""

from arena.players.sandbox.bubblewrap import bwrap_argv
from arena.players.sandbox.cgroups import BotCgroup
from arena.players.sandbox.facilities import isolation_mode, probe, sandbox_report
from arena.players.sandbox.launch import Launch, prepare, program_problem
from arena.players.sandbox.machine import Facilities

__all__ = [
    "BotCgroup",
    "Facilities",
    "Launch",
    "bwrap_argv",
    "isolation_mode",
    "prepare",
    "probe",
    "program_problem",
    "sandbox_report",
]
