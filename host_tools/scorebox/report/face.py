"""`scorebox face`: the paper target faces to print, numbered as the box numbers them.

A face is drawn once in millimetres (the whole-face SVG) and then tiled onto A4 or A3
sheets: each sheet prints what fits inside its margins, neighbouring sheets share an
OVERLAP-wide strip of the face, and marks in the margins show where to cut one sheet and
where to lay it on the other (docs/faces.md). The sheets are SVG files and, where Chromium
is installed (the browser the report is checked in), one PDF that Chromium prints.

Every file written carries MARK; a file at an output path without it is refused, so the
command never overwrites what it did not create. Every path is checked before any file is
written, and only a regular file is ever opened to check it (a named pipe
hung the command, a link was refused after part of the output was written). By default the
files go into a new folder named for the face and size (13-14 files in the current
folder were too many to find).
"""

import glob
import math
import os
import shutil
import subprocess
import tempfile

from scorebox.errors import ScoreboxError
from scorebox.games import registry as pcgames
from scorebox.games.svg import num, svg_text
from scorebox.store import files
from scorebox.text import plural
from scorebox_core import games

PAPERS = {"a4": (210, 297), "a3": (297, 420)}  # portrait, mm
SIZES = (200, 3000)  # mm: the outer sizes allowed
MARGIN = 10  # mm left blank at each paper edge: more than most printers need
OVERLAP = 10  # mm of the face printed on both of two neighbouring sheets
MARK = "made by scorebox face"  # in every file written: what may be overwritten
FONT = "DejaVu Sans, Arial, Helvetica, sans-serif"
CHROMIUMS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


class FaceError(ScoreboxError):
    pass


# --- the faces, in mm, the outline's top left corner at (0, 0) ------------------------------
# Each game draws its own (its surface's FACE: draw(size) -> (width, height, SVG elements));
# its name here is its id without punctuation, as the command has always taken it.
def _name(g):
    return "".join(c for c in g.ID if c.isalnum())


FACES = tuple(_name(g) for g in games.every())


def titled():
    """(face, the game's name) of each face, for a choice a person reads."""
    return [(_name(g), g.NAME) for g in games.every()]


def draw(face, size):
    g = next(g for g in games.every() if _name(g) == face)
    return pcgames.part(g, "FACE").draw(size)


def _svg(w, h, body, title, attrs):
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" width="%smm" height="%smm" viewBox="0 0 %s %s"%s>\n'
        "<title>%s</title>\n"
        '<g font-family="%s" text-anchor="middle" dominant-baseline="central">\n%s\n</g>\n</svg>\n'
        % (num(w), num(h), num(w), num(h), attrs, title, FONT, body)
    )


def _file(svg):
    return '<?xml version="1.0" encoding="UTF-8"?>\n<!-- %s -->\n%s' % (MARK, svg)


def face_svg(face, size, drawn=None):
    w, h, body = drawn or draw(face, size)
    attrs = ' data-face="%s" data-size="%s"' % (face, num(size))
    return _svg(w, h, body, "%s face, %s mm (%s)" % (face, num(size), MARK), attrs)


# --- the sheets -----------------------------------------------------------------------------
class Tiling:
    """How a w x h mm face is laid on sheets of one paper: the orientation that needs fewer
    sheets, the face centred on the grid of tiles. Tile (row, col) prints the face's
    rectangle from (x(col), y(row)), printable wide and high; neighbours share OVERLAP mm."""

    def __init__(self, w, h, paper):
        best = None
        for pw, ph in (PAPERS[paper], PAPERS[paper][::-1]):
            tw, th = pw - 2 * MARGIN, ph - 2 * MARGIN
            cols = max(1, math.ceil((w - OVERLAP) / (tw - OVERLAP)))
            rows = max(1, math.ceil((h - OVERLAP) / (th - OVERLAP)))
            if best is None or rows * cols < best[0]:
                best = (rows * cols, pw, ph, tw, th, rows, cols)
        _, self.pw, self.ph, self.tw, self.th, self.rows, self.cols = best
        self.paper = paper
        # The grid of tiles is as large as the face or larger: the face sits in its middle.
        self.x0 = (w - (self.cols * (self.tw - OVERLAP) + OVERLAP)) / 2
        self.y0 = (h - (self.rows * (self.th - OVERLAP) + OVERLAP)) / 2

    def x(self, col):
        return self.x0 + col * (self.tw - OVERLAP)

    def y(self, row):
        return self.y0 + row * (self.th - OVERLAP)

    def tiles(self):
        return [(r, c) for r in range(self.rows) for c in range(self.cols)]


def label(row, col):
    return "%s%d" % (chr(ord("A") + row), col + 1)  # rows A, B ...: 3000 mm on A4 takes 17 at most


def sheet_svg(face, size, t, row, col, drawn):
    """One sheet: the tile's part of the face, clipped to the printable area, with crop marks
    at its corners, seam marks where it meets its neighbours, its label and a scale bar."""
    body = drawn[2]
    m, pw, ph, tw, th = MARGIN, t.pw, t.ph, t.tw, t.th
    x, y = t.x(col), t.y(row)
    name, n = label(row, col), row * t.cols + col + 1
    ink = 'stroke="#000" stroke-width="0.2"'
    marks = []
    for px in (m, m + tw):  # crop marks: the printed area's corners, in the margin
        for py in (m, m + th):
            sx, sy = (-1 if px == m else 1), (-1 if py == m else 1)
            marks.append(
                '<path d="M%s %sh%s M%s %sv%s" %s/>'
                % (num(px + sx), num(py), num(6 * sx), num(px), num(py + sy), num(6 * sy), ink)
            )
    seams = []  # a seam lies in the middle of a shared strip: the upper sheet is cut there
    if col > 0:
        seams.append(("v", m + OVERLAP / 2, "cut"))
    if col < t.cols - 1:
        seams.append(("v", m + tw - OVERLAP / 2, "lay"))
    if row > 0:
        seams.append(("h", m + OVERLAP / 2, "cut"))
    if row < t.rows - 1:
        seams.append(("h", m + th - OVERLAP / 2, "lay"))
    dashed = 'stroke="#000" stroke-width="0.3" stroke-dasharray="3 2"'
    for kind, at, what in seams:
        cls = ' class="seam %s"' % what
        if kind == "v":
            marks.append(
                '<path%s d="M%s 1V%s M%s %sV%s" %s/>'
                % (cls, num(at), num(m - 1), num(at), num(ph - m + 1), num(ph - 1), dashed)
            )
            marks.append(
                '<path d="M%s %sV%s" stroke="#888" stroke-width="0.15" stroke-dasharray="1 2"/>'
                % (num(at), num(m), num(m + th))
            )
        else:
            marks.append(
                '<path%s d="M1 %sH%s M%s %sH%s" %s/>'
                % (cls, num(at), num(m - 1), num(pw - m + 1), num(at), num(pw - 1), dashed)
            )
            marks.append(
                '<path d="M%s %sH%s" stroke="#888" stroke-width="0.15" stroke-dasharray="1 2"/>'
                % (num(m), num(at), num(m + tw))
            )
    sides = (["left"] if col > 0 else []) + (["top"] if row > 0 else [])
    under = ([label(row, col - 1)] if col > 0 else []) + ([label(row - 1, col)] if row > 0 else [])
    how = (
        "cut along the dashed seam at the %s, lay on %s" % (" and ".join(sides), " and ".join(under))
        if under
        else "the first sheet: the others are laid on it"
    )
    text = [
        svg_text(m + 14, m / 2, 6, name, ' font-weight="bold" text-anchor="start"'),
        svg_text(
            m + 32,
            m / 2,
            2.8,
            "sheet %d of %d (%s x %s) · %s face %s mm on %s · overlap %d mm · print at 100%%"
            % (
                n,
                t.rows * t.cols,
                plural(t.rows, "row"),
                plural(t.cols, "column"),
                face,
                num(size),
                t.paper.upper(),
                OVERLAP,
            ),
            ' text-anchor="start"',
        ),
        svg_text(m + 14, ph - m / 2, 2.8, how, ' text-anchor="start"'),
        '<path class="scale" d="M%s %sh50" stroke="#000" stroke-width="0.8"/>' % (num(pw - m - 64), num(ph - m / 2)),
        svg_text(pw - m - 12, ph - m / 2, 2.8, "50 mm", ' text-anchor="start"'),  # the bar checks the print scale
    ]
    attrs = (
        ' data-face="%s" data-size="%s" data-sheet="%s" data-row="%d" data-col="%d" data-rows="%d" data-cols="%d"'
        ' data-overlap="%d"' % (face, num(size), name, row, col, t.rows, t.cols, OVERLAP)
    )
    inner = (
        '<clipPath id="tile-%s"><rect class="tile-area" x="%s" y="%s" width="%s" height="%s"/></clipPath>\n'
        '<g clip-path="url(#tile-%s)"><g class="tile-face" transform="translate(%s %s)">\n%s\n</g></g>\n%s\n%s'
        % (
            name,
            num(m),
            num(m),
            num(tw),
            num(th),
            name,
            num(m - x),
            num(m - y),
            body,
            "\n".join(marks),
            "\n".join(text),
        )
    )
    return _svg(pw, ph, inner, "%s face %s mm, sheet %s (%s)" % (face, num(size), name, MARK), attrs)


# --- writing --------------------------------------------------------------------------------
WHAT = "a face made by scorebox face"  # what may be overwritten, for store/files.py's refusals
PEEK = 1 << 20  # bytes searched for MARK: a PDF carries it in its metadata, past its pages


def _marked(head):
    return MARK.encode() in head


def _check(path):
    """Refuse path unless it is missing or a file this command wrote (store/files.py)."""
    files.check_target(path, _marked, WHAT, PEEK)


def _ours(path):
    """Whether path is a file this command wrote (a stale one it may remove)."""
    try:
        _check(path)
    except files.FileError:
        return False
    return os.path.lexists(path)


def _write(path, data):
    """data to path through a new temporary file beside it (store/files.py: path + ".part"
    was a fixed name, so someone's file of that name was overwritten)."""
    tmp = files.temporary(path)
    try:
        with open(tmp, "wb") as f:
            f.write(data)
    except BaseException:
        files.discard(tmp)
        raise
    files.replace(tmp, path, _marked, WHAT, PEEK)


def find_chromium():
    for name in CHROMIUMS:
        path = shutil.which(name)
        if path:
            return path
    return None


def print_pdf(sheets, t, path, chromium):
    """The sheets as one PDF, a page per sheet at the paper's size, printed by headless
    Chromium from an HTML page that holds them (--print-to-pdf: no protocol, no port)."""
    html = (
        '<!DOCTYPE html><html><head><meta charset="utf-8"><title>%s</title><style>'
        "@page { size: %smm %smm; margin: 0 } body { margin: 0 } svg { display: block; break-after: page }"
        "</style></head><body>\n%s</body></html>\n" % (MARK, t.pw, t.ph, "".join(sheets))
    )
    with tempfile.TemporaryDirectory(prefix="scorebox-face-") as tmp:
        page = os.path.join(tmp, "sheets.html")
        with open(page, "w", encoding="utf-8") as f:
            f.write(html)
        out = os.path.join(tmp, "sheets.pdf")
        cmd = [chromium, "--headless", "--disable-gpu", "--no-first-run", "--no-pdf-header-footer"]
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            cmd.append("--no-sandbox")  # Chromium refuses to run as root with its sandbox
        cmd += ["--user-data-dir=" + os.path.join(tmp, "profile"), "--print-to-pdf=" + out, "file://" + page]
        try:
            subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, timeout=300, check=False)
        except (OSError, subprocess.TimeoutExpired) as e:
            raise FaceError("no PDF (the SVG sheets are written): %s failed: %s" % (chromium, e))
        if not os.path.exists(out):
            raise FaceError("no PDF (the SVG sheets are written): %s printed nothing" % chromium)
        with open(out, "rb") as f:
            _write(path, f.read())


def outputs(out, paper, n):
    """The files a run writes: the whole face, the n sheets (numbered to sort in order) and the PDF."""
    stem, digits = out[:-4], max(2, len(str(n)))
    return out, ["%s-%s-%0*d.svg" % (stem, paper, digits, i) for i in range(1, n + 1)], "%s-%s.pdf" % (stem, paper)


def write(face, size, out, paper="a4", pdf=True):
    """Write the face, its sheets and (pdf and Chromium allowing) their PDF; returns (the
    paths written, the Tiling, a note on the PDF or None)."""
    if face not in FACES:
        raise FaceError("no face %r: %s" % (face, " or ".join(FACES)))
    if not SIZES[0] <= size <= SIZES[1]:
        raise FaceError("--size %s: from %d to %d mm" % (num(size), SIZES[0], SIZES[1]))
    if not out.lower().endswith(".svg"):
        raise FaceError("--out %s: the whole face is an SVG file (NAME.svg)" % out)
    drawn = draw(face, size)
    t = Tiling(drawn[0], drawn[1], paper)
    whole, sheet_paths, pdf_path = outputs(out, paper, t.rows * t.cols)
    chromium = find_chromium() if pdf else None
    folder = os.path.dirname(out)  # the nearest one there: made if missing, but a file is no folder
    while folder and not os.path.lexists(folder):
        folder = os.path.dirname(folder)
    if folder and not os.path.isdir(folder):
        raise FaceError("%s exists and is not a folder: give --out" % folder)
    for path in [whole] + sheet_paths + ([pdf_path] if chromium else []):
        _check(path)
    sheets = [sheet_svg(face, size, t, r, c, drawn) for r, c in t.tiles()]
    try:
        os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
        _write(whole, _file(face_svg(face, size, drawn)).encode("utf-8"))
        for path, svg in zip(sheet_paths, sheets):
            _write(path, _file(svg).encode("utf-8"))
        # What an earlier run with this name wrote and this one does not (more sheets, a PDF)
        # would be printed by mistake: it goes, if it is the command's own.
        stale = glob.glob(glob.escape(out[:-4]) + "-%s-*.svg" % paper) + ([] if chromium else [pdf_path])
        for path in stale:
            if path == pdf_path or path[len(out) - 4 + len(paper) + 2 : -4].isdigit():
                if path not in sheet_paths and _ours(path):
                    os.remove(path)
    except OSError as e:
        raise FaceError("%s: cannot write: %s" % (e.filename or out, e.strerror or e))
    if chromium:
        print_pdf(sheets, t, pdf_path, chromium)
        return [whole] + sheet_paths + [pdf_path], t, None
    return (
        [whole] + sheet_paths,
        t,
        "no PDF: %s (print the SVG sheets at 100%%)" % ("Chromium is not installed" if pdf else "--no-pdf"),
    )


def default_out(face, size):
    """FACE-SIZEmm/FACE-SIZEmm.svg: the run's files in a folder of their own."""
    stem = "%s-%smm" % (face, num(size))
    return os.path.join(stem, stem + ".svg")


def cmd_face(args):
    out = args.out or default_out(args.face, args.size)
    written, t, note = write(args.face, args.size, out, args.paper, pdf=not args.no_pdf)
    n = t.rows * t.cols
    print("%s face, %s mm: %s" % (args.face, num(args.size), written[0]))
    print(
        "%s (%s x %s, overlap %d mm): %s%s"
        % (
            plural(n, "%s sheet" % args.paper.upper()),
            plural(t.rows, "row"),
            plural(t.cols, "column"),
            OVERLAP,
            written[1],
            " ... " + written[n] if n > 1 else "",
        )
    )
    print(note or "PDF: %s" % written[-1])
    print("%s in %s" % (plural(len(written), "file"), os.path.dirname(os.path.abspath(out))))
    return 0


def add_parser(sub):
    p = sub.add_parser("face", help="write a target face to print (SVG, tiled on A4/A3 sheets, PDF)")
    p.add_argument("face", choices=FACES, help="which game's face")
    p.add_argument("--size", type=float, default=600, help="outer size in mm (default 600; %d-%d)" % SIZES)
    p.add_argument(
        "--out",
        help="the whole face's SVG file (default FACE-SIZEmm/FACE-SIZEmm.svg, a new folder); the sheets go beside it",
    )
    p.add_argument("--paper", choices=sorted(PAPERS), default="a4", help="sheet size (default a4)")
    p.add_argument("--no-pdf", action="store_true", help="write the SVG sheets only")
    p.set_defaults(run=cmd_face)
