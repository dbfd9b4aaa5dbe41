"""Exports: exact rows for a hand-written match, and export -> import into an empty store
-> export gives identical files (CSV and JSON), with quarantine and box records too."""

import json
import os
import time

import pytest
from handmatches import fill
from storegen import generate

from scorebox import cli
from scorebox.store import export
from scorebox.store.sqlite import Store

MATCH2_ROWS = """\
hand/2,1,1,1,A,Cat,1,5,3,0,,claimed
hand/2,1,1,1,A,Cat,2,1,3,0,,claimed
hand/2,1,1,2,B,Ann,1,9,3,0,,claimed
hand/2,1,1,2,B,Ann,2,5,2,0,,dead
hand/2,1,2,3,A,Cat,1,9,0,1,1,flipped
hand/2,1,2,3,A,Cat,2,3,3,0,,claimed
hand/2,1,2,4,B,Ann,1,5,0,1,0,flip missed
hand/2,1,2,4,B,Ann,2,,0,0,,missed
"""


def read(path):
    with open(path, "rb") as f:
        return f.read()


def test_arrow_rows_by_hand(tmp_path):
    store = fill(Store(str(tmp_path / "s.sqlite")))
    got = export.export(store, str(tmp_path / "x"), "csv")
    lines = read(tmp_path / "x" / "arrows.csv").decode().splitlines(keepends=True)
    assert lines[0] == ",".join(export.ARROW_COLUMNS) + "\n"
    assert "".join(x for x in lines if x.startswith("hand/2,")) == MATCH2_ROWS
    assert len(lines) == 1 + 24 + 8 + 6  # match 3's undone slip is not an arrow
    assert got[str(tmp_path / "x" / "arrows.csv")] == 38
    head, _, _, m3 = read(tmp_path / "x" / "matches.csv").decode().splitlines()
    assert head == ",".join(export.MATCH_COLUMNS)
    local = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(1790010800))  # dates a spreadsheet reads
    assert m3.startswith("hand/3,hand,3,%s,2026-09-21 17:13:20,Ben,Cat,draw,0,0,1,draw 0-0,1,1,6," % local)
    assert "{" not in m3 and m3.count(",") == len(export.MATCH_COLUMNS) - 1  # the raw JSON is matches.json's
    export.export(store, str(tmp_path / "j"), "json")
    arrows = json.loads(read(tmp_path / "j" / "arrows.json"))
    assert arrows["columns"] == list(export.ARROW_COLUMNS)
    assert arrows["rows"][24 + 6] == ["hand/2", 1, 2, 4, "B", "Ann", 1, 5, 0, 1, 0, "flip missed"]
    matches = json.loads(read(tmp_path / "j" / "matches.json"))
    m3 = matches["matches"][2]
    assert m3["match"] == "hand/3" and m3["winner"] == "draw" and 256 in m3["log"]
    assert (m3["side_a"], m3["side_b"], m3["games"], m3["arrows"]) == ("Ben", "Cat", 1, 6)


@pytest.fixture(scope="module")
def club(tmp_path_factory):
    """A generated store of 150 matches from two boxes, with a quarantined piece."""
    path = str(tmp_path_factory.mktemp("club") / "club.sqlite")
    generate(path, 150, seed=3)
    s = Store(path)
    s.add_quarantine("e6614103e7a1b2c3", [("g000001.tbj", 4096, b"\x00torn\xff record")])
    s.device("e6614103e7a1b2c3", "1.29.0-scorebox")
    s.close()
    return path


@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_round_trip_is_exact(club, tmp_path, fmt):
    first = tmp_path / "first"
    assert cli.main(["export", "--db", club, "--format", "json", "--out", str(first)]) == 0
    if fmt == "csv":
        assert cli.main(["export", "--db", club, "--format", "csv", "--out", str(first)]) == 0
    fresh = str(tmp_path / "new-pc.sqlite")
    assert cli.main(["import", str(first), "--db", fresh]) == 0
    second = tmp_path / "second"
    assert cli.main(["export", "--db", fresh, "--format", fmt, "--out", str(second)]) == 0
    for name in ("matches", "arrows"):
        a, b = read(first / ("%s.%s" % (name, fmt))), read(second / ("%s.%s" % (name, fmt)))
        assert a == b, name
    new = Store(fresh)
    assert new.count() == 150
    assert new.check() == []
    assert new.db.execute("SELECT count(*) FROM quarantine").fetchone()[0] == 1
    new.close()


def test_import_twice_adds_nothing(club, tmp_path, capsys):
    out = tmp_path / "x"
    export.export(Store(club), str(out), "json")
    fresh = str(tmp_path / "s.sqlite")
    assert cli.main(["import", str(out / "matches.json"), "--db", fresh]) == 0
    assert cli.main(["import", str(out), "--db", fresh]) == 0
    assert "0 matches imported, 150 already held" in capsys.readouterr().out
    assert Store(fresh).count() == 150


def test_import_refuses_what_the_rules_refuse(tmp_path, capsys):
    store = fill(Store(str(tmp_path / "s.sqlite")))
    export.export(store, str(tmp_path / "x"), "json")
    path = tmp_path / "x" / "matches.json"
    data = json.loads(read(path))
    data["matches"][1]["log"].insert(0, 165)  # 9:X first: a called shot at an open square (TTB-8)
    path.write_text(json.dumps(data))
    fresh = str(tmp_path / "n.sqlite")
    assert cli.main(["import", str(path), "--db", fresh]) == 1
    out = capsys.readouterr().out
    assert "2 matches imported" in out and "hand/2 NOT imported" in out and "refuse" in out


def test_import_refuses_other_files(tmp_path, capsys):
    (tmp_path / "a.json").write_text('{"hello": 1}')
    assert cli.main(["import", str(tmp_path / "a.json"), "--db", str(tmp_path / "s.sqlite")]) == 2
    assert "not a Scorebox matches.json" in capsys.readouterr().err
    (tmp_path / "b.json").write_text("not json")
    assert cli.main(["import", str(tmp_path / "b.json"), "--db", str(tmp_path / "s.sqlite")]) == 2
    assert cli.main(["import", str(tmp_path / "none.json"), "--db", str(tmp_path / "s.sqlite")]) == 2
    assert not os.path.exists(tmp_path / "s.sqlite")
