"""The Try-Tac-Toe pictures in docs/ are drawn from the rules core's board (tools/ttt_svg.py)
and number its 74 triangles in reading order (TTT-1)."""

import os
import re
import subprocess
import sys

from mpy import ROOT

from scorebox_core.games.ttt import board


def test_committed_pictures_match_the_board():
    p = subprocess.run(
        [sys.executable, os.path.join(ROOT, "tools", "ttt_svg.py"), "check"], capture_output=True, text=True
    )
    assert p.returncode == 0, p.stdout + p.stderr


def test_board_picture_numbers_every_triangle_in_reading_order():
    with open(os.path.join(ROOT, "docs", "try-tac-toe-board.svg")) as f:
        svg = f.read()
    assert svg.count("<polygon") == board.N
    labels = re.findall(r'<text x="([\d.]+)" y="([\d.]+)"[^>]*>(\d+)</text>', svg)
    assert [int(n) for _, _, n in labels] == list(range(1, 75))
    # reading order: rows go down the picture, and left to right within a row
    for (x1, y1, _), (x2, y2, n) in zip(labels, labels[1:]):
        row1, row2 = board.row_of(int(n) - 2), board.row_of(int(n) - 1)
        assert (row2 == row1 + 1 and float(y2) > float(y1) - 12) or (row2 == row1 and float(x2) > float(x1)), n
