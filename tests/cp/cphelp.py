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


def free_blocks(image, tmp):
    """Free clusters (512 bytes) of a FAT12 image, as FatFs counts them."""
    from pyfatfs.PyFatFS import PyFatFS

    path = os.path.join(tmp, "count.img")
    with open(path, "wb") as f:
        f.write(image)
    drive = PyFatFS(path, read_only=True)
    try:
        fs, b = drive.fs, drive.fs.bpb_header
        root = b["BPB_RootEntCnt"] * 32 // b["BPB_BytsPerSec"]
        data = b["BPB_TotSec16"] - b["BPB_RsvdSecCnt"] - b["BPB_NumFATs"] * b["BPB_FATSz16"] - root
        return sum(1 for c in fs.fat[2 : 2 + data // b["BPB_SecPerClus"]] if c == 0)
    finally:
        drive.close()


def box_files():
    """CIRCUITPY as `scorebox deploy --circuitpython` leaves it (device/cpinstall.py's plan):
    [(path on the drive, bytes)]."""
    from scorebox.device import cpinstall

    return sorted(cpinstall.built().items())


def rp2help():
    """tests/rp2/rp2help.py (key_script, vpico_frames, journal), for the frames and journal
    the MicroPython box gives: that tier's folder is not on sys.path when this one runs alone."""
    import importlib.util

    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "rp2", "rp2help.py")
    spec = importlib.util.spec_from_file_location("rp2help", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod
