"""A stream the box cannot finish ends at the box's ERR, not at the PC's timeout: the box's
own link code (box/link.py, on CPython) streams a journal file that ends before the
length its BIN frame said (as a file cut short, or a heap that fails mid-stream, would
stop it) and ends the stream with ERR where the next chunk would have begun; the PC's
real client, over a real pty, keeps the chunks that came whole and stops waiting there.
Before, the PC waited for the missing bytes to its whole timeout (10 s in a sync), and
took the ERR for a damaged reply."""

import os

import pytest
from hostilebox import RawBox

from box import link as box_link
from scorebox.device import link
from scorebox_core import frames

SAID = 3 * frames.CHUNK  # the length the box's BIN frame says


class Sink:
    def __init__(self):
        self.out = b""

    def write(self, data):
        self.out += bytes(data)


def box_streaming(path):
    """A RawBox that answers each READ with the box's Link streaming path for SAID bytes."""

    def answer(seq, kind, body):
        sink = Sink()
        stream = box_link.Stream(open(path, "rb"), SAID)
        box_link.Link(sink, None, None, None)._answer(seq, kind, lambda b: stream, body)
        return sink.out

    return RawBox(answer)


@pytest.fixture
def client_of(tmp_path):
    opened = []

    def make(size):
        path = tmp_path / "g000001.tbj"
        path.write_bytes(os.urandom(size))
        box = box_streaming(path)
        ser = link.open_port(box.port)
        opened.append((box, ser))
        return link.Client(ser, timeout=30.0, retries=0), path.read_bytes()

    yield make
    for box, ser in opened:
        ser.close()
        box.close()


def test_the_chunks_before_the_err_are_kept_and_the_wait_ends_there(client_of):
    client, data = client_of(frames.CHUNK + 500)
    got = client.request("READ", {"file": "g000001.tbj", "offset": 0, "length": SAID})
    assert got == data[: frames.CHUNK]  # the whole chunk; the 500 bytes after it had no CRC
    assert client.damaged == 0  # the box said why: nothing arrived damaged
    assert client.buf.startswith(b"\n~SB") and b" ERR " in client.buf  # read up to the ERR, no further


def test_a_stream_with_no_whole_chunk_is_the_boxs_sentence(client_of):
    client, _ = client_of(0)
    with pytest.raises(link.DeviceError, match="the box refused READ: READ failed: the file ended 12288 bytes early"):
        client.request("READ", {"file": "g000001.tbj", "offset": 0, "length": SAID})
    assert client.damaged == 0
