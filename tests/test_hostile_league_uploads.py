"""Hostile uploads capped in memory and work, not only in size (issue 31, item 3): every
header of an archive counts against the caps, a .zip is refused on its entry count before
its directory is read, the HTTP body stops at the cap (the connection closed, and no body
read at all without a token), bot.toml is read with size and depth caps, every refusal is
one sentence (never a 500), and what a killed server left is removed when a league starts."""

from __future__ import annotations

import gzip
import http.server
import io
import json
import socket
import struct
import tarfile
import threading
import time
import tracemalloc
import zipfile
from pathlib import Path

import pytest

from arena.errors import BotManifestError
from arena.league import archives, uploads, web
from arena.league.league import League
from arena.league.uploads import UploadError, unpack
from arena.players.limits import Limits
from arena.players.manifest import load_manifest
from tests.league_support import Site, served

TOML = b'name = "mine"\ncommand = ["python3", "bot.py"]\ngames = ["mandala"]\n'

# --- building hostile archives ---


def _block(data: bytes) -> bytes:
    return data + b"\0" * (-len(data) % tarfile.BLOCKSIZE)


def _header(name: str, kind: bytes = tarfile.REGTYPE, size: int = 0) -> bytes:
    info = tarfile.TarInfo(name)
    info.type, info.size = kind, size
    return info.tobuf(format=tarfile.GNU_FORMAT)


def _file(name: str, data: bytes) -> bytes:
    return _header(name, size=len(data)) + _block(data)


def _tar_gz(path: Path, *parts: bytes) -> Path:
    with gzip.open(path, "wb", compresslevel=1) as out:
        for part in parts:
            out.write(part)
        out.write(b"\0" * (2 * tarfile.BLOCKSIZE))
    return path


def _tar(path: Path, members: list[tuple[str, bytes | None]]) -> Path:
    """A .tar.gz of files (bytes) and folders (None), in this order."""
    with tarfile.open(path, "w:gz") as bundle:
        for name, data in members:
            info = tarfile.TarInfo(name)
            if data is None:
                info.type = tarfile.DIRTYPE
                bundle.addfile(info)
            else:
                info.size = len(data)
                bundle.addfile(info, io.BytesIO(data))
    return path


def _zip(
    path: Path, members: list[tuple[str, bytes | None]], method: int = zipfile.ZIP_DEFLATED
) -> Path:
    """A .zip of files (bytes) and folders (None), in this order."""
    with zipfile.ZipFile(path, "w", method) as bundle:
        for name, data in members:
            info = zipfile.ZipInfo(name)
            info.compress_type = method
            info.external_attr = (0o40755 if data is None else 0o100644) << 16
            bundle.writestr(info, b"" if data is None else data)
    return path


def _end_record(entries: int, directory: int, offset: int) -> bytes:
    return struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, entries, entries, directory, offset, 0)


def _refused(archive: Path, tmp_path: Path, words: str) -> None:
    """`archive` refused with one sentence holding `words`, leaving nothing behind."""
    league = tmp_path / "league"
    with pytest.raises(UploadError, match=words) as refusal:
        unpack(archive, league / "bots" / ".incoming-x")
    sentence = str(refusal.value)
    assert sentence.endswith(".") and "\n" not in sentence and "Traceback" not in sentence
    assert list((league / "bots").iterdir()) == []


# --- .tar.gz: every header counts ---


def test_a_long_name_header_declaring_a_gibibyte_is_refused_before_it_is_read(
    tmp_path: Path,
) -> None:
    header = _header("././@LongLink", tarfile.GNUTYPE_LONGNAME, 1 << 30)
    archive = _tar_gz(tmp_path / "long.tar.gz", header, b"a" * 4096)
    _refused(archive, tmp_path, "long-name header of 1,073,741,824 bytes")
    # one that holds what it declares (96 MiB, under the unpacked cap): memory stays small
    with gzip.open(tmp_path / "held.tar.gz", "wb", compresslevel=1) as out:
        out.write(_header("././@LongLink", tarfile.GNUTYPE_LONGNAME, 96 << 20))
        for _ in range(96):
            out.write(b"a" * (1 << 20))
        out.write(_file("bot.toml", TOML))
    tracemalloc.start()
    try:
        with pytest.raises(UploadError, match="long-name header"):
            unpack(tmp_path / "held.tar.gz", tmp_path / "league" / "bots" / "held")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 4 << 20, f"{peak / (1 << 20):.0f} MiB allocated while refusing"


def test_long_name_and_pax_headers_are_capped_in_a_row_and_in_all(tmp_path: Path) -> None:
    chain = b"".join(
        _header("././@LongLink", tarfile.GNUTYPE_LONGNAME, 10) + _block(b"name%06d" % n)
        for n in range(1000)  # tarfile reads each by recursion: a RecursionError, once
    )
    archive = _tar_gz(tmp_path / "chain.tar.gz", chain, _file("bot.toml", TOML))
    _refused(archive, tmp_path, "more than 8 long-name or pax headers before one member")
    members = []
    for n in range(80):  # 80 pax headers of 60 KiB each: 4.7 MiB of headers
        pax = tarfile.TarInfo(f"f{n}")
        pax.pax_headers = {"comment": "x" * (60 << 10)}
        members.append(pax.tobuf(format=tarfile.PAX_FORMAT))
    archive = _tar_gz(tmp_path / "pax.tar.gz", _file("bot.toml", TOML), *members)
    _refused(archive, tmp_path, "pax headers hold more than 4 MiB in all")


def test_a_pax_header_with_a_long_number_is_refused(tmp_path: Path) -> None:
    """Python 3.11.7's pax reading searches a header in time growing as the square of a run
    of digits (CVE-2024-6232): 64 KiB of digits took 5.7 s."""
    pax = tarfile.TarInfo("bot.toml")
    pax.size = len(TOML)
    pax.pax_headers = {"comment": "1" * 20_000}
    archive = _tar_gz(tmp_path / "digits.tar.gz", pax.tobuf(tarfile.PAX_FORMAT) + _block(TOML))
    _refused(archive, tmp_path, "pax header with a number of over 255 digits")


def test_sparse_files_are_refused(tmp_path: Path) -> None:
    archive = _tar_gz(
        tmp_path / "sparse.tar.gz",
        _file("bot.toml", TOML),
        _header("holes", tarfile.GNUTYPE_SPARSE),
    )
    _refused(archive, tmp_path, "'holes' is a sparse file")
    pax = tarfile.TarInfo("holes")
    pax.size = 512
    pax.pax_headers = {"GNU.sparse.major": "1", "GNU.sparse.minor": "0"}
    sparse_map = _block(b"1000000000\n" + b"0\n" * 200)  # a map that never ends
    archive = _tar_gz(
        tmp_path / "pax-sparse.tar.gz",
        _file("bot.toml", TOML),
        pax.tobuf(tarfile.PAX_FORMAT) + sparse_map,
    )
    _refused(archive, tmp_path, "holds a sparse file")


def test_headers_and_padding_count_against_the_unpacked_cap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(archives, "MAX_UNPACKED_BYTES", 1 << 20)
    tiny = [(f"f{n}", b"x") for n in range(1500)]  # 1.5 kB of files in 1.5 MB of tar
    archive = _tar(tmp_path / "tiny.tar.gz", [("bot.toml", TOML), *tiny])
    _refused(archive, tmp_path, r"unpacks to more than 1 MiB \(counting its headers\)")


# --- .zip: refused on its directory before zipfile reads it ---


def test_a_zip_is_refused_on_its_end_record_before_its_directory_is_read(
    tmp_path: Path,
) -> None:
    start = b"PK\x03\x04" + b"\0" * 60
    # 2,100 entries announced; the directory itself is not even there
    archive = tmp_path / "count.zip"
    archive.write_bytes(start + _end_record(2100, 46 * 2100, 0))
    _refused(archive, tmp_path, "more than 2000 files and folders")
    # zip64: 360,000 entries announced in the zip64 end record
    end64 = struct.pack("<4sQ2H2L4Q", b"PK\x06\x06", 44, 45, 45, 0, 0, 360_000, 360_000, 99, 0)
    locator = struct.pack("<4sLQL", b"PK\x06\x07", 0, len(start), 1)
    archive.write_bytes(start + end64 + locator + _end_record(0xFFFF, 0xFFFFFFFF, 0xFFFFFFFF))
    _refused(archive, tmp_path, "more than 2000 files and folders")
    # a directory of 5 MiB announced (zipfile would read it whole)
    archive.write_bytes(start + _end_record(1, 5 << 20, 0))
    _refused(archive, tmp_path, r"directory is 5\.0 MiB; a bot archive's is at most 4 MiB")
    # an end record that lies (1 entry) before 2,100 real ones: counted in the directory
    many = _zip(tmp_path / "many.zip", [(f"f{n}", b"") for n in range(2100)], zipfile.ZIP_STORED)
    data = bytearray(many.read_bytes())
    data[-22 + 8 : -22 + 12] = struct.pack("<2H", 1, 1)
    many.write_bytes(bytes(data))
    _refused(many, tmp_path, "more than 2000 files and folders")


def test_a_zip_member_compressed_with_bzip2_or_lzma_is_refused(tmp_path: Path) -> None:
    """bzip2 inflates without a cap on each read: a 3 kB bzip2 zip took 56 s and 8 GiB of
    memory in zipfile for the first 64 kB read of it."""
    for method, words in [(zipfile.ZIP_BZIP2, "bzip2"), (zipfile.ZIP_LZMA, "LZMA")]:
        archive = _zip(tmp_path / f"{words}.zip", [("bot.toml", TOML)], method)
        _refused(archive, tmp_path, f"'bot.toml' is compressed with {words}")


# --- names and damaged archives: one sentence, never an OSError ---


@pytest.mark.parametrize(
    "members",
    [
        [("x", b"a"), ("x/y", b"b")],
        [("x/", None), ("x", b"a")],
        [("x/y", b"b"), ("x", b"a")],
        [("x", b"a"), ("x/", None)],
    ],
    ids=["file-then-inside", "folder-then-file", "inside-then-file", "file-then-folder"],
)
@pytest.mark.parametrize("kind", ["zip", "tar"])
def test_a_name_both_a_file_and_a_folder_is_one_sentence(
    tmp_path: Path, kind: str, members: list[tuple[str, bytes | None]]
) -> None:
    make = _zip if kind == "zip" else _tar
    archive = make(tmp_path / f"a.{kind}", [("bot.toml", TOML), *members])
    _refused(archive, tmp_path, "'x' is both a file and a folder in the archive")


def test_names_the_file_system_cannot_take_are_one_sentence(tmp_path: Path) -> None:
    long_name = "\N{GRINNING FACE}" * 70  # 70 characters, 280 bytes: over NAME_MAX
    archive = _zip(tmp_path / "long.zip", [("bot.toml", TOML), (long_name, b"")])
    _refused(archive, tmp_path, "name longer than 255 bytes")
    archive = _tar(tmp_path / "bytes.tar.gz", [("bot.toml", TOML), ("\udcff.py", b"")])
    _refused(archive, tmp_path, "is not a UTF-8 name")


def test_a_damaged_member_is_one_sentence(tmp_path: Path) -> None:
    noise = bytes(range(256)) * 400
    whole = _tar(tmp_path / "whole.tar.gz", [("bot.toml", TOML), ("data", noise)])
    cut = tmp_path / "cut.tar.gz"
    cut.write_bytes(whole.read_bytes()[: whole.stat().st_size // 2])
    _refused(cut, tmp_path, "The .tar.gz archive cannot be read")
    stored = _zip(tmp_path / "crc.zip", [("bot.toml", TOML), ("data", noise)], zipfile.ZIP_STORED)
    data = bytearray(stored.read_bytes())
    data[data.index(noise[:64]) + 1000] ^= 0xFF  # the bytes no longer match their CRC
    stored.write_bytes(bytes(data))
    _refused(stored, tmp_path, r"The \.zip archive cannot be read \(Bad CRC-32")


# --- bot.toml: read with caps before tomllib sees it ---


def test_a_bot_toml_too_deep_or_too_large_is_one_sentence(tmp_path: Path) -> None:
    folder = tmp_path / "bot"
    folder.mkdir()
    (folder / "bot.toml").write_text(TOML.decode() + "deep = " + "[" * 30_000 + "]" * 30_000)
    with pytest.raises(BotManifestError, match="nests arrays or tables more than 32 deep"):
        load_manifest(folder)
    (folder / "bot.toml").write_text(TOML.decode() + "a = [" + "1, " * 1_000_000 + "]\n")
    with pytest.raises(BotManifestError, match="larger than 64 KiB"):
        load_manifest(folder)
    (folder / "bot.toml").write_text(TOML.decode() + "d = " + "[" * 33 + "]" * 33 + "\n")
    with pytest.raises(BotManifestError, match="more than 32 deep"):
        load_manifest(folder)
    brackets = "[{" * 40  # in strings and comments they are not nesting
    (folder / "bot.toml").write_text(
        TOML.decode() + f'a = "{brackets}"\nb = \'{brackets}\'\nc = """\n{brackets}\n"""\n'
        f'# {brackets}\nd = [[1], [2, {{ e = 3 }}]]\n[env]\nX = "]]]]"\n'
    )
    assert load_manifest(folder).extra["a"] == brackets


# --- the HTTP API: the body stops at the cap, never read without a token ---


def _push_chunked(site: Site, token: str | None, limit: int = 256 << 20) -> tuple[int, bool]:
    """POST /api/bots a chunked body with no Content-Length, 1 MiB a chunk, until the server
    closes the connection or `limit` bytes are sent (within 60 s); (bytes sent, closed)."""
    port = int(site.url.rsplit(":", 1)[1])
    chunk = b"\0" * (1 << 20)
    framed = b"%x\r\n" % len(chunk) + chunk + b"\r\n"
    head = "POST /api/bots HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n"
    if token is not None:
        head += f"Authorization: Bearer {token}\r\n"
    sent, deadline = 0, time.monotonic() + 60
    with socket.create_connection(("127.0.0.1", port), timeout=20) as client:
        client.sendall(head.encode() + b"\r\n")
        try:
            while sent < limit and time.monotonic() < deadline:
                client.sendall(framed)
                sent += len(chunk)
        except (BrokenPipeError, ConnectionResetError):
            return sent, True
        except TimeoutError:  # the server stopped reading but kept the connection
            return sent, False
    return sent, False


def test_a_chunked_body_stops_at_the_cap_and_none_is_read_without_a_token(
    tmp_path: Path,
) -> None:
    margin = 32 << 20  # the loopback's socket buffers, at most a few MiB each way
    with served(tmp_path) as site:
        sent, closed = _push_chunked(site, site.ada)
        assert closed and sent <= uploads.MAX_UPLOAD_BYTES + margin, sent
        sent, closed = _push_chunked(site, None)
        assert closed and sent <= margin, sent
        sent, closed = _push_chunked(site, "not-a-token")
        assert closed and sent <= margin, sent
        assert list((site.league.folder / "uploads").iterdir()) == []
        status, answer = site.call("POST", "/api/bots", None, b"x" * 1000)
        assert status == 401 and "needs an author's token" in answer["error"]
        assert site.call("GET", "/api/bots")[0] == 200  # the server serves on


def test_hostile_uploads_over_http_are_400_with_one_sentence(tmp_path: Path) -> None:
    deep = b'name = "deep"\ncommand = ["python3", "bot.py"]\nd = ' + b"[" * 50_000
    huge = b'name = "huge"\ncommand = ["python3", "bot.py"]\na = [' + b"1," * 1_500_000 + b"]"
    cases = {
        "both a file and a folder": _tar(
            tmp_path / "xy.tar.gz", [("bot.toml", TOML), ("x", b"a"), ("x/y", b"b")]
        ),
        "nests arrays or tables": _tar(tmp_path / "deep.tar.gz", [("bot.toml", deep)]),
        "larger than 64 KiB": _tar(tmp_path / "huge.tar.gz", [("bot.toml", huge)]),
        "long-name header": _tar_gz(
            tmp_path / "long.tar.gz", _header("x", tarfile.GNUTYPE_LONGNAME, 1 << 30)
        ),
        "more than 2000 files": _zip(
            tmp_path / "many.zip", [(f"f{n}", b"") for n in range(2001)], zipfile.ZIP_STORED
        ),
        "compressed with bzip2": _zip(tmp_path / "bz.zip", [("bot.toml", TOML)], zipfile.ZIP_BZIP2),
        "name longer than 255 bytes": _zip(
            tmp_path / "name.zip", [("bot.toml", TOML), ("\N{GRINNING FACE}" * 70, b"")]
        ),
    }
    noise = bytes(range(256)) * 400
    whole = _tar(tmp_path / "whole.tar.gz", [("bot.toml", TOML), ("data", noise)]).read_bytes()
    cases["archive cannot be read"] = tmp_path / "cut.tar.gz"
    cases["archive cannot be read"].write_bytes(whole[: len(whole) // 2])
    cases["not a UTF-8 name"] = _tar(tmp_path / "u.tar.gz", [("bot.toml", TOML), ("\udcff", b"")])
    assert len(cases) <= web.UPLOADS_PER_MINUTE
    with served(tmp_path) as site:
        for words, archive in cases.items():
            status, answer = site.call("POST", "/api/bots", site.ada, archive.read_bytes())
            assert status == 400 and words in answer["error"], (words, status, answer)
            assert "\n" not in answer["error"] and "Traceback" not in answer["error"]
        assert site.call("GET", "/api/bots") == (200, [])
        bots = site.league.folder / "bots"
        assert [path.name for path in bots.iterdir()] == []  # nothing staged is left


# --- leftovers of a killed server ---


def test_what_a_killed_server_left_is_removed_when_the_league_starts(tmp_path: Path) -> None:
    folder = tmp_path / "league"
    league = League(folder, workers=0, limits=Limits())
    try:
        ada = league.store.author_of(league.store.add_author("ada"))
        assert ada is not None
        cut = league.store.add_bot("cut", ada)  # its check was running: `building`
        done = league.store.set_status(league.store.add_bot("done", ada), "failed", "no")
    finally:
        league.close()
    left = [
        folder / "uploads" / "tmpa1b2c3.upload",
        folder / "bots" / ".incoming-0123abcd" / "bot.toml",
        folder / "bots" / ".upload-4567cdef" / "mine" / "bot.toml",
        folder / "checks" / cut.label / "logs" / f"{cut.label}.stderr.log",
        folder / "bots" / cut.label / "bot.toml",  # half built: emptied (issue 42, point 3)
    ]
    kept = [
        folder / "checks" / done.label / "logs" / f"{done.label}.stderr.log",
        folder / "uploads" / "notes.txt",
    ]
    for path in left + kept:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"x")
    league = League(folder, workers=0, limits=Limits())
    try:
        league.start()
        assert [path for path in left if path.exists()] == []
        assert not (folder / "checks" / cut.label).exists()
        assert [path for path in kept if not path.exists()] == []
        status = league.store.bot(cut.label)
        assert status is not None and status.status == "failed"
    finally:
        league.close()


def test_arena_submit_refuses_an_archive_over_the_cap_before_sending_it(tmp_path: Path) -> None:
    """The server closes the connection at the cap (a client would see a reset), so `arena
    submit` measures the archive first and says what is wrong in one sentence."""
    import os

    from click.testing import CliRunner

    from arena.cli.main import main

    folder = tmp_path / "big"
    folder.mkdir()
    (folder / "bot.toml").write_bytes(TOML)
    (folder / "data.bin").write_bytes(os.urandom(uploads.MAX_UPLOAD_BYTES + (1 << 20)))
    result = CliRunner().invoke(
        main, ["submit", str(folder), "--to", "http://127.0.0.1:9", "--token", "arena_x"]
    )
    assert result.exit_code == 1, result.output
    assert "a bot archive may be at most 32 MiB" in result.output
    assert "Cannot reach" not in result.output


class _Answers(http.server.BaseHTTPRequestHandler):
    """A server that is no league: each path answers as a misconfigured one might."""

    seen: list[tuple[str, str | None]] = []

    def do_POST(self) -> None:  # noqa: N802 (the standard library's name)
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.seen.append((self.path, self.headers.get("Authorization")))
        if self.path.startswith("/moved"):
            self.send_response(301)
            self.send_header("Location", "http://127.0.0.2:9/api/bots")
            self.end_headers()
            return
        body = b"<html>\x1b]0;title\x07 a proxy's page</html>"
        if self.path.startswith("/deep"):  # nests past Python's recursion limit
            self.send_response(403 if self.path.startswith("/deep-refuses") else 200)
            body = b"[" * 5000
        elif self.path.startswith("/refuses"):
            self.send_response(403)
            body = json.dumps({"error": "no \x1b]0;T\x07 entry"}).encode()
        else:
            self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST  # noqa: N815

    def log_message(self, *args: object) -> None:
        pass


@pytest.mark.parametrize(
    ("where", "sentence"),
    [
        ("moved", "sent the request on to http://127.0.0.2:9/api/bots (HTTP 301); give"),
        ("page", 'answered, but not as a league does (b"<html>\\x1b]0;title'),
        ("refuses", "The league refused it: no \\x1b]0;T\\x07 entry"),
        ("deep", "answered, but not as a league does (b'[[[["),
        ("deep-refuses", "The league refused it: Forbidden"),
    ],
)
def test_arena_submit_to_what_is_no_league_is_one_sentence(where: str, sentence: str) -> None:
    """A 301 (an http:// address behind an HTTPS proxy) was followed with the token and the
    POST turned into a GET; a page that is not JSON was a traceback, and so was JSON nested
    past Python's recursion limit; a server's words were printed raw. The token goes nowhere
    it was not sent."""
    from click.testing import CliRunner

    from arena.cli.main import main

    _Answers.seen = []
    server = http.server.HTTPServer(("127.0.0.1", 0), _Answers)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_port}/{where}"
        result = CliRunner().invoke(main, ["submit", "random", "--to", url, "--token", "arena_x"])
    finally:
        server.shutdown()
        server.server_close()
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    said = " ".join(result.output.split())
    assert sentence in said and "\x1b" not in said, said
    assert _Answers.seen == [(f"/{where}/api/bots", "Bearer arena_x")]


@pytest.mark.parametrize("url", ["127.0.0.1:8000", "file:///etc", "ftp://127.0.0.1/"])
def test_arena_submit_to_an_address_that_is_not_http_is_one_sentence(url: str) -> None:
    from click.testing import CliRunner

    from arena.cli.main import main

    result = CliRunner().invoke(main, ["submit", "random", "--to", url, "--token", "arena_x"])
    assert result.exit_code == 1
    assert "--to must be the league's http:// or https:// address" in result.output
