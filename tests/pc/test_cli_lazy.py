"""A command imports its own module and no other's (issue 22 item 6): `scorebox sync` loaded
the demo, the HTML report, the statistics and the desk at startup, and while the box waits
for the PC that time counts as the sync's (the emulated Pico fast-forwards its sleeps).
Counted in a fresh interpreter: the modules it has imported."""

import json
import subprocess
import sys

import pytest

from scorebox import cli

# Modules of other commands that `scorebox sync` must not load (deploy it does: a box in
# need of rescue is flashed by sync/rescue.py).
NOT_FOR_SYNC = (
    "scorebox.demo",
    "scorebox.report.html",
    "scorebox.report.stats",
    "scorebox.report.face",
    "scorebox.web.serve",
    "scorebox.commands.export",
    "scorebox.commands.backup",
)


def loaded(argv):
    """The modules a fresh interpreter has after cli.main(argv) (a --help: it exits 0), or
    once the CLI is imported (argv None)."""
    code = "import json, sys\nfrom scorebox import cli\n"
    if argv is not None:
        code += "try:\n    cli.main(%r)\nexcept SystemExit:\n    pass\n" % (argv,)
    code += "sys.stderr.write(json.dumps(sorted(sys.modules)))\n"
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    return set(json.loads(p.stderr.strip().splitlines()[-1]))


def test_importing_the_cli_loads_no_command():
    got = loaded(None)
    assert not {m for m in got if m.startswith(("scorebox.report", "scorebox.web", "scorebox.sync"))}
    assert "scorebox.demo" not in got and "scorebox.sim.run" not in got


def test_sync_loads_its_own_module_only():
    got = loaded(["sync", "--help"])
    assert "scorebox.sync.commands" in got
    assert not set(NOT_FOR_SYNC) & got, set(NOT_FOR_SYNC) & got


@pytest.mark.parametrize("name", ["report", "stats", "serve", "face"])
def test_each_command_loads_its_module(name):
    got = loaded([name, "--help"])
    assert cli.COMMANDS[name][0] in got
    assert "scorebox.sync.commands" not in got and "scorebox.demo" not in got


def test_help_lists_every_command(capsys):
    with pytest.raises(SystemExit) as e:
        cli.main(["--help"])
    assert e.value.code == 0
    out = capsys.readouterr().out
    for name in cli.COMMANDS:
        assert name in out
