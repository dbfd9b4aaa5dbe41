"""Running code on the MicroPython unix port (the virtual Pico's VM) from the tests."""

import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIRMWARE = os.path.join(ROOT, "firmware")
TESTS = os.path.join(ROOT, "tests")
SCRIPTS = os.path.join(TESTS, "mpy")  # the MicroPython scripts
SUPPORT = os.path.join(TESTS, "support")
SIM_MPY = os.path.join(ROOT, "host_tools", "scorebox", "sim", "mpy")  # the virtual Pico's modules


def micropython():
    """Path of the `micropython` command installed beside this Python; fails loudly."""
    exe = shutil.which("micropython", path=os.path.dirname(sys.executable)) or shutil.which("micropython")
    if not exe:
        raise RuntimeError("no `micropython` command: install the sim extra (make test does)")
    return exe


def env(*paths):
    e = dict(os.environ)
    e["MICROPYPATH"] = os.pathsep.join(
        (*paths, FIRMWARE, os.path.join(FIRMWARE, "lib"), SIM_MPY, SCRIPTS, SUPPORT, ".frozen")
    )
    return e


# The Pico's heap for the app's whole-match tests on the 64-bit unix port. The RP2040's own
# heap is 245,888 B and the app's peak there is about 1.28 times smaller than here
# (rp2_app_heap_peak_bytes 110,384 B against app_heap_peak_bytes 141,120 B in one make bench,
# docs/benchmarks.md; 1.43 while the menus' modules stayed in the heap during matches): 224k
# here stands for about 175 KB there, 71 % of the Pico's heap. At 192k whole matches failed
# now and then on a 1-2 KB block (fragmentation, 40 KB free) when the peak here was 157 KB.
PICO_HEAP = "224k"


def run(args, heapsize=None, input=None, timeout=120, paths=()):
    """Run `micropython [-X heapsize=N] args...` with the firmware on its path."""
    cmd = [micropython()]
    if heapsize:
        cmd += ["-X", "heapsize=%s" % heapsize]
    return subprocess.run(
        cmd + list(args), input=input, capture_output=True, text=True, timeout=timeout, env=env(*paths), cwd=ROOT
    )
