"""The bench's kept cache folders (bench/cache_folders.py): bench_league_1m.py's league of
1,000,000 matches is a 12 GB folder bench/cache/league-COUNT-HASH/, HASH of its inputs, and
the folder of the inputs before stayed when they changed. The bench now marks the folders it
makes and removes its own stale ones (same count, another hash); one it did not mark is left,
named in one line. Here on a temporary folder, and league_folder() on a league of 60."""

import functools
import os
import pathlib
import shutil
import sys
import tempfile

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(__file__))), "bench"))

import cache_folders  # noqa: E402

pytest_plugins = ("pgserver",)

KEEP = "league-1000000-5c4aeae9e43af61a"


def made(path, marked=True):
    if marked:
        cache_folders.mark(str(path))
    else:
        path.mkdir()
    (path / "data").mkdir()
    (path / "data" / "base").write_bytes(b"x" * 100)
    return path


def test_the_stale_folders_the_bench_made_are_removed_and_no_other(tmp_path):
    made(tmp_path / KEEP)
    made(tmp_path / (KEEP + ".part"))  # the current one's generation cut short: league_folder's
    made(tmp_path / "league-1000000-87de3fe40a06151d")  # stale, the bench's
    made(tmp_path / "league-1000000-0123456789abcdef.part")  # stale, cut short
    made(tmp_path / "league-1000000-aaaaaaaaaaaaaaaa", marked=False)  # stale, not the bench's
    made(tmp_path / "league-1000-bbbbbbbbbbbbbbbb")  # another count (SCOREBOX_LEAGUE_MATCHES)
    made(tmp_path / "league-1000000-notahash")
    made(tmp_path / "store-100k-v1")
    (tmp_path / "league-1000000-cccccccccccccccc").write_bytes(b"a file")
    os.symlink(made(tmp_path / "elsewhere"), tmp_path / "league-1000000-dddddddddddddddd")
    said = []
    removed = cache_folders.prune(str(tmp_path), "league-1000000-", KEEP, say=said.append)
    assert removed == ["league-1000000-0123456789abcdef.part", "league-1000000-87de3fe40a06151d"]
    assert sorted(os.listdir(tmp_path)) == [
        "elsewhere",
        "league-1000-bbbbbbbbbbbbbbbb",
        KEEP,
        KEEP + ".part",
        "league-1000000-aaaaaaaaaaaaaaaa",
        "league-1000000-cccccccccccccccc",
        "league-1000000-dddddddddddddddd",
        "league-1000000-notahash",
        "store-100k-v1",
    ]
    assert (tmp_path / "elsewhere" / "data" / "base").exists()  # a link's folder is not followed
    left = [s for s in said if "left alone" in s]
    assert len(left) == 2 and "league-1000000-aaaaaaaaaaaaaaaa:" in left[0] and cache_folders.MARK in left[0]
    assert "league-1000000-dddddddddddddddd:" in left[1]
    assert cache_folders.prune(str(tmp_path), "league-1000000-", KEEP, say=said.append) == []
    assert cache_folders.prune(str(tmp_path / "none"), "league-1000000-", KEEP) == []  # no cache yet


@pytest.fixture
def bench_dir():
    """A folder the server's user can reach (pytest's tmp_path is its owner's alone), as
    bench/ is."""
    import pgserver

    why = pgserver.missing()
    if why:
        pytest.skip(why)
    folder = tempfile.mkdtemp(prefix="scorebox-bench-cache-")
    os.chmod(folder, 0o755)
    yield pathlib.Path(folder)
    shutil.rmtree(folder)


def test_league_folder_marks_what_it_makes_and_removes_its_stale_one(bench_dir, monkeypatch):
    import leaguegen

    sys.path.insert(0, os.path.dirname(cache_folders.__file__))
    import bench_league_1m

    monkeypatch.setattr(bench_league_1m, "HERE", str(bench_dir))
    monkeypatch.setattr(bench_league_1m, "MATCHES", 60)
    small = functools.partial(leaguegen.generate, pool=14, clubs=2, boxes=2)  # test_leaguegen.py's sizes
    monkeypatch.setattr(bench_league_1m.leaguegen, "generate", small)
    stale = made(bench_dir / "cache" / "league-60-0123456789abcdef")
    folder, seconds = bench_league_1m.league_folder()
    assert seconds is not None and os.path.basename(folder) == "league-60-" + leaguegen.inputs_hash(60)
    assert os.path.isfile(os.path.join(folder, cache_folders.MARK)) and not stale.exists()
    assert sorted(os.listdir(bench_dir / "cache")) == [os.path.basename(folder)]
