"""The interactive sim's picture fits the terminal it measures (issue #12 must-fix 4), leaves
no stale characters ("[screen on]]"), and its state file is the user's, locked while in use."""

import os
import re

import pytest
from pngread import frame_from_pixels

from scorebox.sim import pictures
from scorebox.sim import run as sim
from scorebox.store.access import default_path

# A frame with a diagonal line and a filled corner: every picture must show some ink.
FRAME = frame_from_pixels([[1 if x == 2 * y or (x < 8 and y < 8) else 0 for x in range(128)] for y in range(64)])


class Terminal:
    """Just enough of a VT100 for what the sim writes: cursor home, CR, LF, erase line/below."""

    def __init__(self, cols, rows):
        self.cols, self.rows = cols, rows
        self.cells = [[" "] * cols for _ in range(rows)]
        self.x = self.y = 0

    def write(self, text):
        for token in re.findall(r"\x1b\[[0-9;]*[A-Za-z]|.", text, re.S):
            if token == "\x1b[H":
                self.x = self.y = 0
            elif token == "\x1b[K":
                self.cells[self.y][self.x :] = [" "] * (self.cols - self.x)
            elif token == "\x1b[J":
                self.cells[self.y][self.x :] = [" "] * (self.cols - self.x)
                for row in self.cells[self.y + 1 :]:
                    row[:] = [" "] * self.cols
            elif token == "\x1b[2J":
                self.cells = [[" "] * self.cols for _ in range(self.rows)]
            elif token == "\r":
                self.x = 0
            elif token == "\n":
                assert self.y < self.rows - 1, "the picture scrolled the terminal"
                self.y += 1
            else:
                assert self.x < self.cols, "a line wider than the terminal wraps"
                self.cells[self.y][self.x] = token
                self.x += 1

    def lines(self):
        return ["".join(r).rstrip() for r in self.cells]


def draw(term, frame, on, level):
    """What interactive() writes for a frame (the same escape sequences)."""
    lines = pictures.screen(frame, on, level, term.cols, term.rows)
    term.write("\x1b[H" + "\x1b[K\r\n".join(lines) + "\x1b[K\x1b[J")


@pytest.mark.parametrize("cols,rows,height", [(128, 36, 32), (200, 60, 32), (64, 20, 16), (100, 30, 16)])
def test_the_picture_fits_the_terminal(cols, rows, height):
    term = Terminal(cols, rows)
    draw(term, FRAME, True, 255)
    lines = term.lines()
    assert sum(1 for line in lines[:height] if line.strip()) >= 4  # ink: the frame, not a blank
    assert lines[height] == "[screen on]" and lines[height + 1 :][: len(pictures.HELP)] == list(pictures.HELP)


@pytest.mark.parametrize("cols,rows", [(80, 19), (63, 40), (40, 10)])
def test_a_terminal_too_small_gets_one_line_saying_the_size(cols, rows):
    term = Terminal(cols, rows)
    draw(term, FRAME, True, 255)
    lines = [line for line in term.lines() if line]
    assert len(lines) == 1 and lines[0].startswith("scorebox sim needs a terminal of 64x20")
    assert len(lines[0]) <= cols


def test_a_shorter_status_leaves_nothing_behind():
    term = Terminal(128, 36)
    draw(term, FRAME, True, 8)
    assert "[screen dim]" in term.lines()
    draw(term, FRAME, True, 255)
    assert "[screen on]" in term.lines() and not any("]]" in line for line in term.lines())


def test_the_state_lives_beside_the_store():
    assert os.path.dirname(sim.default_state()) == os.path.dirname(default_path())


def test_a_state_in_use_is_refused(tmp_path):
    path = str(tmp_path / "box.flash")
    with sim.Flash(path):
        with pytest.raises(sim.SimError, match="in use by another"):
            with sim.Flash(path):
                pass
    with sim.Flash(path):  # free again once the first quits
        pass


def test_frames_go_only_into_a_new_or_own_folder(tmp_path):
    mine = tmp_path / "photos"
    mine.mkdir()
    (mine / "frame_0001.png").write_bytes(b"a holiday picture")
    with pytest.raises(sim.SimError, match="was not made by `scorebox sim --frames`"):
        sim.frames_folder(str(mine))
    assert (mine / "frame_0001.png").read_bytes() == b"a holiday picture"
    out = str(tmp_path / "frames")
    pictures.write_frames([(FRAME, True, 255)] * 3, sim.frames_folder(out))
    (tmp_path / "frames" / "notes.txt").write_text("kept")
    pictures.write_frames([(FRAME, True, 255)], sim.frames_folder(out))  # its own: only its pictures go
    assert sorted(os.listdir(out)) == [".scorebox-sim-frames", "frame_0001.png", "notes.txt"]
