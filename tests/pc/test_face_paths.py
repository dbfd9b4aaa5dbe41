"""`scorebox face` and the paths it writes (issue 21 items 13 and 14): a named pipe where a
sheet goes hung the command (it opened the pipe to look for its mark); a link where a sheet
goes was refused only after the face and the first sheets were written; by default its 13-14
files landed in the current folder. Now every path is checked before anything is written,
nothing but a regular file is opened to check it, and by default the files go into a new
folder named for the face and size, which the last line names."""

import os
import subprocess
import sys

import pytest

SCOREBOX = os.path.join(os.path.dirname(sys.executable), "scorebox")
FACES = ("tictacbow", "trytactoe")
SHEETS = {"tictacbow": 12, "trytactoe": 8}  # at the default 600 mm on A4

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes and links: POSIX")


def face(cwd, *args):
    """`scorebox face ARGS` in cwd; a run that hangs fails the test instead of stopping it."""
    try:
        return subprocess.run([SCOREBOX, "face", *args], cwd=str(cwd), capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail("scorebox face %s hung" % " ".join(args))


@pytest.mark.parametrize("game", FACES)
def test_a_named_pipe_where_a_sheet_goes_is_refused_before_anything_is_written(tmp_path, game):
    pipe = tmp_path / "f-a4-03.svg"
    os.mkfifo(str(pipe))
    p = face(tmp_path, game, "--out", "f.svg", "--no-pdf")
    assert p.returncode == 2, p.stdout + p.stderr
    assert p.stderr == "f-a4-03.svg exists and is not a file: give another name\n"
    assert os.listdir(str(tmp_path)) == ["f-a4-03.svg"]


@pytest.mark.parametrize("game", FACES)
def test_a_named_pipe_named_like_a_stale_sheet_is_left_alone(tmp_path, game):
    """After the sheets are written, an earlier run's extra sheets are looked for (and removed
    if the command's own): a pipe among them is not opened, not removed."""
    os.mkfifo(str(tmp_path / "f-a4-99.svg"))
    p = face(tmp_path, game, "--out", "f.svg", "--no-pdf")
    assert p.returncode == 0, p.stderr
    assert sorted(os.listdir(str(tmp_path))) == ["f-a4-%02d.svg" % i for i in range(1, SHEETS[game] + 1)] + [
        "f-a4-99.svg",
        "f.svg",
    ]


@pytest.mark.parametrize("game", FACES)
@pytest.mark.parametrize("target", ["nowhere", "own"])
def test_a_link_where_a_sheet_goes_is_refused_before_anything_is_written(tmp_path, game, target):
    """A link to nothing, or to a sheet the command wrote elsewhere (its mark is there), is
    not the command's file: refused, with nothing written and the link's target as it was."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    if target == "own":
        assert face(elsewhere, game, "--out", "e.svg", "--no-pdf").returncode == 0
        target = str(elsewhere / "e-a4-03.svg")
    before = {n: (elsewhere / n).read_bytes() for n in os.listdir(str(elsewhere))}
    out = tmp_path / "out"
    out.mkdir()
    os.symlink(target, str(out / "f-a4-03.svg"))
    p = face(out, game, "--out", "f.svg", "--no-pdf")
    assert p.returncode == 2, p.stdout + p.stderr
    assert p.stderr == "f-a4-03.svg exists and is not a file: give another name\n"
    assert os.listdir(str(out)) == ["f-a4-03.svg"]
    assert {n: (elsewhere / n).read_bytes() for n in os.listdir(str(elsewhere))} == before


@pytest.mark.parametrize("game", FACES)
def test_by_default_the_files_go_into_a_new_folder_named_for_the_face_and_size(tmp_path, game):
    for _ in (1, 2):  # the second run replaces the first one's files in the same folder
        p = face(tmp_path, game, "--no-pdf")
        assert p.returncode == 0, p.stderr
        folder = "%s-600mm" % game
        assert os.listdir(str(tmp_path)) == [folder]
        names = sorted(os.listdir(str(tmp_path / folder)))
        assert names == sorted(
            ["%s.svg" % folder] + ["%s-a4-%02d.svg" % (folder, i) for i in range(1, SHEETS[game] + 1)]
        )
        lines = p.stdout.splitlines()
        assert lines[0] == "%s face, 600 mm: %s" % (game, os.path.join(folder, folder + ".svg"))
        assert lines[-1] == "%d files in %s" % (len(names), tmp_path / folder)


def test_given_out_the_files_go_where_it_says(tmp_path):
    p = face(tmp_path, "tictacbow", "--size", "200", "--out", "mine.svg", "--no-pdf")
    assert p.returncode == 0, p.stderr
    assert sorted(os.listdir(str(tmp_path))) == ["mine-a4-01.svg", "mine-a4-02.svg", "mine.svg"]
    assert p.stdout.splitlines()[-1] == "3 files in %s" % tmp_path
