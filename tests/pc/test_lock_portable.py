"""The store's lock note off Linux, and the note itself (issue 21 review, item 4's fixes).

The PC tool installs on any OS. Off Linux there is no /proc/locks (and on Windows no
os.major), and on Windows os.kill(pid, 0) does not ask whether a process is alive: it ends
it (here the scorebox sync holding the store). Windows cannot run here, so its paths are
taken on this Linux machine by the test setting what the lock module looks at: no
/proc/locks, no os.major, os.name "nt", and an os.kill that only records being called. The
holder is a real process with a real write transaction on a real store of both games.

The note is written through a new file renamed onto it (a link there is replaced, never
written through), and a COMMIT that fails with the transaction still open keeps it."""

import json
import os
import sqlite3

import pytest
from bothstore import both_games
from test_store_locked import Holder

from scorebox import cli
from scorebox.store import lock
from scorebox.store.sqlite import Store


@pytest.fixture
def store(tmp_path, monkeypatch):
    monkeypatch.setattr(lock, "LOCK_WAIT", 1.0)
    monkeypatch.setattr(lock, "NOTE_AFTER", 0.3)
    monkeypatch.setattr(lock, "_said", [])
    return both_games(str(tmp_path / "club.sqlite"))


def as_on_windows(monkeypatch, tmp_path):
    """This process's lock module as on Windows; returns the list of os.kill calls made."""
    killed = []
    monkeypatch.setattr(lock, "PROC_LOCKS", str(tmp_path / "no-proc" / "locks"), raising=False)
    monkeypatch.delattr(os, "major")
    monkeypatch.delattr(os, "minor")
    monkeypatch.setattr(os, "kill", lambda pid, sig: killed.append((pid, sig)))
    monkeypatch.setattr(os, "name", "nt")
    return killed


def test_a_locked_store_on_windows_is_one_line_naming_the_note(tmp_path, store, capsys, monkeypatch):
    h = Holder("scorebox", store)
    try:
        killed = as_on_windows(monkeypatch, tmp_path)
        try:
            status = cli.main(["archers", "add", "Zed", "--db", store])
        finally:
            monkeypatch.undo()
    finally:
        h.release()
        h.close()
    err = capsys.readouterr().err.strip().splitlines()
    assert status == 2 and len(err) == 2, err
    assert "Traceback" not in "\n".join(err), err
    who = "scorebox import (pid %d, writing since" % h.p.pid
    assert who in err[0] and who in err[1], err
    assert killed == []  # the holder was never sent os.kill, Windows' way of ending it


def test_the_note_is_never_written_through_a_link(tmp_path):
    path = both_games(str(tmp_path / "club.sqlite"))
    victim = tmp_path / "precious.txt"
    victim.write_text("not scorebox's\n")
    os.symlink(victim, lock.note_path(path))
    s = Store(path)
    try:
        s.db.execute("BEGIN IMMEDIATE")
        assert victim.read_text() == "not scorebox's\n"
        assert not os.path.islink(lock.note_path(path))
        with open(lock.note_path(path)) as f:
            assert json.load(f)["pid"] == os.getpid()
        s.db.execute("COMMIT")
    finally:
        s.close()
    assert victim.read_text() == "not scorebox's\n"
    assert not os.path.lexists(lock.note_path(path))
    assert [f for f in os.listdir(tmp_path) if f.startswith(".scorebox-writer.")] == []


def test_a_commit_that_fails_keeps_the_note(tmp_path):
    """A deferred foreign key broken at COMMIT: SQLite refuses the COMMIT and the write
    transaction stays open (the lock held), so its note stays; ROLLBACK removes it."""
    path = str(tmp_path / "plain.sqlite")
    db = sqlite3.connect(path, isolation_level=None, factory=lock.Connection)
    db.store = path
    try:
        db.execute("PRAGMA foreign_keys = ON")
        db.execute("CREATE TABLE parent (id INTEGER PRIMARY KEY)")
        db.execute("CREATE TABLE child (p INTEGER REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED)")
        db.execute("BEGIN IMMEDIATE")
        db.execute("INSERT INTO child VALUES (7)")
        with pytest.raises(sqlite3.IntegrityError):
            db.execute("COMMIT")
        assert db.in_transaction
        with open(lock.note_path(path)) as f:
            assert json.load(f)["pid"] == os.getpid()
        db.execute("ROLLBACK")
        assert not os.path.exists(lock.note_path(path))
    finally:
        db.close()
