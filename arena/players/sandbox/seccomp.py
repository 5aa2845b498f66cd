"""A seccomp program for bubblewrap: no unix-domain sockets, so no host socket file is reachable.

A bot has no network (its own network namespace), but a unix socket file on the host (a
database's, the container runtime's) could be reached through the read-only view of the
filesystem. Creating a socket of the AF_UNIX family is refused with EACCES, wherever the
socket file lies; `socketpair` (a connected pair with no file, which runtimes use between
their own threads and children) stays allowed. io_uring is refused too, since it can create
sockets without the `socket` system call. Syscalls of another architecture (e.g. 32-bit
code on a 64-bit kernel) are refused, so they cannot go around the filter.

The program is classic BPF over `struct seccomp_data` (nr at offset 0, arch at 4, args at
16), as bubblewrap's `--seccomp FD` reads it.
"""

from __future__ import annotations

import errno
import os
import platform
import struct

AF_UNIX = 1

_ARCHES = {
    # machine: (AUDIT_ARCH_*, socket syscall number, io_uring_setup syscall number)
    "x86_64": (0xC000003E, 41, 425),
    "aarch64": (0xC00000B7, 198, 425),
}

_LD_W_ABS = 0x20  # BPF_LD | BPF_W | BPF_ABS
_JEQ_K = 0x15  # BPF_JMP | BPF_JEQ | BPF_K
_JGE_K = 0x35  # BPF_JMP | BPF_JGE | BPF_K
_RET_K = 0x06  # BPF_RET | BPF_K
_ALLOW = 0x7FFF0000  # SECCOMP_RET_ALLOW
_ERRNO = 0x00050000  # SECCOMP_RET_ERRNO | errno
_X32_BIT = 0x40000000


def _op(code: int, k: int, jt: int = 0, jf: int = 0) -> bytes:
    return struct.pack("=HBBI", code, jt, jf, k)


def program(machine: str | None = None) -> bytes | None:
    """The filter for this machine's architecture, or None where we have no syscall table."""
    arch = _ARCHES.get(machine or platform.machine())
    if arch is None:
        return None
    audit_arch, socket_nr, io_uring_nr = arch
    deny = _ERRNO | errno.EACCES
    steps = [
        _op(_LD_W_ABS, 4),  # 0: arch
        _op(_JEQ_K, audit_arch, jt=1, jf=0),  # 1: native? skip to 3
        _op(_RET_K, _ERRNO | errno.ENOSYS),  # 2: another architecture's syscall
        _op(_LD_W_ABS, 0),  # 3: syscall number
        _op(_JGE_K, _X32_BIT, jt=6, jf=0),  # 4: x32 numbers -> deny (11)
        _op(_JEQ_K, io_uring_nr, jt=5, jf=0),  # 5: io_uring_setup -> deny (11)
        _op(_JEQ_K, socket_nr, jt=1, jf=0),  # 6: socket? -> 8
        _op(_RET_K, _ALLOW),  # 7: anything else
        _op(_LD_W_ABS, 16),  # 8: socket's domain (low 32 bits of args[0])
        _op(_JEQ_K, AF_UNIX, jt=1, jf=0),  # 9: AF_UNIX -> deny (11)
        _op(_RET_K, _ALLOW),  # 10: other families (there is no network to reach anyway)
        _op(_RET_K, deny),  # 11
    ]
    return b"".join(steps)


def program_fd(code: bytes) -> int:
    """A file descriptor holding `code`, read from the start, for `bwrap --seccomp FD`."""
    fd = os.memfd_create("arena-seccomp", 0)  # not close-on-exec: the child reads it
    os.write(fd, code)
    os.lseek(fd, 0, os.SEEK_SET)
    return fd
