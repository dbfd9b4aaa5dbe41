"""The journal's files on CircuitPython's FAT drive (docs/journal.md, "On FAT"): their folders,
names and sizes, and how many group slots a ring has. Shared with the PC: its install makes
the ring (scorebox/device/cpinstall.py), and the rescue finds its files (scorebox/sync/rescue.py).
"""

from scorebox_core import records as R

PAD = R.ERASED_PAD  # 0xFF bytes before and after a copy's records: never rewritten
ROOM = 32768  # bytes of records a copy holds
COPY = 2 * PAD + ROOM  # a copy's bytes on the drive
# Kept free beside a new group's copies (as LittleFS's 2 free blocks): journal.ack's
# replacement, the app's settings and roster
SPARE = 8192
MIRROR = "tbjb"  # the folder of the second copies, in the journal's
# The slotted journal (box/fat/ring.py): its space allocated once, at install or at the first boot
FIRST = "tbja"  # the folder of its first copy (MIRROR holds the second)
RING = "journal.tbs"
ACK_ROOM = 4096  # bytes of acknowledgement records kept before they are written anew
ACK_COPY = 2 * PAD + ACK_ROOM
MAX_SLOTS = 10  # group slots made at most: what a Pico's 1 MiB CIRCUITPY holds beside the box's files
# The app's settings and roster (box/store.py's, box/fat/kept.py) beside a ring: one small state kept in place
# in two files of their own, FIRST/STORE and MIRROR/STORE, made with the ring (at install or
# at the first boot), each a pad, STORE_ROOM bytes and a pad
STORE = "store.tbs"
STORE_ROOM = 4096
STORE_COPY = 2 * PAD + STORE_ROOM


def slots_for(free):
    """How many group slots a ring made in free bytes has (two copies each, the
    acknowledgements' beside them and SPARE left): 0 when fewer than 2 fit."""
    n = min(MAX_SLOTS, (free - SPARE - 2 * ACK_COPY) // (2 * COPY))
    return n if n >= 2 else 0


def ring_size(n):
    """Bytes of each of a ring's two files, with n slots."""
    return ACK_COPY + n * COPY
