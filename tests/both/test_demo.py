"""`scorebox demo --out DIR` writes into a new folder or its own earlier one, and never
deletes what it did not create."""

import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.micropython


def demo(out):
    return subprocess.run(
        [os.path.join(os.path.dirname(sys.executable), "scorebox"), "demo", "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_a_folder_the_demo_did_not_make_is_refused_untouched(tmp_path):
    (tmp_path / "thesis.txt").write_text("keep me")
    p = demo(tmp_path)
    assert p.returncode == 2 and "was not made by `scorebox demo`" in p.stderr, p.stdout + p.stderr
    assert os.listdir(tmp_path) == ["thesis.txt"] and (tmp_path / "thesis.txt").read_text() == "keep me"


def test_a_second_demo_replaces_only_its_own_files(tmp_path):
    out = tmp_path / "demo"
    assert demo(out).returncode == 0
    (out / "notes.txt").write_text("mine")
    p = demo(out)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "1 new match stored" in p.stdout  # a fresh store: the earlier one was the demo's own
    assert (out / "notes.txt").read_text() == "mine"


def test_the_demo_prints_no_blank_run_after_the_box_screen(tmp_path):
    p = demo(tmp_path / "demo")
    assert p.returncode == 0, p.stdout + p.stderr
    lines = p.stdout.split("\n")
    screen = lines[1 : next(i for i, line in enumerate(lines) if line.startswith("(its last screen"))]
    assert screen and screen[-1].strip(), screen[-3:]  # ends at its last lit row
    assert all(line == line.rstrip() for line in lines), [line for line in lines if line != line.rstrip()][:2]
    assert "\n\n\n" not in p.stdout
