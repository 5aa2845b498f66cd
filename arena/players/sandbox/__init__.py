"""The sandbox around a bot process: what this machine allows, and the launch that uses it.

Three layers, each used where the machine has it (probed once per process, see `probe`):

1. Resource limits (always): RLIMIT_DATA, RLIMIT_CPU, RLIMIT_FSIZE, RLIMIT_NOFILE, set by a
   tiny `/bin/sh` wrapper with `ulimit` before it execs the bot, so there is no window in
   which the bot runs unlimited (and no `preexec_fn`, which is unsafe with threads).
2. A cgroup per bot process (when the cgroup folders are writable): the wrapper joins it
   before the exec, so every descendant is inside. Teardown kills the whole cgroup
   (`cgroup.kill` on v2, a kill loop on v1), which reaches grandchildren that called
   setsid() and escaped the process group. A `pids` controller (v1 or v2) bounds forks.
3. Isolation: bubblewrap (no network, read-only view of the filesystem, a private /tmp,
   the other bots' folders hidden, no capabilities, its own PID namespace), else
   `unshare -n` (no network only), else nothing, each fallback with one warning.

Known difference under bubblewrap: its own processes hold a copy of the bot's stdout, so a
bot that closes stdout but keeps running is seen as a timeout, not a crash (it loses either way).
"""

from arena.players.sandbox.bubblewrap import bwrap_argv
from arena.players.sandbox.cgroups import BotCgroup
from arena.players.sandbox.facilities import Facilities, isolation_mode, probe, sandbox_report
from arena.players.sandbox.launch import Launch, check_command, prepare, program_problem

__all__ = [
    "BotCgroup",
    "Facilities",
    "Launch",
    "bwrap_argv",
    "check_command",
    "isolation_mode",
    "prepare",
    "probe",
    "program_problem",
    "sandbox_report",
]
