"""The box's USB port does the least a byte and a write can cost (issue 22 item 6): the
sync's requests are read a byte at a time (box/usbport.py says why), so each byte must not
make objects for the collector, and the Pico's stdout, which has no flush, must not raise
and catch an AttributeError at every write. Counts, not times (tests/mpy/port_costs.py)."""

import subprocess

import mpy


def _run(data):
    p = subprocess.run(
        [mpy.micropython(), "-X", "heapsize=4m", "tests/mpy/port_costs.py"],
        input=data,
        capture_output=True,
        env=mpy.env(),
        cwd=mpy.ROOT,
        timeout=60,
    )
    assert p.returncode == 0, p.stderr.decode()
    return {line.split()[0]: [int(v) for v in line.split()[1:]] for line in p.stdout.decode().splitlines()}


def test_reading_a_request_makes_no_objects_per_byte():
    """2,000 bytes waiting: read whole, in heap little more than the bytes themselves (a
    poll() list and tuple per byte took 194 KB before)."""
    got = _run(b"x" * 1999 + b"\n")
    n, took = got["READ"]
    assert n == 2000
    assert took < 4 * 2000, took


def test_a_stdout_without_flush_is_asked_once():
    """100 writes: flush looked up once, when the port is made (100 times before)."""
    assert _run(b"")["FLUSH"] == [1]


def test_the_box_answers_one_request_per_turn_of_its_loop():
    """Requests that arrive together (a sync's READs) are answered one per poll, so that
    the app's loop runs between two replies (before, all in one poll)."""
    r = mpy.run(["tests/mpy/link_one_per_poll.py"], heapsize="8m")
    assert r.returncode == 0 and "ALL OK" in r.stdout, r.stdout + r.stderr
