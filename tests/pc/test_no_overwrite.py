"""No command deletes or overwrites what it did not create (issue #12 must-fix 2): each
command that writes a file or folder a user names refuses, with one line and exit 2, a
target that is not its own earlier output, and leaves it as it was; its own it replaces.
(`demo --out`: tests/both/test_demo.py; `sim --state` and `--frames`: test_sim_sync.py and
test_sim_terminal.py.)"""

import hashlib
import os

import pytest
from handmatches import fill

from scorebox import cli
from scorebox.device import mpy_build
from scorebox.store import backup
from scorebox.store.sqlite import Store

THESIS = b"my thesis, chapter 3\n" * 100


@pytest.fixture
def db(tmp_path):
    path = str(tmp_path / "club.sqlite")
    fill(Store(path)).close()
    return path


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def refused(capsys, argv, *paths):
    """Run argv: exit 2, one line on stderr; the paths are as they were."""
    before = {p: digest(p) for p in paths}
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert {p: digest(p) for p in paths} == before
    return err


def listing(folder):
    return sorted(os.listdir(folder))


def test_report_out_replaces_only_an_earlier_report(tmp_path, db, capsys):
    mine = tmp_path / "notes.html"
    mine.write_bytes(THESIS)
    err = refused(capsys, ["report", "--db", db, "--out", str(mine)], str(mine))
    assert "is not a Scorebox report" in err
    assert "notes.html" in listing(tmp_path) and not [n for n in listing(tmp_path) if n.endswith(".part")]
    page = str(tmp_path / "report.html")
    assert cli.main(["report", "--db", db, "--out", page]) == 0
    assert cli.main(["report", "--db", db, "--out", page]) == 0  # its own: replaced
    (tmp_path / "folder.html").mkdir()
    assert "is not a file" in refused(capsys, ["report", "--db", db, "--out", str(tmp_path / "folder.html")])
    os.symlink(str(mine), str(tmp_path / "link.html"))
    assert "is not a file" in refused(capsys, ["report", "--db", db, "--out", str(tmp_path / "link.html")], str(mine))
    assert os.path.islink(tmp_path / "link.html")


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_export_out_replaces_only_an_earlier_export(tmp_path, db, capsys, fmt):
    out = tmp_path / "folder"
    out.mkdir()
    theirs = out / ("arrows.%s" % fmt)
    theirs.write_bytes(THESIS)
    err = refused(capsys, ["export", "--db", db, "--format", fmt, "--out", str(out)], str(theirs))
    assert "is not a Scorebox export" in err
    assert listing(out) == ["arrows.%s" % fmt]  # matches.* was not written either
    theirs.unlink()
    (out / "readme.txt").write_bytes(THESIS)  # a folder with other files: they stay
    assert cli.main(["export", "--db", db, "--format", fmt, "--out", str(out)]) == 0
    assert cli.main(["export", "--db", db, "--format", fmt, "--out", str(out)]) == 0  # its own: replaced
    assert listing(out) == ["arrows.%s" % fmt, "matches.%s" % fmt, "readme.txt"]
    assert (out / "readme.txt").read_bytes() == THESIS
    afile = tmp_path / "afile"
    afile.write_bytes(THESIS)
    assert "is not a folder" in refused(capsys, ["export", "--db", db, "--out", str(afile)], str(afile))


def test_backup_force_replaces_only_a_backup(tmp_path, db, capsys):
    mine = tmp_path / "thesis.docx"
    mine.write_bytes(THESIS)
    part = tmp_path / "b.sqlite.part"  # a name the backup once used for its temporary copy
    part.write_bytes(THESIS)
    assert "exists: give another name or --force" in refused(capsys, ["backup", str(mine), "--db", db], str(mine))
    err = refused(capsys, ["backup", str(mine), "--db", db, "--force"], str(mine))
    assert "--force replaces only a backup" in err
    b = str(tmp_path / "b.sqlite")
    assert cli.main(["backup", b, "--db", db]) == 0
    assert cli.main(["backup", b, "--db", db, "--force"]) == 0  # an earlier backup: replaced
    assert part.read_bytes() == THESIS
    assert not [n for n in os.listdir(tmp_path) if n.startswith(".b.sqlite")]  # no temporary left


def test_restore_keeps_every_store_it_replaces(tmp_path, db, capsys, monkeypatch):
    b = str(tmp_path / "b.sqlite")
    assert cli.main(["backup", b, "--db", db]) == 0
    monkeypatch.setattr(backup.time, "strftime", lambda fmt, *a: "20260101-120000")  # two in one second
    for _ in range(2):
        assert cli.main(["restore", b, "--db", db]) == 0
    kept = [n for n in listing(tmp_path) if ".before-restore-" in n and n.endswith(".sqlite")]
    assert kept == ["club.before-restore-20260101-120000-2.sqlite", "club.before-restore-20260101-120000.sqlite"]


def test_mpy_build_never_replaces_a_folder_it_did_not_build(tmp_path):
    out = tmp_path / "build"
    out.mkdir()
    (out / "thesis.txt").write_bytes(THESIS)
    with pytest.raises(mpy_build.BuildError, match="is not a finished build"):
        mpy_build.build(str(out))
    assert listing(out) == ["thesis.txt"] and listing(tmp_path) == ["build"]
    built = str(tmp_path / "fresh")
    assert mpy_build.build(built) == built and os.path.exists(os.path.join(built, ".done"))
    assert mpy_build.build(built) == built  # built again beside its own: the finished one stays
