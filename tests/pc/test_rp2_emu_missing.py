"""`python -m scorebox.sim.rp2.emu FLASH --frozen`, docs/rp2.md's emulated Pico to talk to by
hand, on a maker's PC without what it needs: one line that says what to get, exit status 2,
and no flash file made. Before, --frozen found the image of `make uf2`, wrote the flash, then
stopped in a traceback on the missing boot ROM or Node; and the line said "`make` installs"
rp2040js, which `make` and `make demo` do not (found walking the docs as a newcomer)."""

import os

from scorebox.sim.rp2 import emu


def clean_env(monkeypatch, tmp_path):
    for name in ("SCOREBOX_RP2_DIR", "SCOREBOX_PICO_UF2", "SCOREBOX_RP2040_BOOTROM"):
        monkeypatch.delenv(name, raising=False)
    frozen = tmp_path / "scorebox-RPI_PICO.uf2"
    frozen.write_bytes(b"UF2\n")  # frozen_uf2() takes any file named here
    monkeypatch.setenv("SCOREBOX_FROZEN_UF2", str(frozen))


def test_no_boot_rom_is_one_line_and_no_flash(tmp_path, monkeypatch, capsys):
    clean_env(monkeypatch, tmp_path)
    flash = tmp_path / "box.flash"
    for kind in ([], ["--frozen"]):
        assert emu.main([str(flash)] + kind) == 2
        assert capsys.readouterr().err == emu.NEED + "\n"
        assert not flash.exists()


def test_no_node_says_which_make_installs_rp2040js(tmp_path, monkeypatch, capsys):
    clean_env(monkeypatch, tmp_path)
    images = tmp_path / "rp2"
    images.mkdir()
    (images / "RPI_PICO-20250101-v1.28.0.uf2").write_bytes(b"UF2\n")
    (images / "rp2040-bootrom.bin").write_bytes(bytes(16384))
    monkeypatch.setenv("SCOREBOX_RP2_DIR", str(images))
    monkeypatch.setenv("PATH", str(tmp_path / "no-node-here"))
    flash = tmp_path / "box.flash"
    assert emu.main([str(flash), "--frozen"]) == 2
    err = capsys.readouterr().err
    assert err == emu.NEED_NODE + "\n" and "`make test` or `make bench` installs" in err
    assert not os.path.exists(flash)
