"""A full disk while storing (issue 13, item 18): SQLite rolls the transaction back itself,
and the store said "cannot rollback - no transaction is active" in a traceback, hiding why.
Now one StoreError says the disk is full and that nothing was stored; the store is sound
and takes the matches once there is room. The limit is SQLite's own max_page_count on a
real store file (a full disk to SQLite)."""

import pytest
from storegen import match_items

from scorebox.store.errors import StoreError
from scorebox.store.sqlite import Store


def test_a_full_disk_is_one_clear_error_and_loses_nothing(tmp_path):
    s = Store(str(tmp_path / "club.sqlite"))
    by_box = {}
    for uid, item in match_items(60):
        by_box.setdefault(uid, []).append(item)
    uid, items = next(iter(by_box.items()))
    pages = s.db.execute("PRAGMA page_count").fetchone()[0]
    s.db.execute("PRAGMA max_page_count = %d" % (pages + 3))
    with pytest.raises(StoreError, match="database or disk is full.*nothing was stored"):
        s.add_matches(uid, items)
    assert s.count() == 0 and s.check() == []
    s.db.execute("PRAGMA max_page_count = 1073741823")  # room again
    assert all(r is True for r in s.add_matches(uid, items))
    assert s.count() == len(items)
