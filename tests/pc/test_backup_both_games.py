"""`scorebox backup` and `restore` on a store holding both games (issue 21, item 1): the
backup's check replays each match with its own game's rules (a Try-Tac-Toe game crashed it
with "'Game' object has no attribute 'result'"), and a backup that fails for any reason
leaves no file behind, so the next run is not refused as "exists". A full disk (item 11)
is one line, and leaves nothing either: a real full file system, a small tmpfs mounted in
a mount namespace of the test's own, or else a file size limit (RLIMIT_FSIZE)."""

import json
import os
import resource
import shutil
import signal
import sqlite3
import subprocess
import sys

import pytest
from bothstore import both_games

from scorebox import cli
from scorebox.store import backup
from scorebox.store.sqlite import Store
from scorebox_core.games.ttb.game import ID as TTB
from scorebox_core.games.ttt.game import ID as TTT


def rows(path):
    db = sqlite3.connect(path)
    try:
        return db.execute(
            "SELECT d.uid, m.number, m.header, m.log, m.winner, m.wins_a, m.wins_b FROM matches m "
            "JOIN devices d ON d.id = m.device_id ORDER BY d.uid, m.number"
        ).fetchall()
    finally:
        db.close()


def leftovers(folder):
    return sorted(f for f in os.listdir(folder) if f.endswith((".part", "-journal", "-wal", "-shm")))


def test_backup_and_restore_of_both_games(tmp_path, capsys):
    club = both_games(str(tmp_path / "club.sqlite"))
    dest = str(tmp_path / "monday.sqlite")
    assert cli.main(["backup", dest, "--db", club]) == 0, capsys.readouterr().err
    assert "5 matches" in capsys.readouterr().out
    assert backup.problems(dest) == []
    assert rows(dest) == rows(club)
    games = [json.loads(r[2]).get("game") for r in rows(dest)]
    assert games.count(TTT) == 2 and games.count(None) == 3
    # Lose the Try-Tac-Toe games, then restore them from the backup.
    s = Store(club)
    s.db.execute("DELETE FROM matches WHERE json_extract(header, '$.game') = ?", (TTT,))
    s.close()
    assert cli.main(["restore", dest, "--db", club]) == 0, capsys.readouterr().err
    out = capsys.readouterr().out
    assert "restored" in out and "5 matches" in out and "kept as" in out
    assert rows(club) == rows(dest)
    kept = [f for f in os.listdir(tmp_path) if ".before-restore-" in f]
    assert len(kept) == 1 and len(rows(str(tmp_path / kept[0]))) == 3


@pytest.mark.parametrize("game", [TTB, TTT])
def test_a_backup_that_fails_its_check_leaves_nothing(tmp_path, capsys, game):
    """A stored result that is not what the rules say (a tampered row): the backup is refused
    in one line, no file is left where it was going, and the next run says the same again."""
    club = both_games(str(tmp_path / "club.sqlite"))
    db = sqlite3.connect(club)
    db.execute(
        "UPDATE matches SET winner = 'nobody' WHERE id = (SELECT max(id) FROM matches "
        "WHERE coalesce(json_extract(header, '$.game'), ?) = ?)",
        (TTB, game),
    )
    db.commit()
    db.close()
    dest = str(tmp_path / "copies" / "b.sqlite")
    for _ in range(2):
        assert cli.main(["backup", dest, "--db", club]) == 2
        err = capsys.readouterr().err
        assert "did not check out" in err and "the rules core says" in err and "exists" not in err, err
        assert len(err.strip().splitlines()) == 1
        assert os.listdir(tmp_path / "copies") == []


def run_on_full_disk(tmp_path, how, args, store=None):
    """`scorebox ARGS` ({disk} in them: the full file system's folder) with a copy of `store`
    there first as club.sqlite; (exit status, stderr, files left there)."""
    disk = tmp_path / "disk"
    disk.mkdir()
    argv = [os.path.join(os.path.dirname(sys.executable), "scorebox")] + [a.format(disk=disk) for a in args]
    if how == "tmpfs":
        if not shutil.which("unshare") or os.geteuid() != 0:
            pytest.skip("mounting a tmpfs needs root and unshare")
        script = (
            'mount -t tmpfs -o size=%s scorebox-full "$1" || exit 99; [ -z "$2" ] || cp "$2" "$1/club.sqlite"; '
            'shift 2; "$@"; echo "rc=$?"; ls -A "%s"' % ("384k" if store else "128k", disk)
        )
        p = subprocess.run(
            ["unshare", "-m", "sh", "-c", script, "sh", str(disk), store or ""] + argv,
            capture_output=True,
            text=True,
            timeout=120,
        )
        if p.returncode == 99:
            pytest.skip("this machine does not let the test mount a tmpfs: %s" % p.stderr.strip())
        out = p.stdout.splitlines()
        status = [line for line in out if line.startswith("rc=")]
        assert status, p.stdout + p.stderr
        return int(status[0][3:]), p.stderr, out[out.index(status[0]) + 1 :]

    def limit():  # files this process writes end at 256 KB; past that, write() fails (EFBIG)
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (256 * 1024, 256 * 1024))

    if store:
        shutil.copy(store, disk / "club.sqlite")
    p = subprocess.run(argv, capture_output=True, text=True, preexec_fn=limit, timeout=120)
    return p.returncode, p.stderr, sorted(os.listdir(disk))


@pytest.mark.parametrize("how", ["tmpfs", "file size limit"])
def test_backup_onto_a_full_disk(tmp_path, how):
    club = both_games(str(tmp_path / "club.sqlite"), more=300)
    assert os.path.getsize(club) > 512 * 1024  # larger than the room there is
    status, err, left = run_on_full_disk(tmp_path, how, ["backup", "{disk}/b.sqlite", "--db", club])
    assert status == 2, err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert "cannot write the backup" in err, err
    if how == "tmpfs":
        assert "full" in err, err
    assert left == []  # no half-made backup, no temporary file
    assert leftovers(tmp_path) == [] and backup.problems(club) == []


@pytest.mark.parametrize("how", ["tmpfs", "file size limit"])
def test_restore_onto_a_full_disk(tmp_path, how):
    """A store on a full disk, a backup larger than the room: one line, the store as it was
    (listed after, in the same file system), and no copy of it left beside it."""
    big = both_games(str(tmp_path / "big.sqlite"), more=300)
    small = both_games(str(tmp_path / "small.sqlite"))
    args = ["restore", big, "--db", "{disk}/club.sqlite"]
    status, err, left = run_on_full_disk(tmp_path, how, args, store=small)
    assert status == 2, err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert "the store is as it was" in err or "cannot write the backup" in err, err
    assert left == ["club.sqlite"], left  # no before-restore copy, no temporary file
    if how == "file size limit":  # the tmpfs has gone with its mount namespace
        assert len(rows(str(tmp_path / "disk" / "club.sqlite"))) == 5


@pytest.mark.parametrize("how", ["tmpfs", "file size limit"])
def test_a_damaged_store_on_a_full_disk_is_moved_back(tmp_path, how):
    """A damaged store (a table not ours) is moved aside for the restore; when the restored
    copy then finds the disk full, the store is moved back under its own name, so that the
    next command does not make an empty store there (issue 21 review, item 2). Before, it
    was left as club.before-restore-....sqlite, which the message did not name."""
    damaged = both_games(str(tmp_path / "damaged.sqlite"))
    db = sqlite3.connect(damaged)
    db.execute("CREATE TABLE notes (x)")
    db.commit()
    db.close()
    assert backup.problems(damaged, replay=0)
    big = both_games(str(tmp_path / "big.sqlite"), more=300)
    status, err, left = run_on_full_disk(tmp_path, how, ["restore", big, "--db", "{disk}/club.sqlite"], store=damaged)
    assert status == 2, err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert "nothing was restored, the store is as it was" in err, err
    # its files back under its name (the -wal and -shm the read-only check of it made, too)
    assert "club.sqlite" in left and set(left) <= {"club.sqlite", "club.sqlite-wal", "club.sqlite-shm"}, left
    if how == "file size limit":  # the tmpfs has gone with its mount namespace
        back = str(tmp_path / "disk" / "club.sqlite")
        assert len(rows(back)) == 5 and backup.problems(back, replay=0) == backup.problems(damaged, replay=0)


@pytest.mark.parametrize("how", ["tmpfs", "file size limit"])
def test_the_copy_before_a_restore_on_a_full_disk_is_named(tmp_path, how):
    """The store's own copy, which a restore writes beside it first, does not fit: the line
    names that copy as what it is, not as a backup the user could have put elsewhere."""
    club = both_games(str(tmp_path / "club.sqlite"), more=20)
    assert 256 * 1024 < os.path.getsize(club) < 320 * 1024  # fits the disk once, not twice
    small = both_games(str(tmp_path / "small.sqlite"))
    status, err, left = run_on_full_disk(tmp_path, how, ["restore", small, "--db", "{disk}/club.sqlite"], store=club)
    assert status == 2, err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert ".before-restore-" in err and "the copy of the store before the restore" in err, err
    assert "choose another place" not in err and "the store is as it was" in err, err
    assert left == ["club.sqlite"], left
