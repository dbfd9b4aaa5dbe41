"""Two clubs' pushes stored at the same time on a league's PostgreSQL store: a push only adds
matches, so it holds the store's write lock shared (store/postgres.py) and takes its rows'
ids from the tables' sequences, a batch's one range; what each keeps (the archers' figures,
the league's totals) is what storing them one after the other keeps."""

import threading

from sqlalchemy import text
from storegen import match_items

from scorebox.league.db import LeagueDB
from scorebox.league.keep import KEPT
from scorebox.store import figures, sql
from scorebox.store.access import open_store
from scorebox.store.checks import check

pytest_plugins = ("pgserver",)

BOXES = ("e6614103a1a1a1a1", "e6614103b2b2b2b2")
FIGURES = ("archer_results", "archer_games", "archer_opponents", "archer_arrows", "archer_claims", "archer_matches")


def snapshot(store, tables):
    """Each table's rows, summed by everything but their counts where a table is a sum."""
    out = {}
    for table in tables:
        rows = sql.run(store.db, text("SELECT * FROM %s" % table), {}).fetchall()
        out[table] = sorted(map(repr, rows))
    return out


def sums(store):
    """The archers' figures as the sums of their rows (store/figures.py: rows only added)."""
    out = {}
    for table in FIGURES:
        columns = [r[0] for r in sql.run(store.db, text("SELECT * FROM %s LIMIT 0" % table), {}).description]
        numbers = [c for c in columns if c in ("matches", "won", "lost", "drawn", "games", "arrows", "value")]
        keys = [c for c in columns if c not in numbers]
        q = "SELECT %s, %s FROM %s GROUP BY %s HAVING %s" % (
            ", ".join(keys),
            ", ".join("sum(%s)" % n for n in numbers),
            table,
            ", ".join(keys),
            " OR ".join("sum(%s) <> 0" % n for n in numbers),
        )
        out[table] = sorted(map(repr, sql.run(store.db, text(q), {}).fetchall()))
    return out


def pushed_at_once(pg_url, rosters, meet):
    """Two clubs' pushes of 40 matches each (rosters: their archers' names), stored by two
    threads at once; meet: each waits inside its transaction, once its matches are stored,
    for the other to be there too. Returns each push's range of match ids."""
    with open_store(pg_url, create=True) as s:
        league = LeagueDB(s)
        for i, (name, uid) in enumerate(zip(("Archers of A", "Bowmen of B"), BOXES)):
            league.add_club(name, "token%d" % i, "hash%d" % i)
            league.claim_boxes(league.club_by_token("token%d" % i)[0], [uid])
    pushes = {
        uid: [check(*item) for _, item in match_items(40, seed=i, devices=[uid], roster=roster)]
        for i, (uid, roster) in enumerate(zip(BOXES, rosters))
    }
    both_in = threading.Barrier(2, timeout=30)
    ranges, errors = {}, []

    def push(uid):
        try:
            with open_store(pg_url) as store:
                league = LeagueDB(store)

                def stored(first, last):
                    ranges[uid] = (first, last)
                    if meet:
                        both_in.wait()

                with store.transaction(shared=True):  # as league/server.py's push
                    done, _ = store.add_checked(uid, pushes[uid], on_stored=stored)
                    league.keep_pushed([ranges[uid]])
                assert done == [True] * len(pushes[uid])
        except Exception as e:  # noqa: BLE001 - said by the test's assertion below
            errors.append(repr(e))
            both_in.abort()

    threads = [threading.Thread(target=push, args=(uid,)) for uid in BOXES]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert errors == []
    return list(ranges.values())


def kept_as_one_after_the_other(pg_url, ranges):
    """The archers' figures and the league's totals the pushes kept, made again from every
    match at once, are what they kept."""
    (a1, a2), (b1, b2) = ranges
    assert a2 - a1 == b2 - b1 == 39 and (a2 < b1 or b2 < a1), ranges  # each push one range of ids
    with open_store(pg_url) as store:
        league = LeagueDB(store)
        assert store.count() == 80
        concurrent = sums(store), snapshot(store, KEPT)
        with store.transaction():  # the same made again, from every match at once
            for table in FIGURES:
                sql.run(store.db, text("DELETE FROM %s" % table), {})
            figures.fill(store.db, min(a1, b1), max(a2, b2))
        league.keep_all()
        assert (sums(store), snapshot(store, KEPT)) == concurrent


def test_two_clubs_store_their_pushes_in_the_same_moment(pg_url):
    """Both pushes inside their transactions at once (each waits there for the other: under
    a write lock held alone, the second would wait for the first and neither go on). Their
    archers are the league's already (a new archer's name is added by one push at a time)."""
    rosters = (["Ann", "Ben", "Cat", "Dan"], ["Eve", "Fay", "Gus", "Hal"])
    with open_store(pg_url, create=True) as store:
        for name in rosters[0] + rosters[1]:
            store.add_archer(name)
    ranges = pushed_at_once(pg_url, rosters, meet=True)
    kept_as_one_after_the_other(pg_url, ranges)


def test_two_clubs_pushing_the_same_new_archers_at_once(pg_url):
    """Archers new to the league in both pushes, in another order and case: one push adds
    each, the other takes the same archer (a name is one archer whatever its case)."""
    roster = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]
    other = [n.upper() for n in reversed(roster)]
    ranges = pushed_at_once(pg_url, (roster, other), meet=False)
    kept_as_one_after_the_other(pg_url, ranges)
    with open_store(pg_url) as store:
        assert sorted(a[0].casefold() for a in store.archers()) == [n.casefold() for n in roster]
