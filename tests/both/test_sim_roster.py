"""`scorebox sim --roster` with a real club's roster: 40 names died as the virtual Pico's
argument (the unix port holds about 250 characters: "FATAL: uncaught NLR"); the names now go
in a temporary file, from a comma-separated list or @FILE (the CSV `scorebox archers import`
takes, or one name a line). Names the box refuses (box/link.py name_ok, the box's own test)
give one line, exit 2, and leave the box's memory as it was."""

import fcntl
import hashlib
import os
import pty
import select
import struct
import subprocess
import sys
import termios
import time

import pytest

from scorebox.device import link
from scorebox.sim.vpico import VirtualPico

pytestmark = pytest.mark.micropython

SCOREBOX = os.path.join(os.path.dirname(sys.executable), "scorebox")
DEMO_KEYS = os.path.join(
    os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "docs", "demo.keys"
)
CLUB = ["Archer %02d" % i if i % 2 else "Member%04dx" % i for i in range(40)]  # 9-11 characters each


def scorebox(*args, tmp):
    """The CLI with its own temporary folder, to see that it leaves nothing there."""
    env = dict(os.environ, TMPDIR=str(tmp))
    return subprocess.run([SCOREBOX, *args], capture_output=True, text=True, timeout=300, env=env)


@pytest.fixture(scope="module")
def tmp_folder(tmp_path_factory):
    return tmp_path_factory.mktemp("tmp")  # one for the module: the .mpy build cached there is built once


@pytest.fixture
def tmp(tmp_folder):
    yield tmp_folder
    assert [n for n in os.listdir(str(tmp_folder)) if n.startswith("scorebox-sim-")] == []  # the roster's file is gone


@pytest.fixture
def wait_keys(tmp_path):
    path = tmp_path / "wait.keys"
    path.write_text("wait:200\n")
    return str(path)


def box_names(flash):
    """The roster on the box, as sync reads it (NAMES frames)."""
    vp = VirtualPico(flash)
    try:
        ser = link.open_port(vp.port)
        try:
            client = link.Client(ser, timeout=3.0)
            vp.wait_ready(client)
            got, out = None, []
            while got is None or len(out) < got["total"]:
                got = client.request("NAMES", {"from": len(out)})
                out += got["names"]
            return out
        finally:
            ser.close()
    finally:
        vp.close()


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def test_a_clubs_forty_names_reach_a_new_box(tmp_path, tmp, wait_keys):
    names = ",".join(CLUB)
    assert len(names) > 400  # well past the unix port's argument
    flash = str(tmp_path / "box.flash")
    p = scorebox("sim", "--keys", wait_keys, "--roster", names, "--state", flash, tmp=tmp)
    assert p.returncode == 0, p.stdout[-500:] + p.stderr
    assert box_names(flash) == CLUB


def test_the_most_names_the_box_keeps_play_a_whole_match(tmp_path, tmp):
    """200 names of 12 characters on the command line, the demo's match keyed through the
    setup screen at the sim's heap: the names given are not held on the heap beside the box's
    own (they were: MemoryError in the frame writer)."""
    names = ["Archer %05d" % i for i in range(200)]
    flash = str(tmp_path / "box.flash")
    p = scorebox("sim", "--keys", DEMO_KEYS, "--roster", ",".join(names), "--state", flash, tmp=tmp)
    assert p.returncode == 0, p.stdout[-500:] + p.stderr
    got = box_names(flash)
    assert got[:2] == [names[0], names[2]] and sorted(got) == names  # A took the 1st name, B the 3rd


@pytest.mark.parametrize(
    "text",
    [
        "Member No,Name,Email\n" + "".join('%d,"%s",x%d@club.org\n' % (i, n, i) for i, n in enumerate(CLUB)),
        "\ufeff" + "".join(n + "\n" for n in CLUB) + "\n",  # a plain list, with an editor's BOM and a blank line
    ],
    ids=["members-csv", "one-a-line"],
)
def test_the_roster_comes_from_a_clubs_file_left_as_it_was(tmp_path, tmp, wait_keys, text):
    members = tmp_path / "members.csv"
    members.write_text(text, encoding="utf-8")
    before = digest(str(members))
    flash = str(tmp_path / "box.flash")
    p = scorebox("sim", "--keys", wait_keys, "--roster", "@" + str(members), "--state", flash, tmp=tmp)
    assert p.returncode == 0, p.stdout[-500:] + p.stderr
    assert box_names(flash) == CLUB
    assert digest(str(members)) == before


@pytest.mark.parametrize(
    "given,said",
    [
        ("Ann,Bartholomew-the-Bold", "'Bartholomew-the-Bold' is not a name the box takes (1-12 printable ASCII"),
        ("Ann,Zo\u00eb", "is not a name the box takes"),  # the box draws ASCII only
        ("Ann,B", "'B' is not a name the box takes"),  # a side's own name
        ("Ann,-", "'-' is not a name the box takes"),  # the box's "no 2nd archer"
        (",".join("N%d" % i for i in range(201)), "201 names: the box keeps 200 at most"),
        (" , ", "names no one"),
        ("@{tmp}/missing.csv", "missing.csv: cannot read: No such file or directory"),
        ("@{csv}", "no name column in the first line (one of: name, archer"),
    ],
    ids=["too-long", "not-ascii", "side", "dash", "201-names", "empty", "missing-file", "no-name-column"],
)
def test_names_the_box_refuses_give_one_line_and_change_nothing(tmp_path, tmp, wait_keys, given, said):
    csv_path = tmp_path / "scores.csv"
    csv_path.write_text("Member No,Email\n1,ann@club.org\n")
    given = given.format(tmp=tmp_path, csv=csv_path)
    new = str(tmp_path / "new.flash")
    p = scorebox("sim", "--keys", wait_keys, "--roster", given, "--state", new, tmp=tmp)
    assert p.returncode == 2 and said in p.stderr, p.stdout[-500:] + p.stderr
    assert p.stderr.count("\n") == 1 and "Traceback" not in p.stderr
    assert not os.path.exists(new)  # no box was made

    kept = str(tmp_path / "kept.flash")  # a box with its memory: the refusal leaves it as it was
    assert scorebox("sim", "--keys", wait_keys, "--roster", "Ann,Bob", "--state", kept, tmp=tmp).returncode == 0
    before = digest(kept)
    p = scorebox("sim", "--keys", wait_keys, "--roster", given, "--state", kept, tmp=tmp)
    assert p.returncode == 2 and said in p.stderr, p.stdout[-500:] + p.stderr
    assert digest(kept) == before


def interactive(args, tmp, cols=140, rows=40):
    """`scorebox sim ARGS` on a pty, q after it boots; (exit status, what it printed)."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    env = dict(os.environ, TMPDIR=str(tmp))
    p = subprocess.Popen([SCOREBOX, "sim", *args], stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True)
    os.close(slave)
    out = bytearray()
    end, quit_at = time.monotonic() + 60, time.monotonic() + 3  # the box boots and draws its home screen
    while p.poll() is None and time.monotonic() < end:
        if quit_at and time.monotonic() > quit_at:
            os.write(master, b"q")
            quit_at = None
        if select.select([master], [], [], 0.05)[0]:
            try:
                out.extend(os.read(master, 65536))
            except OSError:  # the child closed the pty
                break
    try:
        while select.select([master], [], [], 0.2)[0]:
            out.extend(os.read(master, 65536))
    except OSError:
        pass
    os.close(master)
    return p.wait(timeout=5), out.decode(errors="replace")


def test_the_interactive_sim_takes_the_roster_too(tmp_path, tmp):
    flash = str(tmp_path / "box.flash")
    rc, out = interactive(["--state", flash, "--roster", ",".join(CLUB)], tmp)
    assert rc == 0, out[-2000:]
    assert box_names(flash) == CLUB
    rc, out = interactive(["--state", str(tmp_path / "other.flash"), "--roster", "Ann,Bartholomew-the-Bold"], tmp)
    assert rc == 2 and "roster: 'Bartholomew-the-Bold' is not a name the box takes" in out, out[-2000:]
    assert not os.path.exists(str(tmp_path / "other.flash"))


def test_a_roster_for_a_box_that_has_one_says_it_is_ignored(tmp_path, tmp, wait_keys):
    """The box keeps its own roster (vpico/run.py first_roster): --roster was dropped without a word."""
    flash = str(tmp_path / "box.flash")
    p = scorebox("sim", "--keys", wait_keys, "--roster", "Ann,Bob", "--state", flash, tmp=tmp)
    assert p.returncode == 0 and p.stderr == "", p.stderr
    said = "the box already has 2 archers: --roster ignored (a new --state starts a new box)"
    p = scorebox("sim", "--keys", wait_keys, "--roster", "Cat", "--state", flash, tmp=tmp)
    assert p.returncode == 0 and p.stderr == said + "\n", p.stdout[-500:] + p.stderr
    rc, out = interactive(["--state", flash, "--roster", "Cat,Dan"], tmp)
    assert rc == 0 and said in out, out[-2000:]
    assert box_names(flash) == ["Ann", "Bob"]
