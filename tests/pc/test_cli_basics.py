"""`scorebox --version`, and `demo` offered only where its key script is (a checkout): an
install has no docs/ folder, so its `scorebox` does not list a command that cannot run."""

import pytest

from scorebox import cli
from scorebox_core import VERSION


def test_version(capsys):
    with pytest.raises(SystemExit) as e:
        cli.main(["--version"])
    assert e.value.code == 0 and capsys.readouterr().out == "scorebox %s\n" % VERSION


def commands():
    return set(cli.parser()._subparsers._group_actions[0].choices)


def test_demo_in_a_checkout_only(tmp_path, monkeypatch):
    assert "demo" in commands()  # this checkout has docs/demo.keys
    (tmp_path / "site-packages" / "scorebox" / "firmware").mkdir(parents=True)
    monkeypatch.setattr(cli, "firmware_dir", lambda: str(tmp_path / "site-packages" / "scorebox" / "firmware"))
    assert "demo" not in commands() and {"sync", "report", "sim"} <= commands()
