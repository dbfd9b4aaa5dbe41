"""`make uf2` (tools/uf2.py) without building: where to get the sources when they are not set,
the image's end checked against the file system's start, and a second run with the same
inputs served from the cache outside the clone (here a cache whose image was put there: the
sources given are no archive, so any build would fail)."""

import json
import shutil
import struct

import pytest
import uf2

from scorebox.device import firmware


def block(addr, size=256):
    return (
        struct.pack("<8I", 0x0A324655, 0x9E5D5157, 0, addr, size, 0, 1, 0xE48BFF56) + bytes(476) + b"\x30\x6f\xb1\x0a"
    )


def test_without_sources_it_says_where_to_get_them(monkeypatch, capsys):
    monkeypatch.delenv("SCOREBOX_MICROPY_SRC", raising=False)
    assert uf2.main(["out"]) == 2
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and "v1.28.0" in out and "SCOREBOX_MICROPY_SRC" in out


def test_an_image_reaching_into_the_file_system_is_refused(tmp_path):
    ok = tmp_path / "ok.uf2"
    ok.write_bytes(block(0x10000000) + block(0x1009FF00))
    assert uf2.check_size(str(ok)) == 0xA0000
    bad = tmp_path / "bad.uf2"
    bad.write_bytes(block(0x10000000) + block(0x100A0000))
    with pytest.raises(uf2.BuildError, match="past the file system's start"):
        uf2.check_size(str(bad))


def test_a_second_run_with_the_same_inputs_copies_the_cached_image(tmp_path, monkeypatch):
    if not shutil.which("arm-none-eabi-gcc"):
        pytest.skip("no arm-none-eabi-gcc (make uf2 installs it): the key holds its version")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    src = tmp_path / "micropython-src.tar.xz"
    src.write_bytes(b"not an archive")
    key, src_hash = uf2.key(str(src))
    name = "scorebox-%s-RPI_PICO" % firmware.version()
    cached = tmp_path / "cache" / "scorebox" / "uf2" / key
    cached.mkdir(parents=True)
    (cached / (name + ".uf2")).write_bytes(block(0x10000000))
    (cached / (name + ".elf")).write_bytes(b"\x7fELF")
    lines = []
    path = uf2.build(str(src), str(tmp_path / "out"), log=lines.append)
    assert path == str(tmp_path / "out" / (name + ".uf2"))
    assert (tmp_path / "out" / (name + ".uf2")).read_bytes() == block(0x10000000)
    assert lines[0].startswith("make uf2: cached %s in " % path), lines
    # why the file is twice what it writes, and what a maker does with it next
    assert lines[1] == (
        "  a file of 512 bytes puts 256 bytes (0 KiB) of the image on the Pico's 2 MiB flash: each 512-byte"
        " UF2 block carries 256 of them; the box's file system keeps the flash after it"
    )
    assert "BOOTSEL" in lines[2] and "RPI-RP2" in lines[2] and len(lines) == 3
    inputs = json.loads((tmp_path / "out" / (name + ".uf2.inputs")).read_text())
    assert inputs == {"key": key, "firmware": firmware.tree_hash(), "source": src_hash}
    src.write_bytes(b"other sources")
    assert uf2.key(str(src))[0] != key  # new sources, a new key: a build (not run here)
