"""`make enclosure` says that its checks passed, not only when one fails."""

from enclosure import build


def test_make_enclosure_says_each_layouts_checks_passed(tmp_path, capsys):
    assert build.main([str(tmp_path), "--no-pictures"]) == 0
    lines = capsys.readouterr().out.splitlines()
    passed = [
        line
        for line in lines
        if line.startswith("  ok: all ") and line.endswith("checks passed (enclosure/README.md lists them)")
    ]
    assert len(passed) == len(build.LAYOUTS), lines
    assert not [line for line in lines if "FAIL" in line]
