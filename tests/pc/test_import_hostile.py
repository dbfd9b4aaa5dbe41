"""`scorebox import` of hostile JSON (issue 13, item 9): every field's type and range is
checked before anything is stored. A bad match is refused with a line saying why and the
others are imported; a bad box or a file nested too deep is refused whole with one line;
and every later command (matches, show, export, report) runs on what was stored. Before,
a third of these ended in tracebacks, and some were stored and broke every later command."""

import json

import pytest
from handmatches import fill

from scorebox import cli
from scorebox.store.sqlite import Store

HOSTILE = ("1", 1e300, float("inf"), float("nan"), 2**64, {}, None, [[[[[[[[[[1]]]]]]]]]], "x" * 5000)
MATCH_FIELDS = (
    ("number",),
    ("device",),
    ("header",),
    ("log",),
    ("extras",),
    ("imported",),
    ("header", "clock"),
    ("header", "face"),
    ("header", "archers"),
    ("header", "distance"),
    ("log", 0),
    ("extras", "damaged"),
    ("extras", "lost"),
)


@pytest.fixture(scope="module")
def export(tmp_path_factory):
    d = tmp_path_factory.mktemp("src")
    fill(Store(str(d / "src.sqlite"))).close()
    assert cli.main(["export", "--db", str(d / "src.sqlite"), "--out", str(d / "exp"), "--format", "json"]) == 0
    return json.loads((d / "exp" / "matches.json").read_text())


def run_all(tmp_path, data, capsys):
    """Import data into a new store, then every command that reads it; (import's exit
    status, its output). A traceback fails the test."""
    f = tmp_path / "hostile.json"
    f.write_text(json.dumps(data))
    db = str(tmp_path / "club.sqlite")
    code = cli.main(["import", str(f), "--db", db])
    out = capsys.readouterr()
    for cmd in (["matches"], ["show", "hand/2"], ["export", "--out", str(tmp_path / "e")], ["report"]):
        if cmd == ["report"]:
            cmd = ["report", "--out", str(tmp_path / "r.html")]
        assert cli.main(cmd + ["--db", db]) in (0, 2), cmd
    return code, out.out + out.err


def cases():
    for path in MATCH_FIELDS:
        for v in HOSTILE:
            yield path, v


@pytest.mark.parametrize("path, value", list(cases()), ids=lambda x: repr(x)[:20])
def test_a_hostile_match_is_refused_and_the_rest_imported(tmp_path, capsys, export, path, value):
    data = json.loads(json.dumps(export))
    o = data["matches"][0]
    for k in path[:-1]:
        o = o[k]
    o[path[-1]] = value
    code, out = run_all(tmp_path, data, capsys)
    assert code == (1 if "NOT imported" in out else 0), out  # 1: something refused
    assert "Traceback" not in out
    # match 1 is refused, or (a value that is as good as the original) stored; the others always
    assert ("2 matches imported" in out and "NOT imported" in out) or "3 matches imported" in out, out
    s = Store(str(tmp_path / "club.sqlite"))
    assert s.count() >= 2 and s.check() == []


@pytest.mark.parametrize(
    "field, value",
    [
        ("uid", None),
        ("uid", []),
        ("uid", "a\nb"),
        ("first_seen", float("nan")),
        ("first_seen", 2**64),
        ("firmware", {}),
    ],
)
def test_a_hostile_box_refuses_the_file_with_one_line(tmp_path, capsys, export, field, value):
    data = json.loads(json.dumps(export))
    data["devices"][0][field] = value
    code, out = run_all(tmp_path, data, capsys)
    assert code == 2 and "a box in the file is not valid" in out and len(out.strip().splitlines()) == 1, out
    assert Store(str(tmp_path / "club.sqlite")).count() == 0  # nothing stored


def test_deep_nesting_and_odd_lists_refuse_the_file(tmp_path, capsys, export):
    f = tmp_path / "deep.json"
    f.write_text('{"format": "scorebox-export", "version": 1, "matches": ' + "[" * 100000 + "]" * 100000 + "}")
    assert cli.main(["import", str(f), "--db", str(tmp_path / "a.sqlite")]) == 2
    assert "nested too deep" in capsys.readouterr().err
    data = json.loads(json.dumps(export))
    data["devices"] = "hand"
    code, out = run_all(tmp_path, data, capsys)
    assert code == 2 and "devices is not a list" in out


def test_a_hostile_quarantine_piece_is_refused(tmp_path, capsys, export):
    data = json.loads(json.dumps(export))
    data["quarantine"] = [
        {"device": "hand", "file": "g000001.tbj", "offset": 2**64, "data": "AAAA", "imported": 1.0},
        {"device": "hand", "file": "g000001.tbj", "offset": 3, "data": "not base64!", "imported": 1.0},
        {"device": "hand", "file": "g000001.tbj", "offset": 3, "data": "AAAA", "imported": 1.0},
    ]
    code, out = run_all(tmp_path, data, capsys)
    assert code == 1 and "quarantine piece 1 NOT imported" in out and "quarantine piece 2 NOT imported" in out
    assert "1 quarantined piece imported" in out
