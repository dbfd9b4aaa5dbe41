"""`scorebox replay` reads a match script as an editor shows it (issue 13, item 16): a UTF-8
BOM is taken, and lines end at newlines only, so a form feed or a Unicode line separator
in a comment neither makes a line of its own nor moves the line numbers of errors."""

from handmatches import MATCH1

from scorebox import cli


def replay(tmp_path, capsys, data):
    path = tmp_path / "m.ttb"
    path.write_bytes(data)
    code = cli.main(["replay", "--json", str(path)])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_a_bom_is_taken(tmp_path, capsys):
    plain = replay(tmp_path, capsys, MATCH1.encode())
    assert plain[0] == 0
    assert replay(tmp_path, capsys, b"\xef\xbb\xbf" + MATCH1.encode()) == plain


def test_separators_in_a_comment_stay_in_it(tmp_path, capsys):
    plain = replay(tmp_path, capsys, MATCH1.encode())
    text = "# scored by Ann\x0cpage 2\u2028A: x\x1cB: y\u2029" + MATCH1
    assert replay(tmp_path, capsys, text.encode()) == plain


def test_error_lines_count_newlines_only(tmp_path, capsys):
    code, out, err = replay(tmp_path, capsys, "# a\u2028b\x0cc\n# d\nnonsense here\n".encode())
    assert code == 2 and out == "" and ":3:" in err, err
