"""The store on PostgreSQL (issue 26, items 1 and 4): the same Store as SQLite's, on a real
PostgreSQL server the tests start (tests/support/pgserver.py). The same matches stored in
both give the same answers to every query the commands and reports ask."""

import base64
import csv
import inspect
import json
import os
import time

import pytest
from bothstore import TTT_BOX, both_games
from storegen import match_items

from scorebox import cli
from scorebox.store import lock
from scorebox.store.access import open_store
from scorebox.store.checks import match_digest
from scorebox.store.errors import SchemaMismatch
from scorebox.store.historydb import HistoryDB
from scorebox.store.queries import Queries
from scorebox.store.rosterdb import RosterDB
from scorebox.store.sqlite import Store as SQLiteStore
from scorebox_core import games

pytest_plugins = ("pgserver",)  # its fixtures: pg_server, pg_url, store_at
psycopg = pytest.importorskip("psycopg", reason="psycopg not installed: pip install -e .[test] (make does)")

ORDERED = ("matches", "matches_by_box", "match_records", "arrow_batches")  # their order is theirs to keep
NOT_READS = ("close", "discard_if_empty", "identity", "transaction")  # identity: each store's own, made at random


def reads():
    """The Store's reads that need no arguments: Queries' (what the reports read), RosterDB's,
    HistoryDB's and the Store's own; a read added later is compared here without an edit."""
    out = set()
    for cls in (Queries, RosterDB, HistoryDB, SQLiteStore):
        for name, fn in vars(cls).items():
            if name.startswith("_") or not inspect.isfunction(fn) or name in NOT_READS:
                continue
            if all(p.default is not p.empty for p in list(inspect.signature(fn).parameters.values())[1:]):
                out.add(name)
    return sorted(out)


def _now(x):
    """x as plain lists, with the times the stores set themselves (when a box was last seen, a
    match or an archer added) as NOW: the two stores were filled a moment apart."""
    if isinstance(x, float) and abs(x - time.time()) < 3600:
        return "NOW"
    if isinstance(x, dict):
        return {k: _now(v) for k, v in x.items()}
    if isinstance(x, (list, tuple, set)) or hasattr(x, "__next__") or hasattr(x, "fetchall"):
        return [_now(v) for v in x]
    return x


def test_the_same_matches_read_the_same_on_both(pg_url, tmp_path):
    a = open_store(both_games(str(tmp_path / "club.sqlite"), more=40))
    b = open_store(both_games(pg_url, more=40))
    try:
        assert len(reads()) >= 20
        for name in reads():
            want, got = _now(getattr(a, name)()), _now(getattr(b, name)())
            if isinstance(want, list) and name not in ORDERED:  # ties in an ORDER BY: either order
                want, got = sorted(want, key=repr), sorted(got, key=repr)
            assert got == want, name
        ma, mb = a.months({1, 2}), b.months({1, 2})
        for m in ma + mb:  # group_concat's order is neither store's promise
            m["boxes"] = sorted(m["boxes"].split(","))
        assert mb == ma
        assert b.newest_matches(5) == a.newest_matches(5)
        for gid, _ in games.GAMES:
            assert b.matches_of(gid) == a.matches_of(gid)
            assert b.matches_of(gid, 2) == a.matches_of(gid, 2)
        assert b.load_match(3) == a.load_match(3) and b.load_match("hand/2") == a.load_match("hand/2")
        assert b.identity() != a.identity() and len(b.identity()) == 16
    finally:
        a.close()
        b.close()


COMMANDS = [  # {db}: the store; {dir}: the test's folder; {box}: the Try-Tac-Toe games' box
    "matches --db {db}",
    "matches --json --db {db}",
    "show 1 --db {db}",
    "show {box}/2 --db {db}",
    "stats --db {db}",
    "stats Ann --db {db}",
    "stats --ttt --json --db {db}",
    "export --format csv --out {dir}/csv --db {db}",
    "export --format json --out {dir}/json --db {db}",
    "import {dir}/json --db {db}",
    "archers add Zed --db {db}",
    "archers rename Zed Zoe --db {db}",
    "archers retire Zoe --db {db}",
    "archers import {dir}/members.csv --db {db}",
    "archers list --retired --db {db}",
    "boxes name {box} Red --db {db}",
    "boxes list --db {db}",
    "show 2 --names Cat,Dan --force --add --db {db}",  # Dan: a new archer
    "show 4 --names Ann,Yan,Zed --force --add --db {db}",
    "import {dir}/json --db {new}",  # into a new store: every archer, box and match new there
    "archers list --retired --db {new}",
    "stats --db {new}",
    "stats Cat --db {db}",
    "matches --db {db}",
]


def _run_all(db, new, folder, capsys):
    """[(exit status, stdout, stderr)] of COMMANDS on the store db (and new, an empty one),
    their places written DB and NEW."""
    folder.mkdir()
    (folder / "members.csv").write_text("name\nAnn\nYan\n")
    out = []
    for command in COMMANDS:
        argv = command.format(db=db, new=new, dir=str(folder), box=TTT_BOX).split()
        status = cli.main(argv)
        got = capsys.readouterr()
        text = [t.replace(db, "DB").replace(new, "NEW").replace(str(folder), "DIR") for t in (got.out, got.err)]
        out.append((command, status) + tuple(text))
    return out


def test_every_store_command_says_the_same_on_both(pg_server, tmp_path, capsys):
    lite = both_games(str(tmp_path / "club.sqlite"))
    want = _run_all(lite, str(tmp_path / "new.sqlite"), tmp_path / "lite", capsys)
    got = _run_all(both_games(pg_server.new_database()), pg_server.new_database(), tmp_path / "pg", capsys)
    for w, g in zip(want, got):
        assert w[1] == 0, w
        assert g == w
    for name in sorted(os.listdir(tmp_path / "lite" / "csv")):
        assert _csv(tmp_path / "pg" / "csv" / name) == _csv(tmp_path / "lite" / "csv" / name), name


def _csv(path):
    """The rows of an exported CSV file, but when its matches were stored (each store's own)."""
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    keep = [i for i, name in enumerate(rows[0]) if name != "imported"]
    return [[r[i] for i in keep] for r in rows]


def _one_line(capsys):
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


def test_backup_and_restore_refuse_a_postgresql_store_in_one_line(pg_url, tmp_path, capsys):
    both_games(pg_url)
    assert cli.main(["backup", str(tmp_path / "b.sqlite"), "--db", pg_url]) == 2
    assert "PostgreSQL store" in _one_line(capsys) and not os.path.exists(tmp_path / "b.sqlite")
    lite = both_games(str(tmp_path / "club.sqlite"))
    assert cli.main(["backup", str(tmp_path / "b.sqlite"), "--db", lite]) == 0
    capsys.readouterr()
    assert cli.main(["restore", str(tmp_path / "b.sqlite"), "--db", pg_url]) == 2
    assert "pg_dump" in _one_line(capsys)
    assert open_store(pg_url).count() == 5  # as it was


def test_scorebox_db_names_the_store(pg_url, tmp_path, monkeypatch, capsys):
    both_games(pg_url)
    monkeypatch.setenv("SCOREBOX_DB", pg_url)
    assert cli.main(["matches", "--json"]) == 0
    assert [m["number"] for m in json.loads(capsys.readouterr().out)] == [1, 2, 3, 1, 2]
    monkeypatch.setenv("SCOREBOX_DB", str(tmp_path / "club.sqlite"))  # a file there too
    assert cli.main(["matches"]) == 2 and "no store at" in _one_line(capsys)


def test_a_reader_makes_no_store_in_an_empty_database(pg_url, capsys):
    assert cli.main(["matches", "--db", pg_url]) == 2
    assert "no store at" in _one_line(capsys)
    with psycopg.connect(pg_url) as db:
        assert db.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'").fetchone()[0] == 0


def test_an_unreachable_server_is_one_line_without_the_password(tmp_path, capsys):
    pytest.importorskip("psycopg")
    url = "postgresql://league:s3cret@/scorebox?host=%s" % tmp_path  # no server's socket there
    assert cli.main(["matches", "--db", url]) == 2
    err = _one_line(capsys)
    assert "cannot reach the PostgreSQL store" in err and "s3cret" not in err


def test_a_newer_schema_is_refused(pg_url):
    open_store(pg_url, create=True).close()
    with psycopg.connect(pg_url, autocommit=True) as db:
        db.execute("UPDATE scorebox_version SET version_num = 'store_9_0'")  # a later scorebox's
    with pytest.raises(SchemaMismatch, match="newer than this scorebox"):
        open_store(pg_url)


def test_what_a_sync_asks_of_the_store(store_at):
    """sync/pull.py's and rescue.py's calls, on both stores: the same answers."""
    s = open_store(store_at, create=True)
    try:
        by_box = {}
        for uid, item in match_items(12):
            by_box.setdefault(uid, []).append(item)
        uid, items = next(iter(by_box.items()))
        assert s.last_number(uid) == 0 and not s.has_match(uid, items[0][0])
        assert all(r is True for r in s.add_matches(uid, items, from_box=True))
        assert s.add_matches(uid, items[:1]) == [False]  # stored once
        numbers = [n for n, _, _, _ in items]
        assert s.last_number(uid) == max(numbers) and s.has_match(uid, numbers[-1])
        got = s.digests(uid, numbers + [10**30, "x"])  # past 64 bits, not a number: no such match
        assert got == {n: match_digest(h, log) for n, h, log, _ in items}
        big = bytes(range(256)) * 40  # longer than an index row of the server's
        assert s.add_quarantine(uid, [("g000001.tbj", 0, big), ("g000001.tbj", 9, b"\x00")]) == 2
        assert s.add_quarantine(uid, [("g000001.tbj", 0, big), ("g000001.tbj", 9, b"\x01")]) == 1
        assert [q["data"] for q in s.quarantine_records()][0] == base64.b64encode(big).decode()
        assert s.merge_from_box(["Zed", "zed", "Ann", ""]) == (["Zed"], [])
        assert s.check() == []
        ident = s.identity()
    finally:
        s.close()
    again = open_store(store_at)  # opened again: migrated once, the same store
    assert again.identity() == ident and again.count() == len(items)
    again.close()


def test_another_writer_is_waited_for_then_one_line(pg_url, monkeypatch, capsys):
    """A command that finds another holding the write lock waits lock.LOCK_WAIT seconds, as on
    SQLite (tests/pc/test_store_locked.py), then says so in one line; nothing is stored."""
    from scorebox.store.postgres import WRITE_LOCK

    open_store(pg_url, create=True).close()
    monkeypatch.setattr(lock, "LOCK_WAIT", 1)
    with psycopg.connect(pg_url, autocommit=True) as other:
        other.execute("SELECT pg_advisory_lock(%s)", (WRITE_LOCK,))
        assert cli.main(["archers", "add", "Zed", "--db", pg_url]) == 2
        assert "another command held the store's write lock for 1 s" in _one_line(capsys)
        other.execute("SELECT pg_advisory_unlock(%s)", (WRITE_LOCK,))
        assert cli.main(["archers", "add", "Zed", "--db", pg_url]) == 0
    assert [r[0] for r in open_store(pg_url).archers()] == ["Zed"]


def test_what_the_server_refuses_is_one_line(pg_url, capsys):
    """A user who may only read the store (a league's page, say): reads work, a write is one
    CannotWrite line and stores nothing."""
    both_games(pg_url)
    user = "reader_" + pg_url.split("/")[3].split("?")[0]  # roles are the server's: one per database
    with psycopg.connect(pg_url, autocommit=True) as db:
        db.execute("CREATE ROLE %s LOGIN" % user)
        db.execute("GRANT SELECT ON ALL TABLES IN SCHEMA public TO %s" % user)
    reader = pg_url.replace("scorebox@", user + "@")
    assert cli.main(["matches", "--db", reader]) == 0
    capsys.readouterr()
    assert cli.main(["archers", "add", "Zed", "--db", reader]) == 2
    assert "cannot write the store" in _one_line(capsys)
    assert "Zed" not in [r[0] for r in open_store(pg_url).archers()]


@pytest.fixture
def london(monkeypatch):
    monkeypatch.setenv("TZ", "Europe/London")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def test_the_months_are_in_local_time_summer_time_too(london, tmp_path, pg_url):
    """A match started at 23:30 UTC on 31 March is April's in London (summer time: 00:30), on
    both stores, whatever the offset today (the report's months: Queries.months)."""
    started = 1806535800  # 2027-03-31 23:30 UTC
    out = []
    for where in (str(tmp_path / "club.sqlite"), pg_url):
        s = open_store(where, create=True)
        uid, (number, header, log, extras) = next(iter(match_items(1)))
        assert s.add_matches(uid, [(number, dict(header, clock=started), log, extras)]) == [True]
        out.append([m["month"] for m in s.months(set())])
        s.close()
    assert out == [["2027-04"], ["2027-04"]]
