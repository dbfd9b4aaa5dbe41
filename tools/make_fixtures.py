"""Make the 1.0 fixtures under tests/fixtures/1.0/ with release 1.0's own code.

Run it ONLY when a release is declared (it was run once, for 1.0.0), from the clone's root:

    .venv/bin/python tools/make_fixtures.py

NEVER run it to "fix" a failing tests/pc/test_fixtures_1_0.py: those fixtures are the 1.0
forms that today's code must still open. If a test fails, the code (or a missing migration)
is what is wrong, not the fixture. A later release adds its own folder (tests/fixtures/X.Y/).

What it makes (tests/fixtures/1.0/README.md):
- box.flash.gz: a virtual Pico's LittleFS flash file holding its journal of finished matches,
  made by the box's own journal on MicroPython (tests/support/boxfill.py, flashfill.py): Tic Tac BOW
  and Try-Tac-Toe matches, and its roster (roster.txt, by box/store.py);
- club.sqlite.gz: a club's SQLite store holding both games (tests/support/bothstore.py: the
  store's API) and the matches of box.flash synced into it by the real `scorebox sync` from
  the virtual Pico;
- fat-drive.tar.gz: a CircuitPython box's CIRCUITPY drive's files (device.id and the FAT
  journal's ring), written by box/journal.py with its FAT flag set, as the box on FAT writes it;
  read by the PC's rescue of a mounted drive (scorebox.sync.rescue.sync_drive);
- league.sql.gz: a small league's PostgreSQL database (tests/support/leaguegen.py: three clubs,
  thirty matches of both games) as pg_dump writes it (plain SQL), gzipped;
- expected.json: what reading each must give, recorded here.
"""

import gzip
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [
    os.path.join(ROOT, "tests", "support"),
    os.path.join(ROOT, "firmware"),
    os.path.join(ROOT, "host_tools"),
]
OUT = os.path.join(ROOT, "tests", "fixtures", "1.0")
BOX_MATCHES = 4  # Tic Tac BOW matches on the box's flash (and two Try-Tac-Toe games)
FAT_UID = "cp-fixture-box"  # the CircuitPython box's device.id
BOX_ROSTER = ["Ivy", "Jon", "Ann", "Bo"]  # the box's roster.txt: two names that shot no match
STORE_MORE = 6
LEAGUE_CLUBS, LEAGUE_MATCHES = 3, 30  # generated Tic Tac BOW matches in the store besides bothstore's own

from fixturereads import league_reads, store_reads  # noqa: E402 (tests/support, on the path above)

# The box's roster (roster.txt, box/store.py) written into a virtual Pico's flash image by the
# box's own Store on MicroPython, the flash mounted as the virtual Pico mounts it.
ROSTER_SCRIPT = """
import sys
from box.store import Store
from vpico import board as vboard
from vpico.blockdev import RamBlockDev

flash, names = sys.argv[1], sys.argv[2].split(",")
with open(flash, "rb") as f:
    image = bytearray(f.read())
bdev = RamBlockDev(blocks=len(image) // 4096, block_size=4096, data=image)
b = vboard.Board(bdev=bdev)
s = Store(b.root)
s.set_roster(names)
vboard.unmount(b.root)
with open(flash, "wb") as f:
    f.write(bdev.data)
"""


def box_roster(folder, flash, names):
    """Keep names as the box's roster on the flash image (a pathlib.Path folder for the script)."""
    from mpy import run

    script = folder / "roster.py"
    script.write_text(ROSTER_SCRIPT)
    p = run([str(script), flash, ",".join(names)], heapsize="8m", timeout=120)
    if p.returncode:
        raise RuntimeError("roster.py failed: %s" % p.stderr[-2000:])


def sync_flash(flash, store):
    """The real `scorebox sync` from a virtual Pico booted on (a copy of) flash into store."""
    from picoheap import PicoHeapVirtualPico

    from scorebox.device import link

    vp = PicoHeapVirtualPico(flash)  # the Pico's budget: .mpy on a 192 KB heap
    try:
        ser = link.open_port(vp.port)
        vp.wait_ready(link.Client(ser, timeout=1.0, retries=0))
        ser.close()
        exe = os.path.join(os.path.dirname(sys.executable), "scorebox")
        p = subprocess.run([exe, "sync", "--port", vp.port, "--db", store], capture_output=True, text=True, timeout=300)
        if p.returncode:
            raise RuntimeError("sync failed: %s %s" % (p.stdout, p.stderr))
    finally:
        vp.close()


def fat_drive(folder, todo):
    """A CIRCUITPY drive's files (its FAT journal: the ring, docs/journal.md "On FAT") holding
    todo's matches, written by the box's own code (box/journal.py with its FAT flag set, as on
    CircuitPython); returns {number: digest}."""
    from box import journal
    from scorebox.store.checks import match_digest
    from scorebox_core.games.ttb.rules import Match
    from scorebox_core.games.ttt.rules import Game
    from scorebox_core.match import from_header, game_of, result

    journal.FAT = True  # this process plays the box on its FAT drive
    os.makedirs(folder)
    with open(os.path.join(folder, "device.id"), "w") as f:
        f.write(FAT_UID + "\n")
    j = journal.Journal(folder)
    j.recover()
    digests = {}
    for m in todo:
        h = m["header"]
        opts, archers, _ = from_header(h)
        g = (Game if game_of(h) == Game.GAME else Match)(opts, archers)
        n = j.start_match(h)
        for ev in m["events"]:
            g.apply(ev)
            j.append(ev)
        j.finish(result(g))
        j.confirm(0)
        j.confirm(1)
        digests[str(n)] = match_digest(h, list(m["events"]))
    j.close()
    if j._slots is not None:
        j._slots.close()
    journal.FAT = False
    return digests


def tar_gz(folder, dst):
    """folder's files (not its name) into a reproducible tar.gz."""
    import tarfile

    with open(dst, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as g:
        with tarfile.open(fileobj=g, mode="w", format=tarfile.PAX_FORMAT) as t:
            for d, dirs, names in sorted(os.walk(folder)):
                dirs.sort()
                for n in sorted(names):
                    p = os.path.join(d, n)
                    info = t.gettarinfo(p, os.path.relpath(p, folder))
                    info.mtime, info.uid, info.gid, info.uname, info.gname = 0, 0, 0, "", ""
                    with open(p, "rb") as f:
                        t.addfile(info, f)


def league_dump(dst):
    """A small league (tests/support/leaguegen.py: LEAGUE_CLUBS clubs of two boxes, LEAGUE_MATCHES
    matches) on a PostgreSQL server of the tests' (tests/support/pgserver.py), dumped by pg_dump
    as plain SQL, gzipped; returns what the league reads from it."""
    import leaguegen
    import pgserver

    with pgserver.started() as server:
        url = server.new_database()
        leaguegen.generate(url, LEAGUE_MATCHES, pool=LEAGUE_MATCHES, clubs=LEAGUE_CLUBS, boxes=2)
        reads = league_reads(url)
        p = subprocess.run(
            [pgserver._bin("pg_dump"), "--no-owner", "--no-privileges", "-d", url],
            capture_output=True,
            check=True,
            timeout=120,
        )
    with gzip.GzipFile(dst, "wb", mtime=0) as g:
        g.write(p.stdout)
    return reads


def gz(src, dst):
    with open(src, "rb") as f, gzip.GzipFile(dst, "wb", mtime=0) as g:
        shutil.copyfileobj(f, g)


def main():
    import pathlib

    import boxfill
    import flashfill
    from bothstore import both_games

    os.makedirs(OUT, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        flash, _ = boxfill.fill(pathlib.Path(tmp), BOX_MATCHES, seed=1)  # Tic Tac BOW (journal_fill.py)
        flashfill.write(pathlib.Path(tmp), flash, flashfill.matches("ttt", 2, 2))  # then Try-Tac-Toe
        box_roster(pathlib.Path(tmp), flash, BOX_ROSTER)
        gz(flash, os.path.join(OUT, "box.flash.gz"))
        # What syncing the box into a new store gives (the flash as the box keeps it, before).
        fresh = os.path.join(tmp, "fresh.sqlite")
        probe = os.path.join(tmp, "probe.flash")
        shutil.copy(flash, probe)
        sync_flash(probe, fresh)
        box = store_reads(fresh)
        club = os.path.join(tmp, "club.sqlite")
        both_games(club, more=STORE_MORE)
        sync_flash(flash, club)
        db = sqlite3.connect(club)
        db.execute("VACUUM")
        db.close()
        gz(club, os.path.join(OUT, "club.sqlite.gz"))
        drive = os.path.join(tmp, "CIRCUITPY")
        fat = fat_drive(drive, flashfill.matches("ttb", 3, 3) + flashfill.matches("ttt", 2, 4))
        tar_gz(drive, os.path.join(OUT, "fat-drive.tar.gz"))
        fresh = os.path.join(tmp, "fat.sqlite")
        from scorebox.store.sqlite import Store
        from scorebox.sync import rescue

        st = Store(fresh)
        rescue.sync_drive(drive, st)
        st.close()
        expected = {
            "version": "1.0.0",
            "club.sqlite": store_reads(club),
            "box.flash": box,
            "league.sql": league_dump(os.path.join(OUT, "league.sql.gz")),
            "fat-drive": {"device": FAT_UID, "digests": fat, "store": store_reads(fresh)},
        }
    with open(os.path.join(OUT, "expected.json"), "w") as f:
        json.dump(expected, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
