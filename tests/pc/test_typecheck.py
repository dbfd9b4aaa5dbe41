"""Type-checking with mypy (pinned in the `test` extra), 0 errors:

1. the firmware (main.py, pins.py, boards/, box/, scorebox_core/, lib/'s panel drivers) and
   the virtual Pico (vpico/) against
   MicroPython's own types: the Pico stubs `micropython-rp2-rpi-pico-stubs` (machine, rp2,
   framebuf, micropython, vfs ...) with their MicroPython stdlib (`micropython-stdlib-stubs`)
   in place of CPython's typeshed, so a call the Pico does not have is an error;
2. the shared core the PC runs too (scorebox_core/, the only firmware package it imports)
   against CPython's types (mypy's own typeshed).

Unannotated functions are checked too (check_untyped_defs), except in the modules listed in
UNTYPED, which predate this check and would need type comments to narrow their Optional
attributes: they are checked at mypy's default depth (signatures, module level, annotated
functions). A new module is checked fully unless it is added there.
"""

import os
import subprocess
import sys
from importlib import metadata

import pytest
from mpy import FIRMWARE, SIM_MPY

DRIVERS = os.path.join(FIRMWARE, "lib")
STUB_DISTS = ("micropython-rp2-rpi_pico-stubs", "micropython-stdlib-stubs")

# Modules checked at mypy's default depth only (see the docstring).
UNTYPED = (
    "boards.keypad",  # its PIO program's body: rp2.asm_pio gives it the assembler's names
    "box.app",
    "box.home",
    "box.link",
    "box.session",
    "scorebox_core.games.ttb.script",
    "vpico.board",
    "vpico.usb",
)
# What the PC imports of the firmware tree (host_tools/scorebox): checked against CPython.
SHARED = ("-p", "scorebox_core")


@pytest.fixture(scope="module")
def stubs(tmp_path_factory):
    """The Pico stubs laid out as mypy wants them: one folder for both the custom typeshed
    (stdlib/, stubs/mypy-extensions) and the MicroPython modules (machine.pyi ...). They are
    copied out of site-packages, which mypy refuses on its search path."""
    out = tmp_path_factory.mktemp("stubs")
    names = set()
    for dist in STUB_DISTS:
        try:
            files = metadata.distribution(dist).files or []
        except metadata.PackageNotFoundError:
            pytest.fail("%s is not installed: pip install -e '.[test]' (make test does)" % dist)
        for f in files:
            rel = str(f)
            if rel.endswith(".pyi") or rel.endswith("VERSIONS"):
                dst = out / rel
                dst.parent.mkdir(parents=True, exist_ok=True)
                dst.write_bytes(f.locate().read_bytes())
                top = rel.split("/")[0]
                if top not in ("stdlib", "stubs"):
                    names.add(top[:-4] if top.endswith(".pyi") else top)
    return str(out), sorted(names)


def mypy(config, args, cwd):
    p = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", config, *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=cwd,
    )
    return p.returncode, (p.stdout + p.stderr).strip()


def test_firmware_against_the_pico_stubs(stubs, tmp_path):
    folder, stub_modules = stubs
    cfg = tmp_path / "mypy.ini"
    lines = [
        "[mypy]",
        "custom_typeshed_dir = " + folder,
        "mypy_path = " + os.pathsep.join((folder, FIRMWARE, DRIVERS, SIM_MPY)),
        "python_version = 3.12",
        "check_untyped_defs = True",
        "warn_unused_ignores = True",
        "cache_dir = " + str(tmp_path / "cache"),
        # Errors inside the stubs are the stubs' own (mypy reports them when the stubs
        # are on mypy_path rather than installed); they are not the firmware's.
        "[mypy-%s]" % ",".join("%s,%s.*" % (m, m) for m in stub_modules) + "\nignore_errors = True",
        "[mypy-%s]" % ",".join(UNTYPED) + "\ncheck_untyped_defs = False",
        # CircuitPython's modules (boards/circuitpy.py, boards/cpport.py): no MicroPython stubs
        "[mypy-analogio,busio,digitalio,displayio,i2cdisplaybus,keypad,microcontroller,supervisor,pwmio,rtc,usb_cdc,"
        "adafruit_displayio_sh1106,adafruit_displayio_ssd1306]\nignore_missing_imports = True",
    ]
    cfg.write_text("\n".join(lines) + "\n")
    args = ["-m", "main", "-m", "pins", "-p", "boards", "-p", "box", "-p", "scorebox_core", "-p", "vpico"]
    args += ["-m", "ssd1306", "-m", "sh1106"]
    code, out = mypy(str(cfg), args, str(tmp_path))
    assert code == 0, "mypy against the Pico stubs found errors:\n" + out
    assert "Success: no issues found" in out, out


def test_shared_core_against_cpython(tmp_path):
    cfg = tmp_path / "mypy.ini"
    cfg.write_text(
        "[mypy]\nmypy_path = %s\ncheck_untyped_defs = True\ncache_dir = %s\n"
        "[mypy-micropython,framebuf]\nignore_missing_imports = True\n"
        "[mypy-%s]\ncheck_untyped_defs = False\n" % (FIRMWARE, tmp_path / "cache", ",".join(UNTYPED))
    )
    code, out = mypy(str(cfg), list(SHARED), str(tmp_path))
    assert code == 0, "mypy against CPython's types found errors:\n" + out
    assert "Success: no issues found" in out, out
