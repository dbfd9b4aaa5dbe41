"""Leftovers of "one line, exit 2, nothing left behind" (issue 13, item 18): numbers past
SQLite's 64-bit integers, a store already holding rows no calendar has (stored before
import checked them), `report --out` a folder, and `scorebox face` writing through a
temporary name of its own (it wrote over a file named OUT.part)."""

import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile

import pytest
from handmatches import fill

from scorebox import cli
from scorebox.store.sqlite import Store

HUGE = str(2**64 + 5)


@pytest.fixture
def club(tmp_path):
    path = str(tmp_path / "club.sqlite")
    fill(Store(path)).close()
    return path


def run(capsys, *argv):
    code = cli.main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("ref", [HUGE, "-" + HUGE, "hand/" + HUGE])
def test_show_a_number_past_64_bits_is_one_line(club, capsys, ref):
    code, out, err = run(capsys, "show", ref, "--db", club)
    assert code == 2 and out == "" and err.count("\n") == 1 and "no match" in err


def test_report_replays_past_64_bits_means_all(club, tmp_path, capsys):
    out = str(tmp_path / "r.html")
    code, text, err = run(capsys, "report", "--db", club, "--replays", HUGE, "--out", out)
    assert code == 0 and "3 replayable" in text, err


def test_report_out_a_folder_is_one_line(club, tmp_path, capsys):
    folder = tmp_path / "out"
    folder.mkdir()
    code, out, err = run(capsys, "report", "--db", club, "--out", str(folder))
    assert code == 2 and err.count("\n") == 1 and os.listdir(folder) == []
    assert [n for n in os.listdir(tmp_path) if not n.startswith("club.sqlite")] == ["out"]  # no temporary file left


@pytest.mark.parametrize("started", [1e300, -1e300, "x"])
def test_bad_clocks_already_stored_do_not_crash(club, tmp_path, capsys, started):
    db = sqlite3.connect(club)
    db.execute("UPDATE matches SET started = ? WHERE id = 1", (started,))
    db.commit()
    db.close()
    code, out, err = run(capsys, "matches", "--db", club)
    assert code == 0 and " ? " in out.splitlines()[1], out + err
    code, out, err = run(capsys, "show", "1", "--db", club)
    assert code == 0 and "(store id 1), ?" in out, err
    code, out, err = run(capsys, "report", "--db", club, "--out", str(tmp_path / "r.html"))
    assert code == 0, err
    for fmt in ("csv", "json"):
        code, out, err = run(capsys, "export", "--db", club, "--format", fmt, "--out", str(tmp_path / fmt))
        assert code == 0, err


def test_face_writes_through_a_name_of_its_own(tmp_path, capsys):
    out = tmp_path / "ttb.svg"
    theirs = tmp_path / "ttb.svg.part"
    theirs.write_bytes(b"someone's file")
    code, _, err = run(capsys, "face", "tictacbow", "--out", str(out), "--no-pdf")
    assert code == 0, err
    assert theirs.read_bytes() == b"someone's file"
    assert not [n for n in os.listdir(tmp_path) if n.endswith(".part") and n != "ttb.svg.part"]


def as_other_user(argv):
    """argv run as a user the files' modes bind (root's are ignored: run as nobody then)."""
    exe = os.path.join(os.path.dirname(sys.executable), "scorebox")
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        if not shutil.which("setpriv"):
            pytest.skip("root without setpriv: modes bind no one")
        return ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", exe] + argv
    return [exe] + argv


@pytest.mark.parametrize("where", ["store", "folder", "new store", "new folder"])
def test_a_read_only_store_or_folder_is_one_line(club, where):
    base = tempfile.mkdtemp(prefix="scorebox-ro-")  # not under pytest's 0700 folders: nobody must reach it
    try:
        os.chmod(base, 0o755)
        folder = os.path.join(base, "ro")
        os.mkdir(folder)
        shutil.copy(club, os.path.join(folder, "club.sqlite"))
        os.chmod(os.path.join(folder, "club.sqlite"), 0o444 if where == "store" else 0o644)
        os.chmod(folder, 0o755 if where == "store" else 0o555)
        target = {"new store": "new.sqlite", "new folder": "sub/new.sqlite"}.get(where, "club.sqlite")
        before = sorted(os.listdir(folder))
        command = ["archers", "add", "Zed"]  # one that writes (one that reads reads it: test_store_readonly.py)
        p = subprocess.run(
            as_other_user(command + ["--db", os.path.join(folder, target)]), capture_output=True, text=True
        )
        assert p.returncode == 2 and p.stdout == "" and p.stderr.count("\n") == 1, p.stderr
        assert "cannot" in p.stderr and "Traceback" not in p.stderr
        assert sorted(os.listdir(folder)) == before  # nothing left behind
    finally:
        for root, dirs, _ in os.walk(base):
            for d in dirs:
                os.chmod(os.path.join(root, d), 0o755)
        shutil.rmtree(base)  # the test's own folder


# A real SIGINT, delivered just after the archer's row is inserted, before COMMIT.
CTRL_C = """
import sys
from scorebox.store.sqlite import Store
add = Store._add_archer
def add_then_ctrl_c(*a):
    add(*a)
    raise KeyboardInterrupt  # Ctrl-C, as Python raises it, inside the write transaction
Store._add_archer = add_then_ctrl_c
from scorebox import cli
sys.exit(cli.main(sys.argv[1:]))
"""


def test_ctrl_c_inside_a_transaction_is_one_line_and_keeps_nothing(club):
    p = subprocess.run(
        [sys.executable, "-c", CTRL_C, "archers", "add", "Zed", "--db", club], capture_output=True, text=True
    )
    assert p.returncode == 2 and p.stderr.count("\n") == 1 and "interrupted" in p.stderr, p.stderr
    s = Store(club)
    assert s.db.execute("SELECT count(*) FROM archers WHERE name = 'Zed'").fetchone()[0] == 0 and s.check() == []
    s.close()
