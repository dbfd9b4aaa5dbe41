"""What a push costs, counted (issue 26 item 5, push_seconds_1000; docs/league.md's Speed):
the HTTP requests `scorebox push` makes for N matches, and the SQL statements the league's
Store sends its PostgreSQL server to store a batch, on both games. Counts, not seconds: the
seconds are bench/bench_league.py's."""

import tempfile

import pytest
from leagueclubs import add_club, clubs, league_count, running
from storegen import match_items
from ttt_history import full_game, ttt_header

from scorebox.commands import push
from scorebox.errors import ScoreboxError
from scorebox.store.access import open_store

pytest_plugins = ("pgserver",)
psycopg = pytest.importorskip("psycopg", reason="psycopg not installed: pip install -e .[test] (make does)")


class Counted(push.League):
    """The real client's requests to the real server, each path counted."""

    def __init__(self, url, token):
        super().__init__(url, token)
        self.calls = []

    def call(self, path, data):
        self.calls.append(path.rsplit("/", 1)[1])
        return super().call(path, data)


def test_a_push_asks_once_and_sends_whole_batches(pg_url, tmp_path, capsys):
    """Club A's store (both games, 5 matches) sent in batches of 2: one question for every key
    (the token checked with it), then the three batches; the first push of all, then one that
    finds every match held: one question, nothing sent."""
    a, _ = clubs(tmp_path)
    token = add_club(capsys, pg_url, "A")
    with running(pg_url) as address:
        store = open_store(a)
        try:
            league = Counted(address, token)
            assert push.push(store, league, batch=2) == (5, 0)
            assert league.calls == ["have", "push", "push", "push"]
            again = Counted(address, token)
            assert push.push(store, again, batch=2) == (0, 5)
            assert again.calls == ["have"]
        finally:
            store.close()
    assert league_count(pg_url) == 5


def test_batches_keep_to_the_servers_limits(monkeypatch):
    """A push is at most `most` matches and BODY bytes of them (the server's MAX_BATCH and half
    its MAX_BODY); a match longer than BODY alone goes alone (the server says it is too large)."""
    monkeypatch.setattr(push, "BODY", 100)
    matches = [{"log": [1] * n} for n in (10, 10, 10, 40, 60, 5)]  # 30, 30, 30, 90, 130, 20 bytes
    shape = [[len(m["log"]) for m in b] for b in push.batches(matches, 500)]
    assert shape == [[10, 10, 10], [40], [60], [5]]
    assert [len(b) for b in push.batches(matches[:3], 2)] == [2, 1]


def test_an_empty_store_still_tries_the_token(pg_url, tmp_path, capsys):
    token = add_club(capsys, pg_url, "A")
    with running(pg_url) as address:
        store = open_store(str(tmp_path / "empty.sqlite"), create=True)
        try:
            league = Counted(address, "sbl1.nobody.wrong")
            with pytest.raises(ScoreboxError, match="not a club's token"):
                push.push(store, league)
            assert league.calls == ["have"]
            assert push.push(store, Counted(address, token)) == (0, 0)
        finally:
            store.close()


def statements(store, fn, *args):
    """(fn(*args), the statements it sent the store's PostgreSQL server: simple queries and
    extended-protocol executions, read from libpq's own trace of the connection)."""
    pg = store.db.pg.pgconn
    with tempfile.TemporaryFile() as f:
        pg.trace(f.fileno())
        pg.set_trace_flags(psycopg.pq.Trace.SUPPRESS_TIMESTAMPS)
        try:
            got = fn(*args)
        finally:
            pg.untrace()
        f.seek(0)
        lines = f.read().decode(errors="replace").splitlines()
    return got, sum(1 for line in lines if line.split()[:1] == ["F"] and line.split()[2] in ("Query", "Execute"))


def batches(n, seed):
    """n Tic Tac BOW matches of a box and n Try-Tac-Toe games of another: {uid: items}."""
    out = {}
    for uid, item in match_items(n, seed=seed, devices=["e66141030000ab%02d" % seed]):
        out.setdefault(uid, []).append(item)
    for i in range(n):
        g = full_game(seed * 100 + i)
        out.setdefault("e66141030000cd%02d" % seed, []).append((i + 1, ttt_header(g, 1790100000 + i), list(g.log), {}))
    return out


def test_storing_more_matches_takes_no_more_statements(pg_url):
    """Store.add_matches on PostgreSQL: the rows go in by tables (COPY), not a statement a row,
    and the matches held already are asked for at once: 12 matches of a game take no more
    statements than 3 (before: some 85 a Tic Tac BOW match)."""
    store = open_store(pg_url, create=True)
    try:
        counts = {}
        for n, seed in ((3, 1), (12, 2)):
            for uid, items in batches(n, seed).items():
                got, count = statements(store, store.add_matches, uid, items)
                assert got == [True] * n
                counts.setdefault(n, []).append(count)
        assert all(more <= few for few, more in zip(counts[3], counts[12]))  # 3 new archers in the first
        assert max(counts[12]) <= 48  # with each table's ids taken under their lock (3 statements a table)
        assert store.count() == 30
        # the same matches again: held, nothing stored, still no statement a match
        for uid, items in batches(12, 2).items():
            got, count = statements(store, store.add_matches, uid, items)
            assert got == [False] * 12
            assert count <= 40
    finally:
        store.close()
