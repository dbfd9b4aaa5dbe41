"""Store.compile_writes compiles every statement add_checked runs: a sync calls it while the box
sends its first file (sync/storing.py), so that the first batch stored compiles nothing. Pinned on
SQLite, the club's store a sync writes: a statement added to the writing path and not to
compile_writes fails here."""

from storegen import match_items

from scorebox.store import sql
from scorebox.store.sqlite import Store

# store/sql.py's caches of compiled statements and of the texts of its INSERTs
CACHES = (sql._compiled, sql._insert_text, sql._staged)


def misses():
    return [cache.cache_info().misses for cache in CACHES]


def test_the_first_matches_stored_compile_nothing_after_compile_writes(tmp_path):
    items = [item for _, item in match_items(3, devices=("e66141aa00000001",))]
    with Store(str(tmp_path / "club.sqlite")) as store:
        for cache in CACHES:
            cache.cache_clear()
        store.compile_writes()
        compiled = misses()
        assert all(compiled), compiled
        quarantine = [("g00001.tbj", 0, b"\x00" * 8)]
        result = store.add_checked("e66141aa00000001", [], quarantine)
        assert result == ([], 1)
        assert store.add_matches("e66141aa00000001", items, from_box=True) == [True] * 3
        assert misses() == compiled


def test_without_it_the_first_matches_stored_compile_their_statements(tmp_path):
    """The test above can fail: the same store compiles on its first add when not told ahead."""
    items = [item for _, item in match_items(3, devices=("e66141aa00000001",))]
    with Store(str(tmp_path / "club.sqlite")) as store:
        for cache in CACHES:
            cache.cache_clear()
        before = misses()
        assert store.add_matches("e66141aa00000001", items, from_box=True) == [True] * 3
        assert all(after > b for after, b in zip(misses(), before))
