"""The 1.0 forms of every kind Scorebox keeps (tests/fixtures/1.0/README.md), made once by
release 1.0.0's own code (tools/make_fixtures.py), opened by today's code: a club's SQLite
store opens with no migration and reads as it did; a box's LittleFS flash, booted in the
virtual Pico, is synced by the real `scorebox sync` into a new store and gives its matches; a
CircuitPython box's FAT drive is rescued by the PC (sync --drive) and gives its matches; a
league's pg_dump, loaded into PostgreSQL, opens with LeagueDB and its standings read as they
did. The rule: from 1.0 on a format changes only with a migration, and these tests stay
green. A failure here is never fixed by making the fixtures again."""

import gzip
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tarfile

import pytest
from fixturereads import GAMES, league_reads, store_reads

from scorebox.store.migrate import STORE
from scorebox.store.sqlite import Store

pytest_plugins = ("pgserver",)  # pg_server: the tests' PostgreSQL server

HERE = os.path.dirname(os.path.abspath(__file__))
FIX = os.path.join(os.path.dirname(HERE), "fixtures", "1.0")
FAT_UID = "cp-fixture-box"


@pytest.fixture(scope="module")
def expected():
    with open(os.path.join(FIX, "expected.json")) as f:
        return json.load(f)


def gunzip(name, dst):
    with gzip.open(os.path.join(FIX, name), "rb") as f, open(dst, "wb") as out:
        shutil.copyfileobj(f, out)
    return str(dst)


def without_box(reads):
    """reads with the box's id left out: the virtual Pico's id is its flash file's."""
    return {
        "match_count": reads["match_count"],
        "matches": [{k: v for k, v in m.items() if k != "device"} for m in reads["matches"]],
        "digests": sorted(reads["digests"].values(), key=json.dumps),
        "archers": reads["archers"],
    }


def test_the_club_store_opens_with_no_migration(tmp_path, expected):
    path = gunzip("club.sqlite.gz", tmp_path / "club.sqlite")
    db = sqlite3.connect(path)
    have = STORE.revision(db, True)
    db.close()
    assert STORE.current(have, path), "the 1.0 store needs a migration: %s, head %s" % (have, STORE.head)
    want = expected["club.sqlite"]
    assert store_reads(path) == want
    assert {m["game"] for m in want["matches"]} == set(GAMES)  # both games
    assert Store(path).check() == []


@pytest.mark.micropython
def test_the_box_flash_syncs_into_a_new_store(tmp_path, expected):
    from picoheap import PicoHeapVirtualPico

    from scorebox.device import link

    flash = gunzip("box.flash.gz", tmp_path / "box.flash")
    db = str(tmp_path / "club.sqlite")
    vp = PicoHeapVirtualPico(flash)
    try:
        ser = link.open_port(vp.port)
        vp.wait_ready(link.Client(ser, timeout=1.0, retries=0))
        ser.close()
        exe = os.path.join(os.path.dirname(sys.executable), "scorebox")
        p = subprocess.run([exe, "sync", "--port", vp.port, "--db", db], capture_output=True, text=True, timeout=300)
        assert p.returncode == 0, p.stdout + p.stderr
    finally:
        vp.close()
    want = expected["box.flash"]
    assert without_box(store_reads(db)) == without_box(want)
    assert {m["game"] for m in want["matches"]} == set(GAMES)
    assert {"Ivy", "Jon"} <= {a[0] for a in want["archers"]}  # the box's roster, merged by the sync


def test_the_fat_drive_is_rescued(tmp_path, expected):
    from scorebox.sync import rescue

    drive = tmp_path / "CIRCUITPY"
    with tarfile.open(os.path.join(FIX, "fat-drive.tar.gz")) as t:
        t.extractall(drive, filter="data")
    db = str(tmp_path / "club.sqlite")
    store = Store(db)
    s = rescue.sync_drive(str(drive), store)
    store.close()
    want = expected["fat-drive"]
    assert s.device == want["device"] == FAT_UID
    assert store_reads(db) == want["store"]
    assert store_reads(db)["digests"][FAT_UID] == want["digests"]


def test_the_league_dump_opens_with_leaguedb(tmp_path, pg_server, expected):
    import pgserver

    url = pg_server.new_database()
    sql = gunzip("league.sql.gz", tmp_path / "league.sql")
    p = subprocess.run(
        [pgserver._bin("psql"), "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", url, "-f", sql],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert p.returncode == 0, p.stderr
    import psycopg

    from scorebox.league.db import LEAGUE

    with psycopg.connect(url) as db:  # before the league's code opens it (it would migrate)
        for schema in (STORE, LEAGUE):
            have = db.execute("SELECT version_num FROM %s" % schema.version_table).fetchone()[0]
            assert schema.current(have, url), "the 1.0 league needs a migration: %s %s" % (schema.name, have)
    assert league_reads(url) == expected["league.sql"]
    # and takes a club's new matches: their rows' ids from the 1.0 tables' sequences
    from storegen import match_items

    from scorebox.store.access import open_store

    with open_store(url) as store:
        before = store.count()
        items = [item for _, item in match_items(3, seed=7, devices=["e6614103f1f1f1f1"])]
        assert store.add_matches("e6614103f1f1f1f1", items) == [True, True, True]
        assert store.count() == before + 3
