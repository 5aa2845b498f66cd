"""An archive's members read one at a time, every byte and header counted against the caps:
the `.zip` and `.tar.gz` readers `arena.league.uploads.unpack` writes from, each member a
`Member` whose bytes are streamed, never trusted by its declared size.

Only regular files and folders are accepted: a symbolic or hard link, a device, a FIFO is
refused by name, as is an encrypted member. The work of reading is capped too, not only the
bytes written (issue 31). A .tar.gz is inflated here by zlib, and every byte out of it counts
against `MAX_UNPACKED_BYTES`, headers and padding included; a GNU long-name or pax header
(which tarfile reads whole) over `MAX_HEADER_BYTES`, more than `MAX_HEADERS_IN_ROW` of them
before one member, or more than `MAX_HEADERS_BYTES` in all are refused before tarfile reads
them, as are a pax header with a run of over 255 digits (Python 3.11.7 searches it in
quadratic time) and sparse files. A .zip's end record is read first: more entries than
`MAX_MEMBERS`, or a central directory over `MAX_DIRECTORY_BYTES`, is refused before zipfile
reads the directory (it keeps every entry in memory); its members may be stored or deflated
only (bzip2 and LZMA inflate without a cap on each read). A damaged archive is one sentence,
an `UploadError`.
"""

from __future__ import annotations

import os
import re
import stat
import struct
import tarfile
import zipfile
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any, Protocol, cast

from arena.errors import ArenaError

MAX_UNPACKED_BYTES = 128 << 20
"""The most an archive may unpack to, counted as it is written (a .tar.gz's headers too)."""
MAX_MEMBERS = 2000
MAX_HEADER_BYTES = 64 << 10
"""The largest GNU long-name or pax header of a .tar.gz (tarfile reads one whole)."""
MAX_HEADERS_IN_ROW = 8
"""Long-name and pax headers before one member (tarfile reads each by recursion)."""
MAX_HEADERS_BYTES = 4 << 20
"""Long-name and pax headers of a whole .tar.gz, in all."""
MAX_DIRECTORY_BYTES = 4 << 20
"""The largest central directory of a .zip (zipfile reads it whole, an object an entry)."""
CHUNK = 1 << 16


class UploadError(ArenaError):
    """An archive that cannot be accepted; the text says which member and why."""


class Readable(Protocol):
    """What a member's bytes are read through."""

    def read(self, size: int, /) -> bytes: ...


Member = tuple[str, bool, bool, Readable | None]
"""(path in the archive, is a folder, is executable, its bytes for a file)."""

_UNREADABLE = (
    tarfile.TarError,
    zipfile.BadZipFile,
    zipfile.LargeZipFile,
    NotImplementedError,
    EOFError,
    OSError,
    zlib.error,
    ValueError,  # a number or a name in a header that cannot be read
    RecursionError,
)
"""What reading a damaged archive raises (in the headers, or in a member's bytes)."""


def _zip_members(archive: Path) -> Iterator[Member]:
    try:
        with archive.open("rb") as file:
            _check_zip_directory(file)
        with zipfile.ZipFile(archive) as bundle:
            infos = bundle.infolist()
            _count(len(infos))
            for info in infos:
                mode = info.external_attr >> 16
                kind = stat.S_IFMT(mode)
                if kind and kind not in (stat.S_IFREG, stat.S_IFDIR):
                    raise UploadError(f"{_shown(info.filename)} is {_kind(kind)}; {_ONLY}")
                if info.flag_bits & 0x1:
                    raise UploadError(f"{_shown(info.filename)} is encrypted; {_ONLY}")
                if info.is_dir():
                    yield info.filename, True, False, None
                    continue
                if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
                    raise UploadError(
                        f"{_shown(info.filename)} is compressed with "
                        f"{_METHODS.get(info.compress_type, 'an unknown method')}; a bot "
                        "archive's .zip may only deflate its files (or store them)."
                    )
                with bundle.open(info) as data:
                    yield info.filename, False, bool(mode & 0o111), _Guarded(data, ".zip")
    except _UNREADABLE as error:
        raise UploadError(f"The .zip archive cannot be read ({_reason(error)}).") from None


_METHODS = {zipfile.ZIP_BZIP2: "bzip2", zipfile.ZIP_LZMA: "LZMA"}

_END = struct.Struct("<4s4H2LH")
"""A .zip's end of central directory record (as zipfile reads it)."""
_END64_LOCATOR = struct.Struct("<4sLQL")
_END64 = struct.Struct("<4sQ2H2L4Q")
_ENTRY = struct.Struct("<4s4B4HL2L5H2L")
"""An entry's fixed part in the central directory: its name, extra and comment follow."""


def _check_zip_directory(file: IO[bytes]) -> None:
    """UploadError when a .zip's end record announces more than MAX_MEMBERS entries or a
    central directory over MAX_DIRECTORY_BYTES, or its directory lists more entries (found
    as zipfile finds them, but only their fixed parts read). What cannot be found is left
    for zipfile to refuse."""
    size = file.seek(0, os.SEEK_END)
    tail_start = max(0, size - (1 << 16) - _END.size)  # the end record and its comment
    file.seek(tail_start)
    tail = file.read()
    if (
        len(tail) >= _END.size
        and tail[-_END.size :].startswith(b"PK\x05\x06")
        and (tail[-2:] == b"\0\0")
    ):
        at = len(tail) - _END.size  # no comment: zipfile looks here first
    else:
        at = tail.rfind(b"PK\x05\x06")
        if at < 0 or len(tail) - at < _END.size:
            return
    end = _END.unpack_from(tail, at)
    entries, directory, location = end[4], end[5], tail_start + at
    if location >= _END64_LOCATOR.size + _END64.size:
        file.seek(location - _END64_LOCATOR.size - _END64.size)
        records = file.read(_END64.size + _END64_LOCATOR.size)
        locator = _END64_LOCATOR.unpack_from(records, _END64.size)
        end64 = _END64.unpack_from(records)
        if locator[0] == b"PK\x06\x07" and end64[0] == b"PK\x06\x06":
            entries, directory = end64[7], end64[8]
            location -= _END64_LOCATOR.size + _END64.size
    _count(entries)
    if directory > MAX_DIRECTORY_BYTES:
        raise UploadError(
            f"The .zip archive's directory is {directory / (1 << 20):.1f} MiB; a bot archive's "
            f"is at most {MAX_DIRECTORY_BYTES >> 20} MiB (fewer files, shorter names)."
        )
    if location < directory:
        return
    file.seek(location - directory)
    listing = file.read(directory)
    seen = offset = 0
    while offset < directory and offset + _ENTRY.size <= len(listing):
        entry = _ENTRY.unpack_from(listing, offset)
        if entry[0] != b"PK\x01\x02":
            return
        seen += 1
        _count(seen)
        offset += _ENTRY.size + entry[12] + entry[13] + entry[14]


def _tar_members(archive: Path) -> Iterator[Member]:
    seen = 0
    try:
        with archive.open("rb") as file:
            inflated = _Inflated(file)
            stream = cast(IO[bytes], inflated)  # tarfile's stream mode only reads
            with _TarFile.open(fileobj=stream, mode="r|") as bundle:  # one member at a time
                for info in bundle:
                    seen += 1
                    _count(seen)
                    if info.isdir():
                        yield info.name, True, False, None
                    elif info.isreg():
                        data = bundle.extractfile(info)
                        assert data is not None
                        yield info.name, False, bool(info.mode & 0o111), _Guarded(data, ".tar.gz")
                    else:
                        raise UploadError(f"{_shown(info.name)} is {_tar_kind(info)}; {_ONLY}")
    except _UNREADABLE as error:
        raise UploadError(f"The .tar.gz archive cannot be read ({_reason(error)}).") from None


class _Inflated:
    """The bytes of a gzip file (its members one after another), inflated by zlib, every
    byte out counted against MAX_UNPACKED_BYTES (a tar's headers and padding too, not only
    its members' bytes). zlib reads the gzip headers in C: GzipFile's Python loop took
    8.7 s over a 30 MiB file name in one."""

    def __init__(self, raw: Readable) -> None:
        self.raw, self.count = raw, 0
        self.inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
        self.started = False  # the current member has been given bytes
        self.waiting = b""  # compressed bytes not yet given to the inflater

    def read(self, size: int = -1) -> bytes:
        wanted = size if 0 <= size <= CHUNK else CHUNK
        data = b""
        while not data and wanted:
            if not self.waiting:
                self.waiting = self.raw.read(CHUNK)
                if not self.waiting:
                    if self.started and not self.inflater.eof:
                        raise EOFError("the gzip stream ends too soon")
                    return b""
            if self.inflater.eof:  # another member may follow (after zeros of padding)
                self.waiting = self.waiting.lstrip(b"\0")
                if not self.waiting:
                    continue
                self.inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
            self.started = True
            data = self.inflater.decompress(self.waiting, wanted)
            ended = self.inflater.eof
            self.waiting = self.inflater.unused_data if ended else self.inflater.unconsumed_tail
        self.count += len(data)
        if self.count > MAX_UNPACKED_BYTES:
            raise UploadError(
                f"The archive unpacks to more than {MAX_UNPACKED_BYTES >> 20} MiB "
                "(counting its headers)."
            )
        return data


class _TarInfo(tarfile.TarInfo):
    """tarfile's header reading, with each header that tarfile would read whole (a GNU long
    name or link, a pax header) checked first, and sparse files refused."""

    def _proc_gnulong(self, tarfile: tarfile.TarFile) -> tarfile.TarInfo:
        _extended_header(self, tarfile, "long-name")
        return super()._proc_gnulong(tarfile)  # type: ignore[misc, no-any-return]

    def _proc_pax(self, tarfile: tarfile.TarFile) -> tarfile.TarInfo:
        _extended_header(self, tarfile, "pax")
        stream = tarfile.fileobj
        data = stream.read(self._block(self.size))  # type: ignore[attr-defined]
        _check_pax(data)
        tarfile.fileobj = _Replay(data, stream)  # type: ignore[assignment]
        try:  # tarfile reads the same bytes again, from memory
            return super()._proc_pax(tarfile)  # type: ignore[misc, no-any-return]
        finally:
            tarfile.fileobj = stream

    def _proc_sparse(self, tarfile: tarfile.TarFile) -> tarfile.TarInfo:
        raise UploadError(f"{_shown(self.name)} is a sparse file; {_ONLY}")

    def _proc_gnusparse_00(self, *args: Any) -> None:
        raise UploadError(f"The archive holds a sparse file; {_ONLY}")

    _proc_gnusparse_01 = _proc_gnusparse_10 = _proc_gnusparse_00


class _TarFile(tarfile.TarFile):
    """A tar stream read with `_TarInfo`, counting its long-name and pax headers."""

    tarinfo = _TarInfo
    headers_in_row = 0
    headers_bytes = 0

    def next(self) -> tarfile.TarInfo | None:
        self.headers_in_row = 0
        return super().next()


def _extended_header(info: tarfile.TarInfo, bundle: tarfile.TarFile, kind: str) -> None:
    """UploadError when the header `info` (a long name or a pax header, whose data tarfile
    reads whole) is too large, too many in a row, or too much in all."""
    if info.size > MAX_HEADER_BYTES:
        raise UploadError(
            f"The archive holds a {kind} header of {info.size:,} bytes; a bot archive's are "
            f"at most {MAX_HEADER_BYTES >> 10} KiB."
        )
    if isinstance(bundle, _TarFile):
        bundle.headers_in_row += 1
        bundle.headers_bytes += info.size
        if bundle.headers_in_row > MAX_HEADERS_IN_ROW:
            raise UploadError(
                f"The archive holds more than {MAX_HEADERS_IN_ROW} long-name or pax headers "
                "before one member."
            )
        if bundle.headers_bytes > MAX_HEADERS_BYTES:
            raise UploadError(
                f"The archive's long-name and pax headers hold more than "
                f"{MAX_HEADERS_BYTES >> 20} MiB in all."
            )


_LONG_NUMBER = re.compile(rb"[0-9]{256}")


def _check_pax(data: bytes) -> None:
    """UploadError for a pax header holding a run of over 255 digits: tarfile's search of it
    for `hdrcharset` (Python 3.11 before 3.11.10) takes time growing as its square."""
    if _LONG_NUMBER.search(data):
        raise UploadError("The archive holds a pax header with a number of over 255 digits.")


class _Replay:
    """`data` (already read from `stream`) read again, then the rest of `stream`."""

    def __init__(self, data: bytes, stream: Any) -> None:
        self.data, self.stream = data, stream

    def read(self, size: int) -> bytes:
        head, self.data = self.data[:size], self.data[size:]
        return head + self.stream.read(size - len(head)) if len(head) < size else head

    def tell(self) -> int:
        return int(self.stream.tell()) - len(self.data)


class _Guarded:
    """A member's bytes, whose reading errors (a damaged or cut archive) are UploadError."""

    def __init__(self, data: Readable, kind: str) -> None:
        self.data, self.kind = data, kind

    def read(self, size: int) -> bytes:
        try:
            return self.data.read(size)
        except _UNREADABLE as error:
            raise UploadError(
                f"The {self.kind} archive cannot be read ({_reason(error)})."
            ) from None


def _reason(error: BaseException) -> str:
    if isinstance(error, RecursionError):
        return "its headers nest too deeply"
    text = str(error).strip().rstrip(".") or type(error).__name__
    return text if len(text) <= 200 else text[:197] + "..."


_ONLY = "a bot archive may hold only regular files and folders."


def _count(members: int) -> None:
    if members > MAX_MEMBERS:
        raise UploadError(f"The archive holds more than {MAX_MEMBERS} files and folders.")


def _kind(kind: int) -> str:
    return {
        stat.S_IFLNK: "a symbolic link",
        stat.S_IFCHR: "a device",
        stat.S_IFBLK: "a device",
        stat.S_IFIFO: "a FIFO",
        stat.S_IFSOCK: "a socket",
    }.get(kind, "not a regular file")


def _tar_kind(info: tarfile.TarInfo) -> str:
    if info.issym():
        return "a symbolic link"
    if info.islnk():
        return "a hard link"
    if info.isdev():
        return "a device or a FIFO"
    return "not a regular file"


def _shown(name: str) -> str:
    return repr(name if len(name) <= 80 else name[:77] + "...")
