"""`scorebox face`: the printable faces, rendered in headless Chromium (tests/support/browser.py).

The numbers on the paper are checked against the rules core: each square's number lies in
the square that TTB-1 gives it (the rows and columns of rules.LINES), each triangle's number
inside the triangle of scorebox_core.games.ttt.board.CELLS (TTT-1); the outer size is the --size
in millimetres as Chromium lays it out; the sheets cover the face, neighbours sharing the
stated overlap; the PDF has a page per sheet; a file the command did not make is refused.
"""

import os
import re

import pytest
from browser import Chromium, find

from scorebox import cli
from scorebox.report import face
from scorebox_core.games.ttb import rules
from scorebox_core.games.ttt import board

PX_PER_MM = 96 / 25.4  # CSS pixels


@pytest.fixture(scope="module")
def chromium():
    if not find():
        pytest.fail("chromium is not installed: `apt-get install -y chromium` (the Makefile's setup does it)")
    with Chromium(1000, 800) as c:
        yield c


@pytest.fixture(scope="module")
def ttb(tmp_path_factory):
    """The Tic Tac BOW face at 600 mm on A4, PDF included."""
    out = str(tmp_path_factory.mktemp("face") / "ttb.svg")
    assert cli.main(["face", "tictacbow", "--out", out]) == 0
    return out


def load(c, path):
    c.open("file://" + os.path.abspath(path))
    assert c.problems == []


def numbers(c, attr):
    """{number: (x, y, w, h)} of the text elements carrying data-<attr>, in the face's mm."""
    got = c.eval(
        "Array.from(document.querySelectorAll('text.num')).map(function (t) {"
        " var b = t.getBBox(); return [+t.getAttribute('data-%s'), t.textContent, b.x, b.y, b.width, b.height]; })"
        % attr
    )
    assert all(str(n) == text for n, text, *_ in got)  # what is printed is the number the box uses
    return {n: tuple(box) for n, _, *box in got}


def centre(box):
    x, y, w, h = box
    return x + w / 2, y + h / 2


def test_tictacbow_numbers_are_the_rules_squares(chromium, ttb):
    load(chromium, ttb)
    nums = numbers(chromium, "square")
    assert sorted(nums) == list(range(1, 10))
    squares = {
        n: tuple(box)
        for n, *box in chromium.eval(
            "Array.from(document.querySelectorAll('rect[data-square]')).map(function (r) {"
            " var b = r.getBBox(); return [+r.getAttribute('data-square'), b.x, b.y, b.width, b.height]; })"
        )
    }
    for n, box in nums.items():  # each number inside its own square, in the white corner
        x, y = centre(box)
        sx, sy, sw, sh = squares[n]
        assert sx < x < sx + sw / 3 and sy < y < sy + sh / 3, n
    # TTB-1 through the rules core: the first three lines are the rows, top to bottom, the
    # next three the columns, left to right, each read left to right or top to bottom.
    at = {i + 1: (squares[i + 1][0], squares[i + 1][1]) for i in range(9)}
    rows, cols = rules.LINES[:3], rules.LINES[3:6]
    for k, line in enumerate(rows):
        xs, ys = zip(*(at[i + 1] for i in line))
        assert len(set(ys)) == 1 and list(xs) == sorted(xs) and len(set(xs)) == 3
        assert k == 0 or ys[0] > at[rows[k - 1][0] + 1][1]
    for k, line in enumerate(cols):
        xs, ys = zip(*(at[i + 1] for i in line))
        assert len(set(xs)) == 1 and list(ys) == sorted(ys) and len(set(ys)) == 3
        assert k == 0 or xs[0] > at[cols[k - 1][0] + 1][0]
    # Each square holds the three zones and the called shot's X (TTB-4, TTB-8).
    assert chromium.eval("document.querySelectorAll('path.x').length") == 9
    assert chromium.eval("document.querySelectorAll('text.value').length") == 27


@pytest.mark.parametrize("name,size", [("tictacbow", 600), ("tictacbow", 800), ("trytactoe", 800)])
def test_size_is_the_outer_size_in_mm(chromium, tmp_path, name, size):
    out = str(tmp_path / "f.svg")
    assert cli.main(["face", name, "--size", str(size), "--out", out, "--no-pdf"]) == 0
    load(chromium, out)
    outline = chromium.eval("var b = document.getElementById('face-outline').getBBox(); [b.width, b.height]")
    assert max(outline) == pytest.approx(size, abs=0.01)
    # Laid out by the browser: the whole face is that many millimetres (CSS px at 96 per inch).
    laid = chromium.eval("var r = document.documentElement.getBoundingClientRect(); [r.width, r.height]")
    assert laid == pytest.approx([v * PX_PER_MM for v in outline], abs=1)


def sheets_of(out, paper="a4"):
    stem = out[:-4]
    return sorted(
        p
        for p in os.listdir(os.path.dirname(out))
        if re.fullmatch(re.escape(os.path.basename(stem)) + r"-%s-\d\d\.svg" % paper, p)
    )


def test_sheets_cover_the_face_with_the_overlap(chromium, ttb):
    folder = os.path.dirname(ttb)
    names = sheets_of(ttb)
    assert len(names) == 12  # 600 mm on A4: 3 x 4 sheets (portrait or landscape alike)
    load(chromium, ttb)
    fw, fh = chromium.eval("var b = document.getElementById('face-outline').getBBox(); [b.width, b.height]")
    tiles = {}
    for name in names:
        load(chromium, os.path.join(folder, name))
        got = chromium.eval(
            "var s = document.documentElement, a = document.querySelector('.tile-area').getBBox(),"
            " m = document.querySelector('.tile-face').transform.baseVal.consolidate().matrix;"
            " [s.getAttribute('width'), s.getAttribute('height'), +s.dataset.row, +s.dataset.col,"
            "  +s.dataset.overlap, s.dataset.sheet, a.x - m.e, a.y - m.f, a.width, a.height,"
            "  document.querySelectorAll('text.num').length, s.textContent]"
        )
        width, height, row, col, overlap, label, x, y, w, h, nums, text = got
        if (row, col) == (1, 1):  # where it goes
            assert "cut along the dashed seam at the left and top, lay on B1 and A2" in text
        assert overlap == face.OVERLAP and label == "ABC"[row] + str(col + 1)
        assert (width, height) == ("210mm", "297mm")
        assert nums == 9  # the whole face is behind the clip; the clip picks the tile
        tiles[row, col] = (x, y, w, h)
    rows, cols = 1 + max(r for r, _ in tiles), 1 + max(c for _, c in tiles)
    assert rows * cols == len(tiles)
    for (r, c), (x, y, w, h) in tiles.items():
        assert (w, h) == pytest.approx((210 - 2 * face.MARGIN, 297 - 2 * face.MARGIN))
        if c + 1 < cols:  # the right neighbour starts OVERLAP mm before this tile ends
            assert tiles[r, c + 1][0] == pytest.approx(x + w - face.OVERLAP, abs=0.01)
            assert tiles[r, c + 1][1] == pytest.approx(y, abs=0.01)
        if r + 1 < rows:
            assert tiles[r + 1, c][1] == pytest.approx(y + h - face.OVERLAP, abs=0.01)
            assert tiles[r + 1, c][0] == pytest.approx(x, abs=0.01)
    # The outer tiles reach past the face on every side: nothing of it is left unprinted.
    x0, y0, _, _ = tiles[0, 0]
    x1, y1, w1, h1 = tiles[rows - 1, cols - 1]
    assert x0 <= 0 and y0 <= 0 and x1 + w1 >= fw and y1 + h1 >= fh
    # Fewer sheets would not do: one column or row less leaves part of the face off.
    assert (cols - 1) * (w1 - face.OVERLAP) + face.OVERLAP < fw or (rows - 1) * (h1 - face.OVERLAP) + face.OVERLAP < fh


def test_pdf_has_a_page_per_sheet(ttb):
    with open(ttb[:-4] + "-a4.pdf", "rb") as f:
        pdf = f.read()
    assert pdf.startswith(b"%PDF-")
    assert len(re.findall(rb"/Type\s*/Page\b", pdf)) == len(sheets_of(ttb))
    for box in re.findall(rb"/MediaBox\s*\[([^\]]*)\]", pdf):
        w, h = (float(v) * 25.4 / 72 for v in box.split()[2:])
        assert (w, h) == pytest.approx((210, 297), abs=0.5)


def test_trytactoe_numbers_are_the_boards_triangles(chromium, tmp_path):
    out = str(tmp_path / "ttt.svg")
    assert cli.main(["face", "trytactoe", "--size", "800", "--out", out, "--no-pdf"]) == 0
    load(chromium, out)
    nums = numbers(chromium, "triangle")
    assert sorted(nums) == list(range(1, 75)) and len(board.CELLS) == 74
    polys = chromium.eval(
        "Array.from(document.querySelectorAll('polygon[data-triangle]')).map(function (p) {"
        " return [+p.getAttribute('data-triangle'), Array.from(p.points).map(function (q) { return [q.x, q.y]; })]; })"
    )
    drawn = dict((n, pts) for n, pts in polys)
    # The map from the lattice (TTT: a*(1, 0) + b*(1/2, sqrt(3)/2)) to the paper, solved from
    # triangle 1's corners; every other triangle must sit where the same map puts it.
    to_mm = affine([lattice(*v) for v in board.CELLS[0]], drawn[1])
    # A scale and a shift only: equilateral, not turned or mirrored (y down as on the screen).
    assert to_mm[1] == pytest.approx(0, abs=1e-3) and to_mm[3] == pytest.approx(0, abs=1e-3)
    assert to_mm[0] == pytest.approx(to_mm[4], rel=1e-4) and to_mm[0] > 0
    for i, cell in enumerate(board.CELLS):
        for v, p in zip(cell, drawn[i + 1]):
            assert apply(to_mm, lattice(*v)) == pytest.approx(p, abs=0.05), i + 1
    # Each number's box lies wholly inside its own triangle of CELLS.
    for n, (x, y, w, h) in nums.items():
        tri = [apply(to_mm, lattice(*v)) for v in board.CELLS[n - 1]]
        for corner in ((x, y), (x + w, y), (x, y + h), (x + w, y + h)):
            assert inside(corner, tri), n


def lattice(a, b):
    return (a + b / 2, b * 3**0.5 / 2)


def affine(src, dst):
    """The affine map (as 6 numbers) taking three points src onto dst."""
    (x1, y1), (x2, y2), (x3, y3) = src
    det = (x2 - x1) * (y3 - y1) - (x3 - x1) * (y2 - y1)
    out = []
    for k in (0, 1):
        d1, d2, d3 = (p[k] for p in dst)
        a = ((d2 - d1) * (y3 - y1) - (d3 - d1) * (y2 - y1)) / det
        b = ((x2 - x1) * (d3 - d1) - (x3 - x1) * (d2 - d1)) / det
        out += [a, b, d1 - a * x1 - b * y1]
    return out


def apply(m, p):
    return (m[0] * p[0] + m[1] * p[1] + m[2], m[3] * p[0] + m[4] * p[1] + m[5])


def inside(p, tri):
    signs = []
    for (ax, ay), (bx, by) in zip(tri, tri[1:] + tri[:1]):
        signs.append((bx - ax) * (p[1] - ay) - (by - ay) * (p[0] - ax) > 0)
    return all(signs) or not any(signs)


def test_refuses_a_file_it_did_not_make(tmp_path, capsys):
    out = tmp_path / "face.svg"
    out.write_text("a drawing of mine\n")
    assert cli.main(["face", "tictacbow", "--out", str(out), "--no-pdf"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is not a face made by scorebox face" in err
    assert out.read_text() == "a drawing of mine\n" and os.listdir(tmp_path) == ["face.svg"]
    # A foreign file where a sheet or the PDF would go stops the run before anything is written.
    for name in ("other-a4-03.svg", "other-a4.pdf"):
        mine = tmp_path / name
        mine.write_text("mine")
        assert cli.main(["face", "tictacbow", "--out", str(tmp_path / "other.svg")]) == 2
        assert "%s exists and is not a face made by scorebox face" % mine in capsys.readouterr().err
        assert mine.read_text() == "mine" and not (tmp_path / "other.svg").exists()
        mine.unlink()


def test_rewrites_its_own_files_and_drops_its_stale_ones(tmp_path, capsys):
    out = str(tmp_path / "f.svg")
    assert cli.main(["face", "tictacbow", "--size", "800", "--out", out]) == 0
    many = sheets_of(out)
    assert len(many) > 12 and os.path.exists(out[:-4] + "-a4.pdf")
    foreign = tmp_path / "f-a4-99.svg"  # named like a sheet, not made by the command
    foreign.write_text("<svg/>")
    assert cli.main(["face", "tictacbow", "--size", "600", "--out", out, "--no-pdf"]) == 0
    # The sheets beyond 12 and the PDF were the command's own and are out of date: gone.
    assert sheets_of(out) == ["f-a4-%02d.svg" % i for i in range(1, 13)] + ["f-a4-99.svg"]
    assert not os.path.exists(out[:-4] + "-a4.pdf") and foreign.read_text() == "<svg/>"
    assert 'data-size="600"' in open(out, encoding="utf-8").read()
    said = capsys.readouterr().out
    assert "12 A4 sheets (3 rows x 4 columns, overlap 10 mm)" in said and "no PDF: --no-pdf" in said


@pytest.mark.parametrize("args", [["--size", "50"], ["--size", "9000"], ["--out", "face.pdf"]])
def test_bad_arguments_are_one_line(tmp_path, monkeypatch, capsys, args):
    monkeypatch.chdir(tmp_path)
    assert cli.main(["face", "tictacbow", "--no-pdf", *args]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    assert os.listdir(tmp_path) == []
