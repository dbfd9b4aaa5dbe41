"""The rule vectors (tests/vectors/*.ttb) on the Pico's own MicroPython, on the emulated
RP2040: the same runner (tests/mpy/rules_vectors.py, unchanged, as source on the box's
flash) over the core as `scorebox deploy` compiles it (.mpy). TTB-1 to TTB-15 are cited by
the vectors (tests/both/test_vectors.py checks that)."""

import glob
import os

import pytest
from mpy import ROOT
from rp2help import mpremote

from scorebox.sim.rp2 import emu

pytestmark = pytest.mark.micropython

VECTORS = sorted(glob.glob(os.path.join(ROOT, "tests", "vectors", "*.ttb")))


def _read(path):
    with open(path, "rb") as f:
        return f.read()


@pytest.fixture(scope="module")
def results(deployed, tmp_path_factory):
    """Every vector run once on one emulated Pico (no main.py: it boots to the REPL)."""
    tmp = tmp_path_factory.mktemp("vectors")
    files = [(p, data) for p, data in deployed if p.startswith("scorebox_core/")]
    for name in ("rules_vectors.py", "path_setup.py"):
        files.append(("tests/mpy/" + name, _read(os.path.join(ROOT, "tests", "mpy", name))))
    files += [("tests/vectors/" + os.path.basename(p), _read(p)) for p in VECTORS]
    flash = str(tmp / "flash.img")
    with open(flash, "wb") as f:
        f.write(emu.fs_image(files))
    pico = emu.EmulatedPico(flash)
    try:
        pico.wait_usb()
        paths = ["/tests/vectors/" + os.path.basename(p) for p in VECTORS]
        code = "import sys; sys.path.insert(0, '/tests/mpy'); import rules_vectors; rules_vectors.main(%r)" % paths
        pico.profile(True)
        out = mpremote(pico.port, "exec", code)
        profile = pico.profile(False)
        impl = mpremote(pico.port, "exec", "import sys; print(sys.platform, sys.implementation._machine)")
    finally:
        pico.close()
    got = {}
    for line in out.splitlines():
        status, path, rest = (line.split(" ", 2) + [""])[:3]
        got[os.path.basename(path)] = (status, rest)
    return impl, got, profile


def test_runs_on_the_rp2_port(results):
    impl, got = results[:2]
    assert impl.startswith("rp2 Raspberry Pi Pico"), impl
    assert len(got) == len(VECTORS), got


@pytest.mark.parametrize("path", VECTORS, ids=[os.path.basename(p)[:-4] for p in VECTORS])
def test_vector_on_rp2040(path, results):
    status, detail = results[1][os.path.basename(path)]
    assert status == "PASS", detail
    assert int(detail.split()[0]) > 0, "a vector must check something"


def test_a_profile_names_the_c_functions_that_took_the_cycles(results):
    """The cycles of the vectors' run by program counter, named from the ELF's symbols: the
    parser (the runner is source), the bytecode interpreter and the heap are among the top."""
    elf = emu.elf()
    if not elf:
        pytest.skip("no ELF with symbols (SCOREBOX_PICO_ELF): profiles cannot be named")
    top = [name for name, _ in emu.symbols(results[2], elf)[:20]]
    assert {"mp_parse", "mp_execute_bytecode", "gc_alloc"} <= set(top), top
