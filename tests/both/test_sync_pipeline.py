"""A sync asks for all its files at once and stores each as it arrives (issue 22 item 6):
against the real firmware on the virtual Pico, the real `scorebox sync`, a real SQLite
store. The READs of up to PIPELINE files go in one write (before: 4 at a time, the box
waiting for the PC between), and the PC hands each file on as it comes whole, in file
order, while the box streams the next."""

import mpy
import pytest
from boxfill import fill
from picoheap import PicoHeapVirtualPico
from test_sync_faults import box_unacked
from test_sync_stream import Watched, stored

from scorebox.device import link
from scorebox.store.sqlite import Store
from scorebox.sync import protocol, pull
from scorebox_core import frames

pytestmark = pytest.mark.micropython

MATCHES = 300


class Bursts(Watched):
    """Watched, and the kinds of the requests in each write burst (up to a flush)."""

    def __init__(self, ser):
        super().__init__(ser)
        self.bursts, self.burst = [], []

    def write(self, data):
        self.burst += [frames.decode(line)[1] for line in data.splitlines()]
        return super().write(data)

    def flush(self):
        self.bursts.append(self.burst)
        self.burst = []
        return self.ser.flush()


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    return fill(tmp_path_factory.mktemp("pipeline"), MATCHES, seed=5)


def boot(template, tmp_path):
    flash = str(tmp_path / "box.flash")
    with open(template[0], "rb") as f, open(flash, "wb") as g:
        g.write(f.read())
    vp = PicoHeapVirtualPico(flash)
    ser = link.open_port(vp.port)
    vp.wait_ready(link.Client(ser, timeout=1.0))
    return vp, ser


def test_a_sync_asks_for_every_file_in_one_write(template, tmp_path):
    vp, ser = boot(template, tmp_path)
    try:
        port = Bursts(ser)
        db = str(tmp_path / "club.sqlite")
        s = pull.sync(link.Client(port, timeout=10.0), Store(db))
        assert len(s.new) == MATCHES and s.acked == MATCHES
        stored(db, template[1])
        reads = [b for b in port.bursts if "READ" in b]
        asked = [len(body["files"]) for kind, body in port.sent if kind == "READ"]
        # one write, one READ of every file (before: a READ a file; 2 writes of 4 and 2 before that)
        assert len(reads) == 1 and reads[0] == ["READ"] and asked[0] >= 6, (port.bursts, asked)
        ser.close()
        assert box_unacked(vp) == []
    finally:
        ser.close()
        vp.close()


def _handed(tmp_path, template, flip=None):
    """(each's calls as (i, length, bytes read by then), files, the bytes, all bytes read)."""
    vp, ser = boot(template, tmp_path)
    try:
        port = Watched(ser, flip=flip)
        client = link.Client(port, timeout=10.0)
        client.reads = 32  # as sync() takes it from HELLO
        files = [(n, s) for n, s in client.request("LIST", {"after": 0})["files"] if n[0] == "g"]
        port.read_bytes = 0
        seen = []
        got = protocol.read_files(client, files, lambda i, data: seen.append((i, len(data), port.read_bytes)))
        return seen, files, got, port.read_bytes
    finally:
        ser.close()
        vp.close()


def test_each_file_is_handed_on_as_it_comes(template, tmp_path):
    """read_files' each(i, bytes) for every file in order, the first before the box has
    sent the second (before: all after the pipeline)."""
    seen, files, got, total = _handed(tmp_path, template)
    assert [i for i, _, _ in seen] == list(range(len(files))) and len(files) >= 6
    assert [n for _, n, _ in seen] == [s for _, s in files] == [len(d) for d in got]
    assert seen[0][2] < files[0][1] + files[1][1] < total / 2, (seen, total)


def test_a_file_read_again_keeps_its_place(template, tmp_path):
    """A bit flipped in the first file's second chunk: it is read again after the others
    have come, and still handed on first, the others after it in order."""
    seen, files, got, total = _handed(tmp_path, template, flip=(frames.CHUNK + 100, 2))
    assert [i for i, _, _ in seen] == list(range(len(files)))
    assert [n for _, n, _ in seen] == [s for _, s in files] == [len(d) for d in got]
    assert seen[0][2] > sum(s for _, s in files), (seen, total)  # after the rest had come


assert mpy  # the micropython marker's module (its fixtures run the virtual Pico)
