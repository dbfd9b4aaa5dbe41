"""`scorebox face` where its default folder's name is taken by a plain file (issue 21 item 14,
as reviewed): it said `tictacbow-600mm/tictacbow-600mm.svg: cannot check it: Not a
directory`. Now one line names the file and says what to do; nothing is written."""

import os
import subprocess
import sys

import pytest

SCOREBOX = os.path.join(os.path.dirname(sys.executable), "scorebox")


def face(cwd, *args):
    return subprocess.run([SCOREBOX, "face", *args], cwd=str(cwd), capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("game", ["tictacbow", "trytactoe"])
def test_a_file_named_like_the_default_folder_is_said_so(tmp_path, game):
    taken = tmp_path / ("%s-600mm" % game)
    taken.write_bytes(b"someone's notes")
    p = face(tmp_path, game, "--no-pdf")
    assert p.returncode == 2 and p.stdout == "", p.stdout + p.stderr
    assert p.stderr == "%s-600mm exists and is not a folder: give --out\n" % game
    assert os.listdir(tmp_path) == [taken.name] and taken.read_bytes() == b"someone's notes"


def test_a_file_on_the_way_to_out_is_said_so(tmp_path):
    (tmp_path / "faces").write_bytes(b"")
    p = face(tmp_path, "tictacbow", "--no-pdf", "--out", "faces/club/ttb.svg")
    assert p.returncode == 2 and p.stderr == "faces exists and is not a folder: give --out\n", p.stderr
    assert os.listdir(tmp_path) == ["faces"]
