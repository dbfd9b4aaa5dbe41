"""A store on a write-protected medium (issue 21 review, items 2 and 3): the commands that
read it work (`matches`, `stats`, `report`, and `backup` of it, so a secretary can back up a
store from a write-protected stick), read as it is; one that would write it, a restore
onto it included, is one line and leaves it as it was. Before, every command refused it
("every command needs both writable"), and a restore onto it took it for a damaged store
("unable to open database file") and ended in an OSError traceback.

The medium is real: a small tmpfs, mounted read-only in a mount namespace of the test's
own (unshare -m), holding a store of both games as a sync leaves it (WAL mode)."""

import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile

import pytest
from bothstore import both_games
from test_faults_left import as_other_user

from scorebox.store import backup

SCRIPT = (
    'mount -t tmpfs -o size=4m scorebox-ro "$1" || exit 99; cp "$2" "$1/club.sqlite"; '
    'mount -o remount,ro "$1" || exit 99; shift 2; "$@"; echo "rc=$?"; ls -A "$0"'
)


def on_read_only(tmp_path, store, *args):
    """`scorebox ARGS` ({stick}: the read-only folder holding club.sqlite, a copy of store);
    (exit status, stdout, stderr, the files there after)."""
    if not shutil.which("unshare") or os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root and unshare")
    stick = tmp_path / "stick"
    stick.mkdir(exist_ok=True)
    exe = os.path.join(os.path.dirname(sys.executable), "scorebox")
    argv = [exe] + [a.format(stick=stick) for a in args]
    p = subprocess.run(
        ["unshare", "-m", "sh", "-c", SCRIPT, str(stick), str(stick), store] + argv,
        capture_output=True,
        text=True,
        timeout=120,
    )
    if p.returncode == 99:
        pytest.skip("this machine does not let the test mount a tmpfs: %s" % p.stderr.strip())
    out = p.stdout.splitlines()
    status = [line for line in out if line.startswith("rc=")]
    assert status, p.stdout + p.stderr
    at = out.index(status[-1])
    return int(status[-1][3:]), "\n".join(out[:at]), p.stderr, out[at + 1 :]


@pytest.fixture
def club(tmp_path):
    path = both_games(str(tmp_path / "club.sqlite"))
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    db.close()
    return path


def one_line(status, err):
    assert status == 2, err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err


@pytest.mark.parametrize(
    "args, said",
    [
        (["matches"], "e6614103"),
        (["stats"], ""),
    ],
)
def test_a_read_command_reads_a_store_on_a_read_only_medium(tmp_path, club, args, said):
    status, out, err, left = on_read_only(tmp_path, club, *args, "--db", "{stick}/club.sqlite")
    assert status == 0 and err == "", err
    assert said in out
    assert left == ["club.sqlite"]


def test_the_report_of_a_store_on_a_read_only_medium(tmp_path, club):
    page = tmp_path / "report.html"
    status, out, err, left = on_read_only(tmp_path, club, "report", "--out", str(page), "--db", "{stick}/club.sqlite")
    assert status == 0, err
    assert page.stat().st_size > 0 and left == ["club.sqlite"]


def test_a_backup_of_a_store_on_a_read_only_medium(tmp_path, club):
    dest = str(tmp_path / "copy.sqlite")
    status, out, err, left = on_read_only(tmp_path, club, "backup", dest, "--db", "{stick}/club.sqlite")
    assert status == 0 and err == "", err
    assert "5 matches" in out
    assert backup.problems(dest) == []
    assert backup._count(dest) == 5 and left == ["club.sqlite"]


def test_a_write_to_a_store_on_a_read_only_medium_is_one_line(tmp_path, club):
    status, out, err, left = on_read_only(tmp_path, club, "archers", "add", "Zed", "--db", "{stick}/club.sqlite")
    one_line(status, err)
    assert "cannot write" in err, err
    assert left == ["club.sqlite"]


def test_a_restore_onto_a_store_on_a_read_only_medium_is_one_line(tmp_path, club):
    good = both_games(str(tmp_path / "good.sqlite"))
    status, out, err, left = on_read_only(tmp_path, club, "restore", good, "--db", "{stick}/club.sqlite")
    one_line(status, err)
    assert "cannot write" in err, err
    assert left == ["club.sqlite"]  # not moved aside as "damaged", no copy beside it


def test_a_file_with_no_store_yet_on_a_read_only_medium_is_one_line(tmp_path, club):
    """Its schema cannot be made there: said, not read half-way."""
    os.remove(club)
    db = sqlite3.connect(club)
    db.execute("CREATE TABLE notes (x)")  # SQLite's, but no store in it yet
    db.commit()
    db.close()
    status, out, err, left = on_read_only(tmp_path, club, "matches", "--db", "{stick}/club.sqlite")
    one_line(status, err)
    assert "no Scorebox store" in err, err


@pytest.mark.parametrize("where", ["store", "folder"])
def test_a_store_this_user_cannot_write_is_read(club, where):
    """The same by file modes: a store, or its folder, another user's and read-only to this
    one (run as nobody: root's modes bind no one). SQLite says "readonly" here, not "cannot
    open": read as it is just the same."""
    base = tempfile.mkdtemp(prefix="scorebox-ro-")  # not under pytest's 0700 folders: nobody must reach it
    try:
        os.chmod(base, 0o755)
        folder = os.path.join(base, "ro")
        os.mkdir(folder)
        shutil.copy(club, os.path.join(folder, "club.sqlite"))
        os.chmod(os.path.join(folder, "club.sqlite"), 0o444 if where == "store" else 0o644)
        os.chmod(folder, 0o755 if where == "store" else 0o555)
        before = sorted(os.listdir(folder))
        p = subprocess.run(
            as_other_user(["matches", "--db", os.path.join(folder, "club.sqlite")]), capture_output=True, text=True
        )
        assert p.returncode == 0 and p.stderr == "", p.stderr
        assert "e6614103" in p.stdout
        assert sorted(os.listdir(folder)) == before
    finally:
        for root, dirs, _ in os.walk(base):
            for d in dirs:
                os.chmod(os.path.join(root, d), 0o755)
        shutil.rmtree(base)  # the test's own folder
