"""`make uf2` (tools/uf2.py) given sources it cannot build from says so in one line naming
SCOREBOX_MICROPY_SRC's value, and leaves nothing in its cache: a folder without MicroPython's
submodules printed three lines (one of a build log never written), a file that is no archive
and an archive cut short ended in a traceback (docs/rp2.md, "The frozen image")."""

import io
import shutil
import tarfile

import pytest
import uf2


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "cache"


def said(capsys, src, out):
    assert uf2.main([str(out)]) == 2
    text = capsys.readouterr().out
    assert text.count("\n") == 1, text
    assert text.startswith("make uf2: SCOREBOX_MICROPY_SRC=%s " % src), text
    assert "v1.28.0" in text and not out.exists()
    return text


def test_a_folder_without_the_submodules(tmp_path, cache, monkeypatch, capsys):
    src = tmp_path / "micropython"
    (src / "ports" / "rp2").mkdir(parents=True)  # a clone before `make -C ports/rp2 submodules`
    monkeypatch.setenv("SCOREBOX_MICROPY_SRC", str(src))
    assert "a folder without MicroPython's submodules (lib/pico-sdk)" in said(capsys, src, tmp_path / "out")
    assert not cache.exists()


def test_a_file_that_is_no_archive(tmp_path, cache, monkeypatch, capsys):
    src = tmp_path / "micropython-v1.28.0-src.tar.xz"
    src.write_bytes(b"<html>Not Found</html>\n")  # what a failed download leaves
    monkeypatch.setenv("SCOREBOX_MICROPY_SRC", str(src))
    assert "is not a tar archive" in said(capsys, src, tmp_path / "out")
    assert not cache.exists()


def test_an_archive_cut_short(tmp_path, cache, monkeypatch, capsys):
    if not shutil.which("arm-none-eabi-gcc"):
        pytest.skip("no arm-none-eabi-gcc (make uf2 installs it): the build's key holds its version")
    whole = io.BytesIO()
    with tarfile.open(fileobj=whole, mode="w:xz") as t:
        data = bytes(range(256)) * 4096  # 1 MB that xz cannot shrink much
        info = tarfile.TarInfo("micropython/README.md")
        info.size = len(data)
        t.addfile(info, io.BytesIO(data))
    src = tmp_path / "micropython-v1.28.0-src.tar.xz"
    src.write_bytes(whole.getvalue()[: len(whole.getvalue()) // 2])  # a download cut short
    monkeypatch.setenv("SCOREBOX_MICROPY_SRC", str(src))
    assert uf2.main([str(tmp_path / "out")]) == 2
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("make uf2: building ") and len(lines) == 2, lines  # the build had started
    assert lines[1].startswith("make uf2: SCOREBOX_MICROPY_SRC=%s could not be extracted" % src), lines
    assert not list((cache / "scorebox" / "uf2").glob("src-*")), "the half-extracted sources left behind"
