"""`scorebox archers` and naming a match afterwards (#12 Must-fix 1), on a real SQLite store."""

import json
import os
import subprocess
import sys

import pytest
from storegen import match_items

from scorebox.store.sqlite import Store


def scorebox(*args):
    exe = os.path.join(os.path.dirname(sys.executable), "scorebox")
    return subprocess.run([exe, *args], capture_output=True, text=True, timeout=120)


@pytest.fixture
def db(tmp_path):
    return str(tmp_path / "club.sqlite")


def names(db, *more):
    if not os.path.exists(db):
        return []  # a refused first add leaves no store behind (test_cli_edges.py): nothing added
    p = scorebox("archers", "list", "--db", db, *more)
    assert p.returncode == 0, p.stderr
    return [ln.split()[0] for ln in p.stdout.splitlines()[1:-1]]


def stored(db, archers, uid="e6614103e7a1b2c3", number=1):
    """A match shot by archers ([[side A], [side B]]) stored as sync would."""
    _, (_, header, log, extras) = next(match_items(1, seed=number))
    header = dict(header, archers=archers)
    Store(db).add_matches(uid, [(number, header, log, extras)], from_box=True)


def test_add_keeps_the_name_as_typed_and_compares_without_case(db):
    p = scorebox("archers", "add", "Ann", "bob smith", "--db", db)
    assert p.returncode == 0 and "added Ann" in p.stdout and "added bob smith" in p.stdout
    p = scorebox("archers", "add", "ANN", "--db", db)
    assert p.returncode == 0 and "ANN is on the roster already (as Ann): nothing added" in p.stdout
    assert names(db) == ["Ann", "bob"]  # bob smith, first word


@pytest.mark.parametrize(
    "name, why",
    [
        ("Esc\x1b[2J", "has a control character"),
        ("Tab\tbed", "has a control character"),
        ("Zoë", "plain ASCII"),
        ("Annabelle-Rose", "is 14 characters: the box takes 12 at most"),
        ("b", "unnamed side"),
        ("-", "unnamed side"),
        ("  ", "cannot be empty"),
    ],
)
def test_a_name_the_box_cannot_take_is_refused_with_the_reason(db, name, why):
    p = scorebox("archers", "add", "Ann", name, "--db", db)
    assert p.returncode == 2 and why in p.stderr and len(p.stderr.splitlines()) == 1, p.stderr
    assert names(db) == []  # all checked before any is added


def test_formula_like_names_are_kept_in_the_store(db):
    assert scorebox("archers", "add", "--db", db, "--", "=Ann", "+1", "@home", "-x").returncode == 0
    assert Store(db).box_names() == ["+1", "-x", "=Ann", "@home"]  # by name: no match yet


def test_import_says_what_was_added_and_skipped(db, tmp_path):
    Store(db).add_archer("Ann")
    csv = tmp_path / "members.csv"
    csv.write_text(
        '\ufeffMember no,Full Name,Email\n1,Bob,b@x\n2,ann,a@x\n3,"Cat, Jr",c@x\n\n4,Bob,b@x\n5,Zoë,z@x\n6,Dan\n',
        encoding="utf-8",
    )
    p = scorebox("archers", "import", str(csv), "--db", db)  # a box name made from Zoë: shown, not saved
    assert p.returncode == 0 and "Zoë -> Zoe" in p.stdout and "nothing saved" in p.stdout, p.stderr
    assert names(db) == ["Ann"]
    p = scorebox("archers", "import", str(csv), "--save", "--db", db)
    assert p.returncode == 0, p.stderr
    assert (
        p.stdout == "  Bob\n  Cat, Jr\n  Zoë -> Zoe\n  Dan\n4 added, 1 on the roster already, 1 repeated in the file\n"
    )


@pytest.mark.parametrize(
    "content, why",
    [
        (b"email,phone\nann@x,1\n", "no name column in the first line"),
        (b"", "empty"),
        (b"name\n\xff\xfeAnn\n", "not a text file"),
        (b'name\n"Ann\n', "not a CSV file"),
    ],
)
def test_a_malformed_csv_is_refused_in_one_line_and_adds_nothing(db, tmp_path, content, why):
    csv = tmp_path / "members.csv"
    csv.write_bytes(content)
    p = scorebox("archers", "import", str(csv), "--db", db)
    assert p.returncode == 2 and why in p.stderr and len(p.stderr.splitlines()) == 1, p.stderr
    assert names(db) == []


def test_rename_takes_the_history_along(db):
    stored(db, [["Ann"], ["Bob"]])
    p = scorebox("archers", "rename", "ann", "Anne", "--db", db)
    assert p.returncode == 0 and "renamed Ann to Anne" in p.stdout
    assert "Anne" in scorebox("matches", "--db", db).stdout
    stats = json.loads(scorebox("stats", "--json", "--db", db).stdout)
    assert sorted(stats) == ["Anne", "Bob"] and stats["Anne"]["matches"]["played"] == 1
    assert "A: Anne   B: Bob" in scorebox("show", "1", "--db", db).stdout
    stored(db, [["Ann"], ["Bob"]], number=2)  # a box that still had the old name
    stats = json.loads(scorebox("stats", "--json", "--db", db).stdout)
    assert sorted(stats) == ["Anne", "Bob"] and stats["Anne"]["matches"]["played"] == 2
    p = scorebox("archers", "rename", "Anne", "BOB", "--db", db)
    assert p.returncode == 2 and "'Bob' exists already" in p.stderr


def test_retire_leaves_the_box_list_and_keeps_the_history(db):
    stored(db, [["Ann"], ["Bob"]])
    p = scorebox("archers", "retire", "BOB", "--db", db)
    assert p.returncode == 0 and "retired Bob" in p.stdout
    assert names(db) == ["Ann"] and names(db, "--retired") == ["Ann", "Bob"]
    assert Store(db).box_names() == ["Ann"]
    assert "Bob" in json.loads(scorebox("stats", "--json", "--db", db).stdout)
    p = scorebox("archers", "add", "bob", "--db", db)
    assert "bob is back on the roster" in p.stdout and names(db) == ["Ann", "Bob"]
    p = scorebox("archers", "retire", "Zed", "--db", db)
    assert p.returncode == 2 and "no archer called 'Zed'" in p.stderr


def test_a_match_shot_as_a_v_b_is_named_afterwards(db):
    stored(db, [["A"], ["B"]])
    assert "no archers" in scorebox("stats", "--db", db).stdout
    p = scorebox("show", "1", "--names", "Ann,Bob", "--add", "--db", db)
    assert p.returncode == 0, p.stderr
    assert "A: Ann   B: Bob" in p.stdout and "(Ann):" in p.stdout and "(Bob):" in p.stdout
    row = scorebox("matches", "--db", db).stdout.splitlines()[1].split()
    assert row[5:7] == ["Ann", "Bob"]
    stats = json.loads(scorebox("stats", "--json", "--db", db).stdout)
    assert sorted(stats) == ["Ann", "Bob"]
    assert stats["Ann"]["arrows"] + stats["Bob"]["arrows"] == int(row[-1])  # every turn has its archer
    assert Store(db).box_names() == ["Ann", "Bob"]
    p = scorebox("show", "1", "--names", "Ann", "--db", db)
    assert p.returncode == 2 and "this match has 2 archers (1+1): give 2 names" in p.stderr
    p = scorebox("show", "1", "--names", "Ann,ANN", "--force", "--db", db)  # named now: --force to rename
    assert p.returncode == 2 and "both sides" in p.stderr


def test_a_team_match_is_named_in_rotation(db):
    stored(db, [["A", "Amy"], ["B"]])
    assert scorebox("show", "1", "--names", "Ann,Amy,Bob", "--add", "--db", db).returncode == 0
    s = Store(db)
    turns = s.db.execute(
        "SELECT a.name FROM turns t JOIN archers a ON a.id = t.archer_id JOIN games g ON g.id = t.game_id "
        "WHERE t.side = 'A' ORDER BY g.number, t.number"
    ).fetchall()
    assert len(turns) > 1 and [r[0] for r in turns] == [("Ann", "Amy")[i % 2] for i in range(len(turns))]  # TTB-2


def test_stats_of_an_archer_on_the_roster_with_no_match_yet(db):
    assert scorebox("archers", "add", "Ann", "--db", db).returncode == 0
    p = scorebox("stats", "ann", "--db", db)  # a new club's first look: not an error
    assert p.returncode == 0 and "Ann has no matches" in p.stdout, p.stderr
    assert scorebox("stats", "zed", "--db", db).returncode == 2
