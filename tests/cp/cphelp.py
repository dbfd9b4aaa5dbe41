"""Helpers of the emulated CircuitPython Pico's tests."""

import os

from scorebox.device.firmware import compiled, firmware_dir


def core_sources():
    """The rules core as source, [(path on the box, bytes)]: CircuitPython's .mpy format is not
    MicroPython's, so the box's compiled build does not load there."""
    fw = firmware_dir()
    out = []
    for rel in compiled(fw):
        if rel.startswith("scorebox_core/"):
            with open(os.path.join(fw, rel), "rb") as f:
                out.append((rel, f.read()))
    return out
