"""The JSON export carries the names set on the PC (an archer renamed, a match shot as
"A v B" named afterwards, a box named, the roster with its retired archers) beside the
names the box keyed (each match's header), and `scorebox import` of it gives the same
store: export, import, export again is byte for byte the same. Older files, without
these fields, import with the box's names."""

import json

import pytest
from handmatches import DEVICE, MATCH1, T0, fill, item
from storehelp import add_match
from ttt_history import full_game, ttt_header

from scorebox import cli
from scorebox.store.access import open_store
from scorebox.store.sqlite import Store

pytest_plugins = ("pgserver",)  # store_at: a file of SQLite's, then a PostgreSQL database


def run(*args):
    assert cli.main(list(args)) == 0, args


@pytest.fixture(scope="module")
def club(tmp_path_factory):
    """The hand matches (Ann v Ben, Cat v Ann, Ben v Cat), one keyed "A v B" and a Try-Tac-Toe
    game (Ann, Cy v Bo), then named on the PC."""
    folder = tmp_path_factory.mktemp("names")
    db = str(folder / "club.sqlite")
    store = fill(Store(db))
    _, h, log, extras = item(4, MATCH1)
    assert store.add_matches(DEVICE, [(4, dict(h, archers=[["A"], ["B"]]), log, extras)]) == [True]
    g = full_game(3)
    assert add_match(store, DEVICE, 5, ttt_header(g, T0 + 36000), g.log) is True
    store.close()
    run("archers", "rename", "Ann", "Anne", "--db", db)
    run("show", "%s/4" % DEVICE, "--names", "Dee,Eve", "--add", "--db", db)
    run("show", "%s/5" % DEVICE, "--names", "Cy,Anne,Bo", "--force", "--db", db)  # X's members the other way round
    run("archers", "retire", "Cat", "--db", db)
    run("archers", "add", "Flo", "--db", db)  # on the roster, in no match yet
    run("boxes", "name", DEVICE, "Range 1", "--db", db)
    run("export", "--db", db, "--format", "json", "--out", str(folder / "first"))
    return db, folder, json.loads((folder / "first" / "matches.json").read_text())


def test_the_pc_names_beside_the_keyed_ones(club):
    _, _, data = club
    m1, m2, _, m4, m5 = data["matches"]
    assert m1["names"] == [["Anne"], ["Ben"]] and m1["header"]["archers"] == [["Ann"], ["Ben"]]
    assert m2["names"] == [["Cat"], ["Anne"]] and m2["side_b"] == "Anne"
    assert m4["names"] == [["Dee"], ["Eve"]] and m4["header"]["archers"] == [["A"], ["B"]]
    assert m5["names"] == [["Cy", "Anne"], ["Bo"]] and m5["header"]["archers"] == [["Ann", "Cy"], ["Bo"]]
    assert data["devices"] == [dict(data["devices"][0], uid=DEVICE, name="Range 1")]
    roster_ = {a["name"]: a for a in data["archers"]}
    assert [w["old"] for w in roster_["Anne"]["was"]] == ["Ann"]
    assert (roster_["Cat"]["retired"], roster_["Flo"]["retired"], roster_["Ben"]["was"]) == (1, 0, [])


@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_import_gives_the_same_store(club, tmp_path, store_at, fmt, capsys):
    db, folder, _ = club
    fresh = store_at  # imported into a new store of either kind
    run("import", str(folder / "first"), "--db", fresh)
    for where, store in (("a", db), ("b", fresh)):
        run("export", "--db", store, "--format", fmt, "--out", str(tmp_path / where))
    for name in ("matches", "arrows"):
        a = (tmp_path / "a" / ("%s.%s" % (name, fmt))).read_bytes()
        assert a == (tmp_path / "b" / ("%s.%s" % (name, fmt))).read_bytes(), name
    listed = []
    for store in (db, fresh):
        capsys.readouterr()
        run("archers", "list", "--retired", "--db", store)
        run("boxes", "list", "--db", store)
        listed.append(capsys.readouterr().out)
    assert listed[0] == listed[1] and "Anne" in listed[0] and "retired" in listed[0] and "Range 1" in listed[0]
    s = open_store(fresh)
    assert s.merge_from_box(["Ann", "Flo"]) == ([], [])  # a box still saying Ann means Anne
    assert s.check() == []
    s.close()


def test_an_older_file_imports_with_the_keyed_names(club, tmp_path, store_at):
    _, _, data = club
    old = json.loads(json.dumps(data))
    del old["archers"]
    for m in old["matches"]:
        del m["names"]
    for d in old["devices"]:
        del d["name"]
    f = tmp_path / "old.json"
    f.write_text(json.dumps(old))
    fresh = store_at
    run("import", str(f), "--db", fresh)
    s = open_store(fresh)
    got = [(m["side_a"], m["side_b"]) for m in s.matches()]
    assert got == [("Ann", "Ben"), ("Cat", "Ann"), ("Ben", "Cat"), ("A", "B"), ("Ann,Cy", "Bo")]
    assert s.box_name(DEVICE) is None
    s.close()


@pytest.mark.parametrize(
    "names, said",
    [
        ("Anne", "NOT imported: names are not two sides"),
        ([["Anne"]], "NOT imported: names are not two sides"),
        ([["x" * 500], ["Ben"]], "NOT imported: an archer's name is not"),
        ([["Anne", "Cy"], ["Ben"]], "stored with the box's names: this match has 2 archers"),
        ([["Ben"], ["Ben"]], "stored with the box's names: an archer cannot shoot for both sides"),
    ],
)
def test_bad_names_say_so_and_lose_nothing(club, tmp_path, store_at, capsys, names, said):
    _, _, data = club
    bad = json.loads(json.dumps(data))
    bad["matches"][0]["names"] = names
    f = tmp_path / "bad.json"
    f.write_text(json.dumps(bad))
    fresh = store_at
    assert cli.main(["import", str(f), "--db", fresh]) == 1
    out = capsys.readouterr().out
    assert "%s/1 %s" % (DEVICE, said) in out, out
    s = open_store(fresh)
    assert s.count() == (4 if "NOT" in said else 5) and s.check() == []
    s.close()


def test_a_bad_roster_entry_is_refused_alone(club, tmp_path, store_at, capsys):
    _, _, data = club
    bad = json.loads(json.dumps(data))
    bad["archers"][0] = {"name": 5, "retired": 0, "added": None, "was": []}
    bad["archers"][1]["was"] = "Ann"
    f = tmp_path / "bad.json"
    f.write_text(json.dumps(bad))
    fresh = store_at
    assert cli.main(["import", str(f), "--db", fresh]) == 1
    out = capsys.readouterr().out
    assert "archer 1 of the file NOT imported" in out and "archer 2 of the file NOT imported" in out, out
    assert "5 matches imported" in out
