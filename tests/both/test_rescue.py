"""`scorebox sync --raw`: the journal files pulled with the real mpremote from the virtual
Pico's REPL, imported like a normal sync, the quarantined bytes included."""

import pytest
from boxfill import fill
from picoheap import PicoHeapVirtualPico as VirtualPico  # .mpy, 192 KB heap
from test_sync import scorebox
from test_sync_faults import box_unacked

from scorebox.device import link
from scorebox.store.sqlite import Store

pytestmark = pytest.mark.micropython


def test_rescue_then_normal_sync(tmp_path):
    flash, matches = fill(tmp_path, 12, seed=3, torn=True)
    vp = VirtualPico(flash)
    try:
        ser = link.open_port(vp.port)
        vp.wait_ready(link.Client(ser, timeout=1.0))  # boots: the torn tail is set aside
        ser.close()
        db = str(tmp_path / "club.sqlite")
        p = scorebox("sync", "--raw", "--port", vp.port, "--db", db)
        assert p.returncode == 0, p.stdout + p.stderr
        assert "12 new matches stored" in p.stdout
        assert "kept in the store's quarantine" in p.stdout
        s = Store(db)
        assert s.count() == 12
        (data,) = s.db.execute("SELECT data FROM quarantine").fetchone()
        assert data == b"\x31\x05"  # the torn record, byte for byte
        s.close()
        # mpremote's Ctrl-C stopped the app; the rescue's soft reset started it again.
        again = scorebox("sync", "--port", vp.port, "--db", db)
        assert again.returncode == 0, again.stdout + again.stderr
        assert "0 new matches stored" in again.stdout
        assert box_unacked(vp) == []
    finally:
        vp.close()


def test_rescue_without_a_box_says_so(tmp_path):
    p = scorebox("sync", "--raw", "--port", str(tmp_path / "ttyNONE"), "--db", str(tmp_path / "x.sqlite"))
    assert p.returncode == 2
    assert "rescue failed" in p.stderr and "Traceback" not in p.stderr
