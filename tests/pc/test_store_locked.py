"""A store another program is writing (issue 21, item 4): a writing command waits for it
(saying so once on stderr), carries on when it is free, and when it stays locked ends with
one line naming who holds it, never SQLite's "database is locked" traceback. The holder is
a real process with a real write transaction on the store: the sqlite3 shell (another
program, named from /proc), or a scorebox command (named from its note beside the store).
The store holds both games. The waits are shortened here (lock.LOCK_WAIT), nothing timed."""

import os
import shutil
import subprocess
import sys
import textwrap

import pytest
from bothstore import TTT_BOX, both_games

from scorebox import cli
from scorebox.store import lock
from scorebox.store.sqlite import Store

# A scorebox command holding the store's write lock, as `scorebox import` does while it
# stores: the note is written by the store's own connection.
SCOREBOX_HOLDER = textwrap.dedent(
    """
    import sys
    sys.argv = ["scorebox", "import", "matches.json"]
    from scorebox.store.sqlite import Store
    s = Store(sys.stdin.readline().strip())
    s.db.execute("BEGIN IMMEDIATE")
    s.db.execute("UPDATE devices SET last_seen = last_seen")
    print("held", flush=True)
    sys.stdin.readline()
    s.db.execute("COMMIT")
    print("done", flush=True)
    sys.stdin.readline()
    """
)


class Holder:
    """A process holding the store's write lock until release(); kind: 'sqlite3' (another
    program) or 'scorebox'."""

    def __init__(self, kind, store):
        if kind == "sqlite3":
            if not shutil.which("sqlite3"):
                pytest.skip("no sqlite3 shell on this machine")
            cmd = ["sqlite3", store]
        else:
            cmd = [sys.executable, "-c", SCOREBOX_HOLDER]
        self.kind = kind
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        if kind == "sqlite3":
            self.send("BEGIN IMMEDIATE;\nUPDATE devices SET last_seen = last_seen;\nSELECT 'held';")
        else:
            self.send(store)
        assert self.p.stdout.readline().strip() == "held"

    def send(self, text):
        self.p.stdin.write(text + "\n")
        self.p.stdin.flush()

    def release(self):
        self.send("COMMIT;" if self.kind == "sqlite3" else "")

    def close(self):
        self.p.stdin.close()
        self.p.wait(timeout=30)


@pytest.fixture
def store(tmp_path, monkeypatch):
    monkeypatch.setattr(lock, "LOCK_WAIT", 1.0)
    monkeypatch.setattr(lock, "NOTE_AFTER", 0.3)
    monkeypatch.setattr(lock, "_said", [])
    path = both_games(str(tmp_path / "club.sqlite"))
    assert cli.main(["export", "--format", "json", "--out", str(tmp_path / "out"), "--db", path]) == 0
    assert cli.main(["backup", str(tmp_path / "b.sqlite"), "--db", path]) == 0
    return path


def writers(tmp_path, store):
    return {
        "archers add": ["archers", "add", "Zed", "--db", store],
        "boxes name": ["boxes", "name", TTT_BOX, "Red", "--db", store],
        "import": ["import", str(tmp_path / "out"), "--db", store],
        "restore": ["restore", str(tmp_path / "b.sqlite"), "--db", store],
    }


@pytest.mark.parametrize("kind", ["sqlite3", "scorebox"])
@pytest.mark.parametrize("command", ["archers add", "boxes name", "import", "restore"])
def test_a_lock_that_stays_is_one_line_naming_its_holder(tmp_path, store, capsys, kind, command):
    capsys.readouterr()
    before = Store(store).count()
    h = Holder(kind, store)
    try:
        assert cli.main(writers(tmp_path, store)[command]) == 2
    finally:
        h.release()
        h.close()
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2, err  # the wait said once, then why it ended
    assert "waiting for it" in err[0] and "try again once it has finished" in err[1], err
    assert "Traceback" not in "\n".join(err)
    who = "sqlite3 (pid %d)" % h.p.pid if kind == "sqlite3" else "scorebox import (pid %d, writing since" % h.p.pid
    assert who in err[0] and who in err[1], err
    assert not os.path.exists(lock.note_path(store))  # the holder's note went with its transaction
    assert Store(store).count() == before
    assert not [f for f in os.listdir(tmp_path) if ".before-restore-" in f]


@pytest.mark.parametrize("kind", ["sqlite3", "scorebox"])
def test_a_command_waits_for_a_short_write(tmp_path, store, kind):
    """The holder lets go once the command has said it waits (the real wait, LOCK_WAIT)."""
    exe = os.path.join(os.path.dirname(sys.executable), "scorebox")
    h = Holder(kind, store)
    try:
        p = subprocess.Popen(
            [exe] + writers(tmp_path, store)["archers add"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        said = p.stderr.readline()
        h.release()
        out, err = p.communicate(timeout=60)
    finally:
        h.close()
    assert "waiting for it" in said and ("pid %d" % h.p.pid) in said, said + err
    assert p.returncode == 0 and err == "", said + err  # said once, then nothing more
    assert "Zed" in out
    assert not os.path.exists(lock.note_path(store))


def test_a_stale_note_is_ignored(tmp_path, store, capsys):
    """A note left by a scorebox that died holding the lock: a free store is written at once,
    and a lock another program holds is named as that program, not as the dead one."""
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    with open(lock.note_path(store), "w") as f:
        f.write('{"pid": %d, "command": "scorebox sync", "since": 1790000000.0}' % int(gone.stdout))
    capsys.readouterr()
    assert cli.main(writers(tmp_path, store)["archers add"]) == 0
    assert capsys.readouterr().err == ""
    if shutil.which("sqlite3"):
        h = Holder("sqlite3", store)
        try:
            assert cli.main(["archers", "add", "Yan", "--db", store]) == 2
        finally:
            h.release()
            h.close()
        err = capsys.readouterr().err
        assert "sqlite3 (pid %d)" % h.p.pid in err and "scorebox sync" not in err, err
