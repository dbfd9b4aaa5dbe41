"""`scorebox restore` of a file that is the store under another name (a symbolic link to it,
a hard link): refused at once in one line, the store as it was."""

import os
import time

import pytest
from handmatches import fill

from scorebox import cli
from scorebox.store.sqlite import Store


def _club(tmp_path):
    path = str(tmp_path / "club.sqlite")
    fill(Store(path)).close()
    return path


@pytest.mark.parametrize("link", [os.symlink, os.link], ids=["symbolic", "hard"])
def test_restore_of_the_store_under_another_name_is_refused_at_once(tmp_path, capsys, link):
    club = _club(tmp_path)
    other = str(tmp_path / "elsewhere.sqlite")
    link(club, other)
    before = open(club, "rb").read()
    capsys.readouterr()
    t = time.monotonic()
    assert cli.main(["restore", other, "--db", club]) == 2
    assert time.monotonic() - t < 5  # not the store's lock's wait
    out = capsys.readouterr()
    assert out.out == ""
    assert out.err == "%s is the store itself: nothing restored\n" % other
    assert open(club, "rb").read() == before
    assert [p for p in os.listdir(tmp_path) if p.startswith("club.sqlite")] == ["club.sqlite"]


def test_backup_onto_a_hard_link_of_the_store_is_refused(tmp_path, capsys):
    club = _club(tmp_path)
    other = str(tmp_path / "copy.sqlite")
    os.link(club, other)
    capsys.readouterr()
    assert cli.main(["backup", other, "--db", club, "--force"]) == 2
    assert capsys.readouterr().err == "the backup must go to another file than the store\n"
