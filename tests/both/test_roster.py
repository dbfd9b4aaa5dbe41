"""The roster as a new club meets it (#12 Must-fix 1), on the virtual Pico: archers added on
the PC reach a new box, a match shot there with two of them comes back with their names,
and sync merges the two rosters without ever failing on one (#13 item 11)."""

import os
import subprocess
import sys

import mpy
import pytest

from scorebox.device import link
from scorebox.sim.png import pixels
from scorebox.sim.run import run_script
from scorebox.sim.vpico import VirtualPico
from scorebox.store.sqlite import Store
from scorebox.sync.protocol import push_roster

pytestmark = pytest.mark.micropython

DEMO_KEYS = os.path.join(mpy.ROOT, "docs", "demo.keys")  # A picks the 1st name, B the 3rd; A wins 1-0


def scorebox(*args):
    exe = os.path.join(os.path.dirname(sys.executable), "scorebox")
    return subprocess.run([exe, *args], capture_output=True, text=True, timeout=300)


def sync(flash, db, *more):
    vp = VirtualPico(flash)
    try:
        ser = link.open_port(vp.port)
        vp.wait_ready(link.Client(ser, timeout=1.0, retries=0))
        ser.close()
        return scorebox("sync", "--port", vp.port, "--db", db, *more)
    finally:
        vp.close()


_GLYPHS = None


def glyphs():
    """{8 rows of 8 pixels: character} of the box's text font (MicroPython's framebuf)."""
    global _GLYPHS
    if _GLYPHS is None:
        code = (
            "import framebuf\n"
            "b = bytearray(8)\n"
            "fb = framebuf.FrameBuffer(b, 8, 8, framebuf.MONO_HLSB)\n"
            "for c in range(32, 127):\n"
            "    fb.fill(0)\n"
            "    fb.text(chr(c), 0, 0, 1)\n"
            "    print(c, bytes(b).hex())\n"
        )
        p = mpy.run(["-c", code])
        assert p.returncode == 0, p.stderr
        _GLYPHS = {}
        for c, hexed in (ln.split() for ln in p.stdout.strip().splitlines()):
            _GLYPHS.setdefault(bytes.fromhex(hexed), chr(int(c)))
    return _GLYPHS


def read_text(frame, x, y, inverted=False, width=16):
    """The characters drawn at (x, y) on a frame, read back pixel for pixel."""
    rows = pixels(frame)
    out = ""
    for i in range(width):
        cell = bytes(
            sum((rows[y + r][x + 8 * i + c] ^ inverted) << (7 - c) for c in range(8) if x + 8 * i + c < 128)
            for r in range(8)
        )
        out += glyphs().get(cell, "?")
    return out.rstrip()


def test_a_new_club_sees_its_archers_names_everywhere(tmp_path):
    """The done-when of #12: a new box and a new store; four archers added on the PC, sync,
    a match on the box with two of them, sync: the names in matches, show, stats, the
    report and the box's history screen."""
    flash, db = str(tmp_path / "box.flash"), str(tmp_path / "club.sqlite")
    p = scorebox("archers", "add", "Ann", "Bob", "Cat", "Dan", "--db", db)
    assert p.returncode == 0, p.stderr
    p = sync(flash, db)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "roster on the box: 4 archers" in p.stdout

    frames = run_script(DEMO_KEYS, state=flash)  # no --roster: the names are the PC's
    frame, on, _ = frames[-1]
    assert read_text(frame, 1, 1, inverted=True, width=7) == "History"
    assert read_text(frame, 1, 11, inverted=True, width=15) == "#1 Ann 1-0"  # the winner by name
    b = Box(flash)
    try:
        assert b.names() == ["Ann", "Cat", "Bob", "Dan"]  # the box offers the last picked first
    finally:
        b.close()

    p = sync(flash, db)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "1 new match stored" in p.stdout
    listed = scorebox("matches", "--db", db).stdout.splitlines()
    assert listed[1].split()[5:7] == ["Ann", "Cat"], listed
    shown = scorebox("show", "1", "--db", db).stdout
    assert "A: Ann   B: Cat" in shown and "Match: A (Ann) wins" in shown
    stats = scorebox("stats", "--db", db).stdout
    assert [ln.split()[0] for ln in stats.splitlines()[1:3]] == ["Ann", "Cat"], stats
    one = scorebox("stats", "ann", "--db", db)  # names compared case-insensitively
    assert one.returncode == 0 and one.stdout.startswith("Ann\n"), one.stdout + one.stderr
    report = str(tmp_path / "report.html")
    assert scorebox("report", "--db", db, "--out", report).returncode == 0
    html = open(report, encoding="utf-8").read()
    assert '"A":"Ann"' in html and '"B":"Cat"' in html  # the replay of the match
    # The box now offers the two who shot first, then the others (most recent first).
    p = sync(flash, db)
    assert p.returncode == 0 and "roster on the box: 4 archers" in p.stdout
    assert Store(db).box_names() == ["Ann", "Cat", "Bob", "Dan"]


class Box:
    """A box on the pty with a client, for the roster frames."""

    def __init__(self, flash):
        self.vp = VirtualPico(flash)
        self.ser = link.open_port(self.vp.port)
        self.client = link.Client(self.ser, timeout=3.0)
        self.vp.wait_ready(self.client)

    def names(self):
        got, out = None, []
        while got is None or len(out) < got["total"]:
            got = self.client.request("NAMES", {"from": len(out)})
            out += got["names"]
        return out

    def close(self):
        self.ser.close()
        self.vp.close()


@pytest.fixture
def box(tmp_path):
    b = Box(str(tmp_path / "box.flash"))
    yield b
    b.close()


def test_sync_merges_the_rosters_and_never_fails_on_one(box, tmp_path):
    store = Store(str(tmp_path / "club.sqlite"))
    c = box.client
    c.request("ROSTER", {"names": ["Zed", "Ann"]})  # on the box only (an older PC's whole list)
    for name in ("ann", "Bob", "Dan"):
        store.add_archer(name)
    store.retire_archer("Dan")
    lines = push_roster(c, store)
    assert lines == ["roster on the box: 3 archers: ann, Bob, Zed; added to the store from the box: Zed"]
    assert box.names() == ["ann", "Bob", "Zed"]  # Ann is ann (case); Dan retired; Zed kept
    # A name the box cannot take, stored from an old match, is left out: sync goes on.
    store.db.execute("INSERT INTO archers (name) VALUES (?)", ("Esc\x1bape",))
    store.db.execute("INSERT INTO archers (name) VALUES (?)", ("Quite a long name",))
    assert push_roster(c, store) == ["roster on the box: 3 archers: ann, Bob, Zed"]
    # And a box given such a name by hand skips it rather than refusing the lot.
    assert c.request("ROSTER", {"names": ["Eve", 7, "x\ny", "Far too long a name", "-"]}) == {
        "roster": 1,
        "skipped": 4,
    }
    assert box.names() == ["Eve"]


def test_a_renamed_archer_keeps_the_old_name_from_coming_back(box, tmp_path):
    store = Store(str(tmp_path / "club.sqlite"))
    store.add_archer("Bob")
    push_roster(box.client, store)
    store.rename_archer("bob", "Robert")
    assert push_roster(box.client, store) == ["roster on the box: 1 archer: Robert"]
    assert box.names() == ["Robert"]


def test_a_long_roster_goes_in_pieces_the_box_can_hold(box, tmp_path):
    """The box keeps 200 names (store.ROSTER_MAX); they go 50 a frame (about 1 KB), so its
    192 KB heap never holds a large frame (a 54 KB ROSTER killed it)."""
    store = Store(str(tmp_path / "club.sqlite"))
    names = ["Archer %05d" % i for i in range(250)]
    for n in names:
        store.add_archer(n)
    assert push_roster(box.client, store) == ["roster on the box: 200 archers: %s and 195 more" % ", ".join(names[:5])]
    assert box.names() == names[:200]
    assert box.vp.proc.poll() is None


def test_a_whole_match_plays_with_the_longest_roster_on_the_picos_heap(tmp_path):
    """200 names of 12 characters (the most the box keeps), sent by sync, then the demo's
    match keyed through the setup screen at -X heapsize=192k as .mpy: it ends on the
    history screen, the winner by name."""
    flash = str(tmp_path / "box.flash")
    store = Store(str(tmp_path / "club.sqlite"))
    for i in range(200):
        store.add_archer("Archer %05d" % i)
    b = Box(flash)
    try:
        assert push_roster(b.client, store)[0].startswith("roster on the box: 200 archers: ")
    finally:
        b.close()
    frames = run_script(DEMO_KEYS, state=flash)
    assert read_text(frames[-1][0], 1, 11, inverted=True, width=15) == "#1 Archer 1-0"


def test_a_name_the_box_refuses_never_fails_a_sync(tmp_path):
    """#13 item 11: one such name made every later sync end in "refused ROSTER", exit 2."""
    flash, db = str(tmp_path / "box.flash"), str(tmp_path / "club.sqlite")
    s = Store(db)
    s.add_archer("Ann")
    s.db.execute("INSERT INTO archers (name) VALUES (?)", ("Tab\tbed",))  # as an old import stored it
    for _ in range(2):
        p = sync(flash, db)
        assert p.returncode == 0 and "roster on the box: 1 archer: Ann\n" in p.stdout, p.stdout + p.stderr


def test_a_piece_sent_again_after_a_lost_answer_is_answered_again(box):
    c = box.client
    assert c.request("ROSTER", {"names": ["Ann"], "part": 0, "last": False}) == {"roster": 1, "skipped": 0}
    assert c.request("ROSTER", {"names": ["Bob"], "part": 1, "last": False}) == {"roster": 2, "skipped": 0}
    assert c.request("ROSTER", {"names": ["Bob"], "part": 1, "last": False}) == {"roster": 2, "skipped": 0}
    assert c.request("ROSTER", {"names": ["Cat"], "part": 2, "last": True}) == {"roster": 3, "skipped": 0}
    assert box.names() == ["Ann", "Bob", "Cat"]
    with pytest.raises(link.DeviceError, match="roster part 5 out of order"):
        c.request("ROSTER", {"names": ["Dan"], "part": 5, "last": True})
    assert box.names() == ["Ann", "Bob", "Cat"]
