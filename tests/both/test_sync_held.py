"""A match the store already holds is acknowledged only when it is the same match (issue
13, High 5): the sync hashes the box's header and events and compares them with the
store's copy. Another match under the same number among the same ones (an imported fake)
is kept in the store and left on the box, and the summary says so. Before, the number
alone was compared and the box freed the real match. (A journal wiped by hand, its numbers
started again at 1, is stored as the box's next run: tests/both/test_journal_wiped.py.)"""

import json

import pytest
from test_sync import scorebox, start
from test_sync_faults import box_unacked

from scorebox.device import link
from scorebox.device.link import DeviceError
from scorebox.store.sqlite import Store
from scorebox.sync.pull import sync

pytestmark = pytest.mark.micropython


class AcksLost(link.Client):
    """A client whose acknowledgements never reach the box (a cable pulled just then)."""

    def request(self, kind, body=None):
        if kind == "ACK" and (body.get("n") or "first" in body):  # the empty ACK (the box learns its store) gets there
            raise DeviceError("the box went away")
        return super().request(kind, body)

    def pipeline(self, kind, bodies, each=None):  # a sync's last write carries its ACKs (issue 22 item 6)
        for k, body in zip(kind if isinstance(kind, list) else [kind] * len(bodies), bodies):
            if k == "ACK" and (body.get("n") or "first" in body):
                raise DeviceError("the box went away")
        return super().pipeline(kind, bodies, each)


def test_held_matches_are_compared_before_they_are_acknowledged(tmp_path):
    vp, matches = start(tmp_path, 5)
    try:
        db = str(tmp_path / "club.sqlite")
        ser = link.open_port(vp.port)
        try:
            with pytest.raises(DeviceError):
                sync(AcksLost(ser, timeout=2.0), Store(db), roster=False, clock=False)
        finally:
            ser.close()
        s = Store(db)
        assert s.count() == 5 and len(box_unacked(vp)) == 5  # stored, none acknowledged
        # Match 2 in the store becomes another match by that number (as a hand-edited
        # import would make it); match 4 is lost from the store.
        fake = list(reversed(matches[1]["events"]))
        s.db.execute("UPDATE matches SET log = ? WHERE number = 2", (json.dumps(fake),))
        s.db.execute("DELETE FROM matches WHERE number = 4")
        s.close()
        p = scorebox("sync", "--port", vp.port, "--db", db)
        assert p.returncode == 0, p.stdout + p.stderr
        assert "1 new match stored" in p.stdout  # match 4 again
        assert "match 2 NOT acknowledged, left on the box" in p.stdout
        assert "different match 2" in p.stdout
        assert box_unacked(vp) == [2]  # 1, 3, 5: the same match in the store: acknowledged
        s = Store(db)
        (log,) = s.db.execute("SELECT log FROM matches WHERE number = 2").fetchone()
        assert json.loads(log) == fake  # the store's copy is kept as it was
        assert s.count() == 5
        s.close()
        again = scorebox("sync", "--port", vp.port, "--db", db)  # never acknowledged later either
        assert "match 2 NOT acknowledged" in again.stdout and box_unacked(vp) == [2]
    finally:
        vp.close()
