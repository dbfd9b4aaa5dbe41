"""The PC does not trust a box's replies (issue 13, item 14): a device id that is not text,
file names outside the journal's pattern, sizes of 10**12, `more` for ever, a READ longer
than asked, a space report of the wrong type. Each ends the sync with one clear
DeviceError (or, for the space, a summary without it), never a traceback or an endless
sync. The hostile box answers real frames over a real pseudo-terminal."""

import pytest
from hostilebox import PROTOCOL, HostileBox

from scorebox.device import link
from scorebox.store.sqlite import Store
from scorebox.sync.pull import sync

GOOD_HELLO = dict(PROTOCOL, device="v-hostile", firmware="1.0.0", space={"percent_full": 1, "matches_left": 9})


def listing(matches, files, more=False):
    """LIST's reply of these match numbers (as runs of one)."""
    return {"ranges": [[n, n] for n in matches], "files": files, "more": more}


def endless(kind, body):
    if kind != "LIST":
        return "OK", GOOD_HELLO if kind == "HELLO" else {}
    after = body["after"]
    return "OK", {"ranges": [[after + 1, after + 250]], "files": [], "more": True}


CASES = {
    "device id a dict": (lambda k, b: ("OK", dict(GOOD_HELLO, device={"x": 1})), "device id"),
    "device id with a newline": (lambda k, b: ("OK", dict(GOOD_HELLO, device="a\nb")), "device id"),
    "file outside the journal": (
        lambda k, b: ("OK", GOOD_HELLO) if k == "HELLO" else ("OK", listing([1], [["../../etc/passwd", 10]])),
        "file name",
    ),
    "size of 10**12": (
        lambda k, b: ("OK", GOOD_HELLO) if k == "HELLO" else ("OK", listing([1], [["g000001.tbj", 10**12]])),
        "file",
    ),
    "the same numbers for ever": (
        lambda k, b: ("OK", GOOD_HELLO) if k == "HELLO" else ("OK", listing([1], [], more=True)),
        r"run \[1, 1\] after 1",
    ),
    "more for ever": (endless, "too many matches"),
    "more not a bool": (
        lambda k, b: ("OK", GOOD_HELLO) if k == "HELLO" else ("OK", listing([1], [], more="yes")),
        "more is",
    ),
    "a READ longer than asked": (
        lambda k, b: {
            "HELLO": ("OK", GOOD_HELLO),
            "ACK": ("OK", {}),
            "LIST": ("OK", listing([1], [["g000001.tbj", 100]])),
            "READ": ("BIN", b"x" * 101),
        }[k],
        "is not valid \\(length 101\\)",
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_hostile_reply_ends_the_sync_with_one_error(tmp_path, name):
    reply, why = CASES[name]
    box = HostileBox(reply)
    ser = link.open_port(box.port)
    try:
        store = Store(str(tmp_path / "club.sqlite"))
        with pytest.raises(link.DeviceError, match=why):
            sync(link.Client(ser, timeout=2.0, retries=0), store, roster=False, clock=False)
        assert store.count() == 0
    finally:
        ser.close()
        box.close()


def test_a_space_report_of_the_wrong_type_is_left_out(tmp_path):
    def reply(kind, body):
        if kind == "HELLO":
            return "OK", dict(GOOD_HELLO, space={"percent_full": "lots", "matches_left": None})
        return "OK", listing([], [])

    box = HostileBox(reply)
    ser = link.open_port(box.port)
    try:
        s = sync(link.Client(ser, timeout=2.0, retries=0), Store(str(tmp_path / "c.sqlite")), roster=False, clock=False)
        assert s.space is None and "0 new matches stored" in s.lines()[0]
    finally:
        ser.close()
        box.close()
