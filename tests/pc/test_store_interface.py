"""The Store's declared interface (store/base.py): both implementations give exactly its methods,
with its arguments; a Store is a context manager that closes; `with store.transaction():`
stores all written inside it or none of it, and a transaction inside another is part of it;
add_checked tells its caller (a league: league/db.py) of the matches it stored, in the same
transaction."""

import inspect
import sqlite3

import pytest
from storegen import match_items

from scorebox.store import base
from scorebox.store.checks import check
from scorebox.store.postgres import Store as PostgresStore
from scorebox.store.sqlite import Store as SQLiteStore


def public_methods(cls):
    return {
        name: inspect.signature(fn)
        for name, fn in inspect.getmembers(cls, inspect.isfunction)
        if not name.startswith("_") or name in ("__enter__", "__exit__")
    }


@pytest.mark.parametrize("impl", [SQLiteStore, PostgresStore], ids=["sqlite", "postgres"])
def test_each_implementation_gives_exactly_the_declared_methods(impl):
    declared = public_methods(base.Store)
    given = public_methods(impl)
    assert sorted(given) == sorted(declared)
    for name, sig in declared.items():
        assert list(given[name].parameters) == list(sig.parameters), name
        defaults = [p.default for p in sig.parameters.values()]
        assert [p.default for p in given[name].parameters.values()] == defaults, name


BOX = "e66141aa00000001"


def one_box(n):
    """(uid, [items]) of one box's first n generated matches."""
    return BOX, [item for _, item in match_items(n, devices=(BOX,))]


def test_a_store_closes_at_the_end_of_its_with(tmp_path):
    with SQLiteStore(str(tmp_path / "club.sqlite")) as s:
        assert s.count() == 0
    with pytest.raises(sqlite3.ProgrammingError):
        s.count()


def test_a_transaction_stores_all_or_nothing(tmp_path):
    uid, items = one_box(6)
    with SQLiteStore(str(tmp_path / "club.sqlite")) as s:
        with pytest.raises(RuntimeError):
            with s.transaction():
                assert all(r is True for r in s.add_matches(uid, items[:2]))  # a transaction inside it
                s.add_archer("Robin")
                raise RuntimeError("the caller changed its mind")
        assert s.count() == 0 and s.find_archer("Robin") is None
        with s.transaction():
            s.add_matches(uid, items[:2])
            s.add_archer("Robin")
        assert s.count() == 2 and s.find_archer("Robin") is not None


def test_add_checked_tells_of_the_new_matches_in_its_transaction(tmp_path):
    uid, items = one_box(5)
    told = []
    with SQLiteStore(str(tmp_path / "club.sqlite")) as s:
        s.add_matches(uid, items[:2])
        done, _ = s.add_checked(uid, [check(*it) for it in items], on_stored=lambda a, b: told.append((a, b)))
        assert done == [False, False, True, True, True]
        ids = [m["id"] for m in s.matches()]
        assert told == [(ids[2], ids[4])]

        def refuse(first, last):
            raise RuntimeError("the league could not keep them")

        more = one_box(8)[1][len(items) :]
        with pytest.raises(RuntimeError):
            s.add_checked(uid, [check(*it) for it in more], on_stored=refuse)
        assert s.count() == 5  # what on_stored refused was not stored either
        assert s.add_checked(uid, [], on_stored=refuse) == ([], 0)  # nothing new: not told
