"""The emulated Pico's threads (the USB wire's relays to its pty, the harness's answers) end
before close() returns and before a reboot starts new ones: they hold fd numbers, and a closed
fd's number is the next file's this process opens. A relay still running after close() read
bytes out of a flash image or a trace being read, or wrote console text into one being written:
drives whose two FATs differed and traces that parsed as garbage, now and then, in long runs."""

import threading

from scorebox.sim.rp2 import emu


def _ours(before):
    return [t for t in threading.enumerate() if t not in before and t.name.startswith("emulated Pico")]


def test_close_ends_every_thread_of_the_box(tmp_path, deployed):
    flash = str(tmp_path / "flash.img")
    with open(flash, "wb") as f:
        f.write(emu.fs_image(deployed))
    before = set(threading.enumerate())
    pico = emu.EmulatedPico(flash)
    try:
        pico.wait_usb()
        assert len(_ours(before)) == 3  # the harness's answers, the wire to the PC and to the box
        pico.reboot()
        assert len(_ours(before)) == 3  # the last boot's ended first
    finally:
        pico.close()
    assert not any(t.is_alive() for t in _ours(before))
