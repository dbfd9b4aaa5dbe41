"""A box that stops reading mid-sync (issue 13, item 13): the PC's writes time out as its
reads do, and the sync ends with the usual sentence instead of waiting for ever. The
virtual Pico is stopped (SIGSTOP) so that the pty's buffer fills, as a hung box's USB
buffer would."""

import os
import signal
import threading

import pytest
from test_sync import start

from scorebox.device import link
from scorebox_core import frames

pytestmark = pytest.mark.micropython


def test_writes_to_a_box_that_stopped_reading_time_out(tmp_path):
    vp, _ = start(tmp_path, 2)
    os.kill(vp.proc.pid, signal.SIGSTOP)
    ser = link.open_port(vp.port)
    got = []

    def keep_asking():
        c = link.Client(ser, timeout=0.05, retries=0)
        pad = "a" * (frames.MAX_REQUEST * 3 // 4 - 60)  # a frame just under what the box takes
        try:
            for _ in range(10000):
                try:
                    c.request("HELLO", {"pad": pad})
                except link.DeviceError as e:
                    if "does not answer" not in str(e):
                        raise
        except Exception as e:
            got.append(e)

    t = threading.Thread(target=keep_asking, daemon=True)
    try:
        t.start()
        t.join(timeout=120)
        assert not t.is_alive(), "the write waited for ever"
        assert got and isinstance(got[0], link.DeviceError), got
        assert "the box stopped reading" in str(got[0]) and "sync again" in str(got[0])
    finally:
        os.kill(vp.proc.pid, signal.SIGCONT)
        ser.close()
        vp.close()
