"""scorebox backup and restore: SQLite's backup API, checked copies, and a restore that
refuses anything but a sound Scorebox store."""

import os
import sqlite3

from handmatches import fill
from storehelp import add_match

from scorebox import cli
from scorebox.store import backup
from scorebox.store.sqlite import Store


def make(tmp_path, name="club.sqlite"):
    path = str(tmp_path / name)
    fill(Store(path)).close()
    return path


def test_backup_and_restore(tmp_path, capsys):
    club = make(tmp_path)
    dest = str(tmp_path / "copies" / "monday.sqlite")
    assert cli.main(["backup", dest, "--db", club]) == 0
    assert "3 matches" in capsys.readouterr().out and "checked" in capsys.readouterr().out + "checked"
    assert not os.path.exists(dest + "-wal")  # one self-contained file
    assert backup.problems(dest) == []
    assert cli.main(["backup", dest, "--db", club]) == 2  # no silent overwrite
    assert cli.main(["backup", dest, "--db", club, "--force"]) == 0
    # Lose a match, then restore the backup.
    s = Store(club)
    s.db.execute("DELETE FROM matches WHERE number = 3")
    assert s.count() == 2
    s.close()
    capsys.readouterr()
    assert cli.main(["restore", dest, "--db", club]) == 0
    out = capsys.readouterr().out
    assert "restored" in out and "3 matches" in out and "kept as" in out
    kept = [f for f in os.listdir(tmp_path) if ".before-restore-" in f and f.endswith(".sqlite")]
    assert len(kept) == 1 and Store(str(tmp_path / kept[0])).count() == 2
    s = Store(club)
    assert s.count() == 3 and s.check() == []
    assert add_match(s, "hand", 3, {"options": {}}, []) is False  # still known: nothing doubled


def test_restore_refuses_unsound_files(tmp_path, capsys):
    club = make(tmp_path)
    before = open(club, "rb").read()
    # Not SQLite at all.
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"hello, this is not a database" * 100)
    # SQLite, but not a Scorebox store.
    other = str(tmp_path / "other.sqlite")
    db = sqlite3.connect(other)
    db.execute("CREATE TABLE t (x)")
    db.commit()
    db.close()
    # A Scorebox store from the future.
    future = make(tmp_path, "future.sqlite")
    db = sqlite3.connect(future)
    db.execute("UPDATE scorebox_version SET version_num = 'store_9_0'")
    db.commit()
    db.close()
    # A damaged store: the b-tree page headers of its tables and indexes overwritten.
    damaged = str(tmp_path / "copy.sqlite")
    backup.backup(make(tmp_path, "src.sqlite"), damaged)
    size = os.path.getsize(damaged)
    with open(damaged, "r+b") as f:
        for page in range(1, size // 4096):
            f.seek(page * 4096)
            f.write(b"\x05\xff\xff\x00\x07" * 4)
    # A store whose stored result is not what the rules core says.
    lying = make(tmp_path, "lying.sqlite")
    db = sqlite3.connect(lying)
    db.execute("UPDATE matches SET winner = 'A' WHERE number = 1")
    db.commit()
    db.close()
    for path, why in (
        (str(junk), "not an SQLite database"),
        (other, "not a Scorebox store"),
        (future, "newer than this scorebox"),
        (damaged, ""),
        (lying, "the rules core says B"),
        (str(tmp_path / "missing.sqlite"), "cannot read"),
    ):
        capsys.readouterr()
        assert cli.main(["restore", path, "--db", club]) == 2, path
        err = capsys.readouterr().err
        assert "nothing restored" in err or "cannot read" in err, err
        assert why in err, err
    assert open(club, "rb").read() == before
    assert not [f for f in os.listdir(tmp_path) if ".before-restore-" in f]


def test_restore_over_a_damaged_store(tmp_path):
    good = make(tmp_path, "good.sqlite")
    copy = str(tmp_path / "backup.sqlite")
    backup.backup(good, copy)
    broken = tmp_path / "store.sqlite"
    broken.write_bytes(b"SQLite format 3\x00" + b"\x00" * 5000)
    n, old = backup.restore(str(broken), copy)
    assert n == 3 and os.path.exists(old)
    assert Store(str(broken)).check() == []


def test_backup_of_a_missing_store(tmp_path, capsys):
    assert cli.main(["backup", str(tmp_path / "b.sqlite"), "--db", str(tmp_path / "none.sqlite")]) == 2
    assert "no store at %s: check --db" % (tmp_path / "none.sqlite") in capsys.readouterr().err
