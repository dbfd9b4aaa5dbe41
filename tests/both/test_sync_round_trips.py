"""A sync of protocol 2 waits for the PC as few times as it can (issue 22 item 6): the
first LIST goes in one write with the first NAMES (and the empty ACK that claims a new
box, before it), the ACKs, the roster and SPACE in one write at the end. Before: a
write, and a round trip, each. Against the real firmware on the virtual Pico, the real
sync, a real SQLite store; a reply damaged in the last write is asked for again and the
sync completes all the same."""

import mpy
import pytest
from boxfill import fill
from test_sync_faults import box_unacked
from test_sync_pipeline import Bursts, boot
from test_sync_stream import stored

from scorebox.device import link
from scorebox.store.sqlite import Store
from scorebox.sync import pull

pytestmark = pytest.mark.micropython

MATCHES = 60


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    return fill(tmp_path_factory.mktemp("round_trips"), MATCHES, seed=7)


def test_a_sync_writes_four_times(template, tmp_path):
    vp, ser = boot(template, tmp_path)
    try:
        port = Bursts(ser)
        db = str(tmp_path / "club.sqlite")
        s = pull.sync(link.Client(port, timeout=10.0), Store(db))
        assert len(s.new) == MATCHES and s.acked == MATCHES
        assert s.roster and s.roster[-1].startswith("roster on the box:"), s.roster
        assert s.space and s.space["matches_left"] > 0, s.space
        stored(db, template[1])
        bursts = port.bursts
        assert len(bursts) == 4, bursts  # before: HELLO, ACK, LIST, READ..., ACK, NAMES, ROSTER, SPACE
        assert bursts[0] == ["HELLO"] and bursts[1] == ["ACK", "LIST", "NAMES"], bursts
        assert set(bursts[2]) == {"READ"}, bursts
        assert bursts[3][0] == "ACK" and bursts[3][-1] == "SPACE" and "ROSTER" in bursts[3], bursts
        ser.close()
        assert box_unacked(vp) == []
    finally:
        ser.close()
        vp.close()


class Flipped(Bursts):
    """Bursts, and a bit flipped in the n-th byte read after the write that asks SPACE."""

    def __init__(self, ser, n):
        super().__init__(ser)
        self.n, self.armed, self.seen = n, False, 0

    def write(self, data):
        self.armed = self.armed or b" SPACE " in data
        return super().write(data)

    def read(self, n):
        data = self.ser.read(n)
        if self.armed and self.n is not None and self.seen <= self.n < self.seen + len(data):
            b = bytearray(data)
            b[self.n - self.seen] ^= 4
            data, self.n = bytes(b), None
        if self.armed:
            self.seen += len(data)
        return data


@pytest.mark.parametrize("n, again", [(20, ["ACK"]), (80, ["ROSTER"])])  # in the ACK's reply, the ROSTER's
def test_a_reply_damaged_in_the_last_write_is_asked_again(template, tmp_path, n, again):
    vp, ser = boot(template, tmp_path)
    try:
        port = Flipped(ser, n)
        db = str(tmp_path / "club.sqlite")
        s = pull.sync(link.Client(port, timeout=10.0), Store(db))
        assert port.n is None  # flipped
        assert len(s.new) == MATCHES and s.acked == MATCHES
        assert s.roster and s.roster[-1].startswith("roster on the box:"), s.roster
        assert s.space and s.space["matches_left"] > 0, s.space
        stored(db, template[1])
        # asked again alone, then SPACE again: it counts what they wrote
        assert port.bursts[4:] == [again, ["SPACE"]], port.bursts
        ser.close()
        assert box_unacked(vp) == []
    finally:
        ser.close()
        vp.close()


assert mpy  # the micropython marker's module (its fixtures run the virtual Pico)
