"""A submitted bot archive, unpacked safely (arena/league/uploads.py, issue 24): every way
an upload can attack the league's folder is refused with one sentence and leaves nothing."""

from __future__ import annotations

import io
import stat
import tarfile
import zipfile
from pathlib import Path

import pytest

from arena.league import archives, uploads
from arena.league.uploads import UploadError, unpack
from arena.players.manifest import load_manifest

TOML = b'name = "mine"\ncommand = ["python3", "bot.py"]\ngames = ["mandala"]\n'


def _zip(path: Path, members: list[tuple[str, bytes, int]]) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as bundle:
        for name, data, mode in members:
            info = zipfile.ZipInfo(name)
            info.external_attr = mode << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            bundle.writestr(info, data)
    return path


def _tar(path: Path, members: list[tarfile.TarInfo | tuple[str, bytes]]) -> Path:
    with tarfile.open(path, "w:gz") as bundle:
        for member in members:
            if isinstance(member, tarfile.TarInfo):
                bundle.addfile(member)
            else:
                name, data = member
                info = tarfile.TarInfo(name)
                info.size = len(data)
                info.mode = 0o755 if name.endswith(".sh") else 0o644
                bundle.addfile(info, io.BytesIO(data))
    return path


def _left(root: Path) -> list[str]:
    return sorted(p.name for p in root.iterdir())


def test_a_zip_of_a_bot_folder_unpacks_and_loads(tmp_path: Path) -> None:
    archive = _zip(
        tmp_path / "a.zip",
        [("mine/bot.toml", TOML, 0o100644), ("mine/bot.py", b"print()\n", 0o104755)],
    )
    folder = unpack(archive, tmp_path / "league" / "mine-v1")
    assert load_manifest(folder).name == "mine"
    mode = (folder / "bot.py").stat().st_mode
    assert stat.S_IMODE(mode) == 0o755  # executable kept, the set-uid bit dropped


def test_a_tar_gz_with_the_manifest_at_its_root_unpacks(tmp_path: Path) -> None:
    archive = _tar(tmp_path / "a.tar.gz", [("bot.toml", TOML), ("run.sh", b"#!/bin/sh\n")])
    folder = unpack(archive, tmp_path / "league" / "mine-v1")
    assert folder == tmp_path / "league" / "mine-v1"
    assert (folder / "run.sh").stat().st_mode & 0o111


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("../evil.py", "climbs out"),
        ("mine/../../evil.py", "climbs out"),
        ("/etc/evil", "absolute path"),
        ("a\\..\\evil", "backslash"),
        ("/".join(["d"] * 20) + "/f", "folders deep"),
        ("x" * 300, "longer than"),
    ],
)
def test_a_path_outside_the_folder_is_refused(tmp_path: Path, name: str, words: str) -> None:
    archive = _zip(tmp_path / "a.zip", [("bot.toml", TOML, 0o100644), (name, b"x", 0o100644)])
    with pytest.raises(UploadError, match=words):
        unpack(archive, tmp_path / "league" / "mine-v1")
    assert _left(tmp_path / "league") == []  # nothing written, not even a staging folder
    assert not (tmp_path / "evil.py").exists()


def test_links_devices_and_fifos_are_refused(tmp_path: Path) -> None:
    link = _zip(
        tmp_path / "l.zip", [("bot.toml", TOML, 0o100644), ("out", b"/etc/passwd", 0o120777)]
    )
    with pytest.raises(UploadError, match="'out' is a symbolic link"):
        unpack(link, tmp_path / "league" / "a")
    for kind, words in [
        (tarfile.SYMTYPE, "a symbolic link"),
        (tarfile.LNKTYPE, "a hard link"),
        (tarfile.CHRTYPE, "a device"),
        (tarfile.FIFOTYPE, "a device or a FIFO"),
    ]:
        info = tarfile.TarInfo("thing")
        info.type = kind
        info.linkname = "/etc/passwd"
        archive = _tar(tmp_path / f"{kind!r}.tar.gz", [("bot.toml", TOML), info])
        with pytest.raises(UploadError, match=f"'thing' is {words}"):
            unpack(archive, tmp_path / "league" / "b")
    assert _left(tmp_path / "league") == []


def test_a_zip_bomb_stops_at_the_unpacked_cap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(uploads, "MAX_UNPACKED_BYTES", 4 << 20)
    archive = _zip(
        tmp_path / "bomb.zip",
        [("bot.toml", TOML, 0o100644), ("zeros", b"\0" * (64 << 20), 0o100644)],
    )
    assert archive.stat().st_size < 1 << 20  # 64 MiB of zeros in well under 1 MiB
    with pytest.raises(UploadError, match="unpacks to more than 4 MiB"):
        unpack(archive, tmp_path / "league" / "mine-v1")
    assert _left(tmp_path / "league") == []


def test_a_gzip_bomb_stops_at_the_unpacked_cap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(uploads, "MAX_UNPACKED_BYTES", 4 << 20)
    monkeypatch.setattr(archives, "MAX_UNPACKED_BYTES", 4 << 20)
    archive = _tar(tmp_path / "bomb.tar.gz", [("bot.toml", TOML), ("zeros", b"\0" * (64 << 20))])
    with pytest.raises(UploadError, match="unpacks to more than 4 MiB"):
        unpack(archive, tmp_path / "league" / "mine-v1")


def test_too_large_too_many_and_not_an_archive_are_one_sentence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    big = tmp_path / "big.zip"
    with big.open("wb") as out:
        out.truncate(uploads.MAX_UPLOAD_BYTES + 1)  # sparse: no disk used
    with pytest.raises(UploadError, match="may be at most 32 MiB"):
        unpack(big, tmp_path / "league" / "a")
    monkeypatch.setattr(archives, "MAX_MEMBERS", 10)
    many = _zip(tmp_path / "many.zip", [(f"f{i}", b"", 0o100644) for i in range(11)])
    with pytest.raises(UploadError, match="more than 10 files"):
        unpack(many, tmp_path / "league" / "b")
    text = tmp_path / "bot.zip"
    text.write_text("hello")
    with pytest.raises(UploadError, match="neither a .zip nor a .tar.gz"):
        unpack(text, tmp_path / "league" / "c")
    broken = tmp_path / "broken.tar.gz"
    broken.write_bytes(b"\x1f\x8b" + b"junk" * 10)
    with pytest.raises(UploadError, match="cannot be read"):
        unpack(broken, tmp_path / "league" / "d")


def test_no_manifest_or_a_duplicate_member_is_refused(tmp_path: Path) -> None:
    bare = _zip(tmp_path / "bare.zip", [("bot.py", b"", 0o100644)])
    with pytest.raises(UploadError, match="no bot.toml"):
        unpack(bare, tmp_path / "league" / "a")
    twice = _tar(tmp_path / "twice.tar.gz", [("bot.toml", TOML), ("bot.toml", b"x")])
    with pytest.raises(UploadError, match="appears twice"):
        unpack(twice, tmp_path / "league" / "b")
    assert _left(tmp_path / "league") == []
