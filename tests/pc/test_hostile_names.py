"""Names from the store are data, never code (#13 item 10): a name starting like a formula is
text in matches.csv and arrows.csv, and `matches`, `stats` and `show` print control characters
as escapes, so a name cannot move the terminal's cursor, recolour or clear it."""

import csv

import pytest
from handmatches import MATCH1, item

from scorebox import cli
from scorebox.store import export
from scorebox.store.sqlite import Store
from scorebox.text import printable

HOSTILE = ['=HYPERLINK("http://x","y")', "+1+1", "-2-2", "@SUM(A1)", "\tTab", "\rCR"]
ESCAPES = ["Ann\x1b[2J\x1b[31m", "Bob\nfake line", "Cat\x07\u202e"]


def store_with(tmp_path, a, b, number=1):
    s = Store(str(tmp_path / "club.sqlite"))
    n, header, log, extras = item(1, MATCH1)
    header["archers"] = [[a], [b]]
    assert s.add_matches("hand", [(number, header, log, extras)]) == [True]
    return s


@pytest.mark.parametrize("name", HOSTILE)
def test_a_formula_name_is_text_in_the_csv(tmp_path, name):
    store_with(tmp_path, name, "Ben")
    export.export(Store(str(tmp_path / "club.sqlite")), str(tmp_path / "x"), "csv")
    for f, col in (("matches.csv", "side_a"), ("arrows.csv", "archer")):
        with open(tmp_path / "x" / f, encoding="utf-8", newline="") as fh:
            rows = list(csv.DictReader(fh))
        got = [r[col] for r in rows if r[col] not in ("Ben",)]
        assert got and all(v == "'" + name for v in got), (f, got[:2])
        assert not any(v[:1] in export.FORMULA_START for r in rows for v in r.values() if v)


def test_a_plain_cell_is_left_alone():
    assert [export.cell(v) for v in ("Ann", "O'Neil", 3, -1, None, "")] == ["Ann", "O'Neil", 3, -1, None, ""]


def test_printable_escapes_what_a_terminal_would_obey():
    assert printable("Ann\x1b[2J\x07\u202e\x9b") == "Ann\\x1b[2J\\x07\\u202e\\x9b"
    assert printable("Bob\nx") == "Bob\\x0ax" and printable("a\nb\x1b", keep_newlines=True) == "a\nb\\x1b"
    assert printable("Zoë Åsa 李") == "Zoë Åsa 李"


@pytest.mark.parametrize("command", [["stats"], ["show", "1"], ["stats", "ann"], ["matches"]])
def test_commands_print_names_escaped(tmp_path, capsys, command):
    store_with(tmp_path, ESCAPES[0], ESCAPES[1])
    assert cli.main(command + ["--db", str(tmp_path / "club.sqlite")]) in (0, 2)
    out = capsys.readouterr()
    text = out.out + out.err
    assert "\x1b" not in text and "\x07" not in text and "\u202e" not in text
    assert "fake line" not in text.split("\n")[0:1] and "\nfake line" not in text
    if command != ["stats", "ann"]:
        assert "\\x1b[2J" in text or "\\x0afake line" in text, text


def test_the_raw_json_stays_exact(tmp_path):
    store_with(tmp_path, HOSTILE[0], ESCAPES[0])
    export.export(Store(str(tmp_path / "club.sqlite")), str(tmp_path / "j"), "json")
    import json

    m = json.load(open(tmp_path / "j" / "matches.json", encoding="utf-8"))["matches"][0]
    assert (m["side_a"], m["side_b"]) == (HOSTILE[0], ESCAPES[0])  # JSON is exact, for import


def test_plurals():
    from scorebox.text import plural

    assert [plural(n, "match", "matches") for n in (0, 1, 2)] == ["0 matches", "1 match", "2 matches"]
    assert plural(1, "dead hit") == "1 dead hit" and plural(3, "miss", "misses") == "3 misses"
