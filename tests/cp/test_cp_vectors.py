"""The rule vectors (tests/vectors/*.ttb) on CircuitPython, on the emulated RP2040: the same
runner as on MicroPython (tests/mpy/rules_vectors.py, unchanged) over the rules core as
source on the CIRCUITPY drive, run by code.py; the console read on the pty. TTB-1 to TTB-15
are cited by the vectors (tests/both/test_vectors.py checks that)."""

import glob
import os

import pytest
from cphelp import core_sources
from mpy import ROOT

from scorebox.sim.cp import emu

VECTORS = sorted(glob.glob(os.path.join(ROOT, "tests", "vectors", "*.ttb")))
# code.py: waits for the PC to open the console (what is printed before is lost, as on a
# Pico), then runs every vector and says what it ran on.
CODE = """import gc, os, supervisor, sys, time
while not supervisor.runtime.serial_connected:
    time.sleep(0.01)
sys.path.insert(0, "/tests/mpy")
import rules_vectors
print("IMPL", sys.implementation.name, ".".join(str(n) for n in sys.implementation.version[:3]), os.uname().machine)
rules_vectors.main(%r)
gc.collect()
print("FREE", gc.mem_free())
"""


def _read(path):
    with open(path, "rb") as f:
        return f.read()


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    """Every vector run once on one emulated CircuitPython Pico: {name: (status, detail)}."""
    tmp = tmp_path_factory.mktemp("cp-vectors")
    names = ["/tests/vectors/" + os.path.basename(p) for p in VECTORS]
    files = core_sources()
    files += [
        ("tests/mpy/" + n, _read(os.path.join(ROOT, "tests", "mpy", n))) for n in ("rules_vectors.py", "path_setup.py")
    ]
    files += [(n.lstrip("/"), _read(p)) for n, p in zip(names, VECTORS)]
    files.append(("code.py", (CODE % names).encode()))
    flash = str(tmp / "flash.img")
    with open(flash, "wb") as f:
        f.write(emu.fs_image(files))
    pico = emu.EmulatedCircuitPython(flash)
    try:
        pico.wait_usb()
        out = emu.console_text(pico.read_until(emu.DONE, timeout=600))
        stats = pico.stats()
    finally:
        pico.close()
    got = {}
    for line in out.splitlines():
        word, _, rest = line.partition(" ")
        if word in ("PASS", "FAIL"):
            path, _, detail = rest.partition(" ")
            got[os.path.basename(path)] = (word, detail)
        elif word in ("IMPL", "FREE"):
            got[word] = rest
    return out, got, stats


def test_code_py_runs_on_circuitpython_on_the_rp2040(results):
    out, got, _ = results
    assert got.get("IMPL", "").startswith("circuitpython 10.2.1 Raspberry Pi Pico with rp2040"), out[-2000:]
    assert len([k for k in got if k.endswith(".ttb")]) == len(VECTORS), out[-2000:]
    assert "Code done running." in out


@pytest.mark.parametrize("path", VECTORS, ids=[os.path.basename(p)[:-4] for p in VECTORS])
def test_vector_on_circuitpython(path, results):
    status, detail = results[1][os.path.basename(path)]
    assert status == "PASS", detail
    assert int(detail.split()[0]) > 0, "a vector must check something"
