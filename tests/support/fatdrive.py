"""The journal on CircuitPython's FAT drive, here under CPython on the PC's files (docs/journal.md
"On FAT"): box/journal.py with its FAT flag set. A test module with the firmware tree on its
sys.path names this plugin (`pytest_plugins = ("fatdrive",)`) and takes:
- on_fat: box.journal, its FAT flag set, the ring it makes of at most ring_slots slots;
- ring_slots: 3, a ring that turns quickly; a module of a drive with no room for a ring
  overrides it with a fixture of its own that returns 0 (its groups then files, each in two
  copies).
"""

import pytest


@pytest.fixture
def ring_slots():
    """The most group slots the journal's ring is made with (scorebox_core/fatlayout.py's MAX_SLOTS)."""
    return 3


@pytest.fixture
def on_fat(monkeypatch, ring_slots):
    """box/journal.py as on CircuitPython (its FAT), here on CPython's files: the journal's
    logic over the copies (which file, which offset, recovery) without CircuitPython's cache."""
    from box import journal
    from scorebox_core import fatlayout

    monkeypatch.setattr(journal, "FAT", True)  # Journal.recover hands it to box/recovery.py
    monkeypatch.setattr(fatlayout, "MAX_SLOTS", ring_slots)
    return journal
