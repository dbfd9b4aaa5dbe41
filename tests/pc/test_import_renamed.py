"""`scorebox archers import` never derives a box name an archer had before a rename (issue
21 review, item 5). Such a name still files a box's matches under the renamed archer (a box
that had the old name keys it until its next sync: store/rows.py), unless another archer
has it now: a new member given that name took, before, the renamed archer's later matches
from a box that still had it. `merge_from_box` already kept clear of those names. On both
games: a Tic Tac BOW match and a Try-Tac-Toe game, each keyed under the old name."""

import os
import subprocess
import sys

import pytest
from storegen import match_items
from storehelp import add_match
from ttt_history import full_game, ttt_header

from scorebox.store.access import open_store

pytest_plugins = ("pgserver",)  # store_at: a file of SQLite's, then a PostgreSQL database


def scorebox(*args):
    exe = os.path.join(os.path.dirname(sys.executable), "scorebox")
    return subprocess.run([exe, *args], capture_output=True, text=True, timeout=120)


def stored(db, game, archers):
    s = open_store(db, create=True)
    try:
        if game == "Tic Tac BOW":
            _, (number, header, log, extras) = next(match_items(1, seed=5))
            assert s.add_matches("e6614103e7a1b2c3", [(9, dict(header, archers=archers), log, extras)]) == [True]
        else:
            g = full_game(3)
            assert add_match(s, "e66141030c0ffee1", 9, dict(ttt_header(g, 1790100009), archers=archers), list(g.log))
    finally:
        s.close()


@pytest.mark.parametrize("game", ["Tic Tac BOW", "Try-Tac-Toe"])
def test_a_derived_name_is_never_a_renamed_archers_old_name(tmp_path, store_at, game):
    db = store_at
    assert scorebox("archers", "add", "Alexandra M", "--db", db).returncode == 0
    p = scorebox("archers", "rename", "Alexandra M", "Sandra Mills", "--db", db)
    assert p.returncode == 0, p.stderr
    csv = tmp_path / "members.csv"
    csv.write_text("Full Name\nAlexandra Moore\n", encoding="utf-8")
    p = scorebox("archers", "import", str(csv), "--save", "--db", db)
    assert p.returncode == 0, p.stderr
    assert "Alexandra Moore -> Alexandra Mo" in p.stdout, p.stdout
    stored(db, game, [["Alexandra M"], ["Bob"]])  # a box that still had the old name
    p = scorebox("matches", "--db", db)
    assert p.returncode == 0, p.stderr
    line = [ln for ln in p.stdout.splitlines() if ln.split()[:1] == ["1"]]
    assert len(line) == 1 and "Sandra Mills" in line[0] and "Alexandra" not in line[0], p.stdout
