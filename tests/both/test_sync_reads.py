"""A READ of several files (issue 22 item 6): a box whose HELLO says "reads" is asked for
its files in one request line, where each file had a READ of its own (125 ms of the box's
time went to reading request bytes, mostly READs); each file is streamed and taken as a
READ of its own, so a damaged one is asked again alone (tests/both/test_sync_stream.py). A
HELLO whose "reads" is no count ends the sync in one line."""

import mpy
import pytest
from boxfill import fill
from test_sync_faults import box_unacked
from test_sync_pipeline import boot
from test_sync_stream import Watched, stored

from scorebox.device import link
from scorebox.store.sqlite import Store
from scorebox.sync import pull

pytestmark = pytest.mark.micropython

MATCHES = 300


def test_the_box_streams_several_files_for_one_read_and_refuses_hostile_ones():
    r = mpy.run(["tests/mpy/link_reads.py"], heapsize="8m")
    assert r.returncode == 0 and "ALL OK" in r.stdout, r.stdout + r.stderr


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    return fill(tmp_path_factory.mktemp("reads"), MATCHES, seed=11)


def test_a_sync_asks_for_its_files_in_one_read(template, tmp_path):
    vp, ser = boot(template, tmp_path)
    try:
        port = Watched(ser)
        db = str(tmp_path / "club.sqlite")
        client = link.Client(port, timeout=10.0)
        s = pull.sync(client, Store(db))
        assert len(s.new) == MATCHES and s.acked == MATCHES
        stored(db, template[1])
        asked = [body for kind, body in port.sent if kind == "READ"]
        assert client.reads == 32 and len(asked) == 1 and len(asked[0]["files"]) >= 6, asked
        ser.close()
        assert box_unacked(vp) == []
    finally:
        ser.close()
        vp.close()


@pytest.mark.parametrize("value", [True, "32", -1, 0, 2.5, None])
def test_a_hello_whose_reads_is_no_count_ends_the_sync_in_one_line(value):
    class Hello:
        """Just enough of a Client for sync's first lines: its HELLO, then it stops."""

        reads = 7

        def request(self, kind, body):
            if kind == "HELLO":
                return {"device": "v-odd", "protocol": 2, "reads": value}
            raise link.DeviceError("stop")

        def pipeline(self, *a):
            raise link.DeviceError("stop")

    class Store0:
        def device(self, *a):
            pass

        def identity(self):
            return "0" * 16

    client = Hello()
    with pytest.raises(link.DeviceError, match="reply to HELLO is not valid \\(reads ") as e:
        pull.sync(client, Store0(), roster=False)
    assert "\n" not in str(e.value) and client.reads == 7
