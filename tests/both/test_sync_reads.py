"""A READ of several files (issue 22 item 6): a box whose HELLO says "reads" is asked for
its files in one request line, where each file had a READ of its own (125 ms of the box's
time went to reading request bytes, mostly READs); each file is streamed and taken as a
READ of its own, so a damaged one is asked again alone (tests/both/test_sync_stream.py). A
box without "reads" (protocol 2 before it) is still synced a READ a file."""

import mpy
import pytest
from boxfill import fill
from test_sync_faults import box_unacked
from test_sync_pipeline import boot
from test_sync_stream import Watched, stored

from scorebox.device import link
from scorebox.store.sqlite import Store
from scorebox.sync import pull
from scorebox_core import frames

pytestmark = pytest.mark.micropython

MATCHES = 300


def test_the_box_streams_several_files_for_one_read_and_refuses_hostile_ones():
    r = mpy.run(["tests/mpy/link_reads.py"], heapsize="8m")
    assert r.returncode == 0 and "ALL OK" in r.stdout, r.stdout + r.stderr


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    return fill(tmp_path_factory.mktemp("reads"), MATCHES, seed=11)


class NoReads(Watched):
    """The box as the firmware before "reads" answered: its HELLO without it (the rest of
    the reply as the box sent it, CRC and all)."""

    def __init__(self, ser):
        super().__init__(ser)
        self.pending = b""
        self.hello = False  # HELLO's reply changed

    def read(self, n):
        self.pending += self.ser.read(n)
        if self.hello:  # the rest as it came: streams are not lines
            out, self.pending = self.pending, b""
            return out
        line, nl, rest = self.pending.rpartition(b"\n")
        if not nl:
            return b""
        self.pending = rest
        out = []
        for one in (line + b"\n").splitlines(keepends=True):
            try:
                seq, kind, body = frames.decode(one)
            except frames.FrameError:
                out.append(one)
                continue
            if kind == "OK" and isinstance(body, dict) and "reads" in body:
                one = frames.encode(seq, kind, {k: v for k, v in body.items() if k != "reads"})
                self.hello = True
            out.append(one)
        return b"".join(out)

    def reset_input_buffer(self):
        self.pending = b""
        self.ser.reset_input_buffer()


@pytest.mark.parametrize("reads", [True, False], ids=["reads", "older box"])
def test_a_sync_asks_for_its_files_in_one_read_or_one_a_read_from_an_older_box(template, tmp_path, reads):
    vp, ser = boot(template, tmp_path)
    try:
        port = Watched(ser) if reads else NoReads(ser)
        db = str(tmp_path / "club.sqlite")
        client = link.Client(port, timeout=10.0)
        s = pull.sync(client, Store(db))
        assert len(s.new) == MATCHES and s.acked == MATCHES
        stored(db, template[1])
        asked = [body for kind, body in port.sent if kind == "READ"]
        if reads:
            assert client.reads == 32 and len(asked) == 1 and len(asked[0]["files"]) >= 6, asked
        else:  # one READ a file, as before
            assert client.reads == 0 and len(asked) >= 6 and all("file" in b for b in asked), asked
        ser.close()
        assert box_unacked(vp) == []
    finally:
        ser.close()
        vp.close()


@pytest.mark.parametrize("value", [True, "32", -1, 0, 2.5, None])
def test_a_hello_whose_reads_is_no_count_is_asked_a_read_a_file(value):
    class Hello:
        """Just enough of a Client for sync's first lines: its HELLO, then it stops."""

        protocol, reads = 1, 7

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
    with pytest.raises(link.DeviceError, match="stop"):
        pull.sync(client, Store0(), roster=False)
    assert client.reads == 0
