"""A journal wiped by hand, the box's id kept (issue 21, item 8): the box numbers its new
matches from 1 again, numbers under which the store holds the matches it synced before.
Before, those new matches never reached the store: a sync left them on the box ("NOT
acknowledged") for ever and `--raw` said "0 new matches". Now the sync tells that the
journal started again and stores them as the box's next journal (sync/plan.py
journal_run: numbers from 1,000,001), then acknowledges them; `--raw` stores them too.

On both games: the matches before and after the wipe are Tic Tac BOW matches, or
Try-Tac-Toe games, written by the box's own journal writer; the wipe is done as a user
would, with the real mpremote on the running virtual Pico."""

import json

import pytest
from picoheap import PicoHeapVirtualPico
from test_sync_faults import box_unacked
from test_sync_raw_restart import matches, scorebox, write

from scorebox.device import mpremote_adapter as mp
from scorebox.store.sqlite import Store
from scorebox.sync.plan import RUN

pytestmark = pytest.mark.micropython


def wipe(vp):
    """Delete the journal's files on the box with mpremote, as a user would (device.id,
    settings.json and roster.txt stay)."""
    names = mp.ls(vp.port, "/flash")
    gone = [n for n in names if n.endswith(".tbj") or n.startswith("journal.")]
    assert "device.id" in names and any(n.endswith(".tbj") for n in gone), names
    mp.run(vp.port, "fs", "rm", *[":/flash/" + n for n in gone])
    assert not [n for n in mp.ls(vp.port, "/flash") if n.endswith(".tbj")]


@pytest.mark.parametrize("how", ["sync", "raw"])
@pytest.mark.parametrize("game", ["ttb", "ttt"])
def test_matches_after_a_wiped_journal_are_stored(tmp_path, game, how):
    before, after = matches(game, 3, 1), matches(game, 2, 2)
    flash = str(tmp_path / "box.flash")
    write(tmp_path, flash, before)
    vp = PicoHeapVirtualPico(flash)
    try:
        uid = vp.hello()["device"]
        db = str(tmp_path / "club.sqlite")
        p = scorebox("sync", "--port", vp.port, "--db", db)
        assert p.returncode == 0 and "3 new matches stored" in p.stdout, p.stdout + p.stderr
        wipe(vp)
        vp.kill()  # the box off while its new matches go into its flash, numbered from 1 again
        write(tmp_path, flash, after)
        vp.drain()
        vp.boot()
        assert vp.hello()["device"] == uid  # the same box, by its kept id
        assert box_unacked(vp) == [1, 2]
        p = scorebox("sync", *(["--raw"] if how == "raw" else []), "--port", vp.port, "--db", db)
        out = p.stdout
        assert p.returncode == 0, out + p.stderr
        assert "2 new matches stored" in out, out
        assert "the box's journal was started again" in out and "journal 2, numbered from 1000001 on" in out, out
        assert "NOT acknowledged" not in out
        # named as `scorebox show` opens them: the box's match 1 is the store's 1000001
        assert "  match 1 (stored as %d): " % (RUN + 1) in out and "  match 2 (stored as %d): " % (RUN + 2) in out, out
        if how == "raw":
            assert box_unacked(vp) == [1, 2]  # a rescue acknowledges nothing: the next sync does
            p = scorebox("sync", "--port", vp.port, "--db", db)
            assert p.returncode == 0 and "0 new matches stored" in p.stdout, p.stdout + p.stderr
        assert box_unacked(vp) == []
        again = scorebox("sync", "--port", vp.port, "--db", db)
        assert "0 new matches stored" in again.stdout and "started again" not in again.stdout, again.stdout
    finally:
        vp.close()
    s = Store(db)
    rows = s.db.execute("SELECT number, log FROM matches ORDER BY number").fetchall()
    assert [n for n, _ in rows] == [1, 2, 3, RUN + 1, RUN + 2]
    assert [json.loads(log) for _, log in rows] == [m["events"] for m in before + after]
    assert len(s.boxes()) == 1 and s.check() == []
