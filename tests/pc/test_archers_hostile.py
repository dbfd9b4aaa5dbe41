"""What a hostile box or file can do to the roster, bounded (#21 items 15 and 12): a box that
lists 400 names adds at most what a box holds (200) in one sync and says what was left out;
`archers import` of /dev/zero, of a line without end, of a file too long for a member list or
of one that is not text ends at once with one line; `archers` lists names from a box's matches
with C1 controls and bidi overrides escaped. A real SQLite store, a hostile box answering
real frames over a real pseudo-terminal, the real command line."""

import os
import resource
import subprocess
import sys

import pytest
from storegen import match_items
from test_sync_hostile_box import HostileBox

from scorebox.device import link
from scorebox.store import roster
from scorebox.store.sqlite import Store
from scorebox.sync.protocol import push_roster


def limited():
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))  # the old import of /dev/zero grew for ever


def scorebox(*args, timeout=60):
    exe = os.path.join(os.path.dirname(sys.executable), "scorebox")
    return subprocess.run([exe, *args], capture_output=True, text=True, timeout=timeout, preexec_fn=limited)


@pytest.fixture
def db(tmp_path):
    return str(tmp_path / "club.sqlite")


def flood(names):
    """A box that lists names (100 a frame, as the firmware does) and takes any roster."""

    def reply(kind, body):
        if kind == "NAMES":
            at = body["from"]
            return "OK", {"names": names[at : at + 100], "total": len(names)}
        if kind == "ROSTER":
            return "OK", {"roster": len(body["names"]), "skipped": 0}
        return "ERR", {"error": "unknown request"}

    return reply


def test_a_box_listing_more_than_a_box_holds_adds_200_and_says_what_was_left_out(db):
    names = ["Flood %05d" % i for i in range(1000)]
    box = HostileBox(flood(names))
    store = Store(db)
    store.add_archer("Ann")
    try:
        client = link.Client(link.open_port(box.port), timeout=3.0, retries=0)
        lines = push_roster(client, store)
    finally:
        box.close()
    on = [r[0] for r in store.archers()]
    assert len(on) == 1 + roster.BOX_MAX and on[1:] == names[: roster.BOX_MAX]
    assert lines[1].startswith("roster on the box: 200 archers: Ann, Flood 00000, Flood 00001")
    assert lines[1].endswith("; added to the store from the box: %s and 195 more" % ", ".join(names[:5]))
    assert lines[0] == (
        "200 more names from the box NOT added (a sync adds 200 at most): "
        "Flood 00200, Flood 00201, Flood 00202, Flood 00203, Flood 00204 and 195 more; "
        "`scorebox archers add` adds one"
    ), lines
    store.close()


@pytest.mark.parametrize(
    "content, said",
    [
        ("/dev/zero", "not a text file (a NUL character in it)"),
        (b"name\nAnn\x00\x00\x00\x01\x02Bob\n", "not a text file (a NUL character in it)"),
        (b"name\n" + b"x" * 100000 + b"\n", "a line longer than 8192 characters"),  # text.MAX_LINE
        (b"name\n" + (b"," * 99 + b"\n") * 200000, "more than 16000000 characters"),  # text.MAX_TEXT
    ],
    ids=["dev-zero", "nul", "long-line", "too-long"],
)
def test_an_import_of_what_is_no_member_list_ends_with_one_line(db, tmp_path, content, said):
    path = content
    if isinstance(content, bytes):
        path = str(tmp_path / "members.csv")
        with open(path, "wb") as f:
            f.write(content)
    p = scorebox("archers", "import", path, "--db", db)
    assert p.returncode == 2 and p.stderr.startswith("%s: %s" % (path, said)), p.stderr[-500:]
    assert len(p.stderr.splitlines()) == 1 and not os.path.exists(db)  # nothing added, no store made


def test_names_from_a_box_are_listed_with_their_controls_escaped(db):
    """A box's match keeps its names as keyed (an old box, a hostile one): C1 controls (CSI,
    0x9b) and bidi overrides (U+202E) would recolour or reorder the terminal."""
    _, (_, header, log, extras) = next(match_items(1, seed=1))
    header = dict(header, archers=[["Ev\x9b31mil"], ["\u202eboB"]])
    Store(db).add_matches("e6614103e7a1b2c3", [(1, header, log, extras)], from_box=True)
    p = scorebox("archers", "--db", db)
    assert p.returncode == 0, p.stderr
    assert "Ev\\x9b31mil" in p.stdout and "\\u202eboB" in p.stdout
    assert "\x9b" not in p.stdout and "\u202e" not in p.stdout
