"""Frames with a valid CRC around what the box cannot take, decoded on a small heap: each
must end as a FrameError (the link answers ERR), never as another exception that would
leave the app loop. Prints one line per case, then ALL OK.

    micropython -X heapsize=64k tests/mpy/frames_hostile.py
"""

import path_setup  # noqa: F401  (sys.path, so that the script runs alone)

# isort: split

import binascii
import gc

from scorebox_core import frames


def signed(head):
    return head + b"%08x\n" % binascii.crc32(head)


def body(data):
    return binascii.b2a_base64(data).strip()


# Each line is made when its case runs, so that one case's garbage is not the next one's.
CASES = (
    ("kind not UTF-8", lambda: signed(b"~SB1 5 \xff\xfe e30= ")),
    ("version not UTF-8", lambda: signed(b"~SB\xff 5 HELLO e30= ")),
    ("deep nesting", lambda: signed(b"~SB1 5 LIST " + body(b"[" * 3000 + b"]" * 3000) + b" ")),
    ("seq not a number", lambda: signed(b"~SB1 x LIST e30= ")),
    ("body not JSON", lambda: signed(b"~SB1 5 LIST " + body(b"{nope") + b" ")),
)

bad = 0
for name, make in CASES:
    gc.collect()
    line = make()
    try:
        frames.decode(line)
        print("FAIL", name, "decoded")
        bad += 1
    except frames.FrameError as e:
        print("ok", name, e)
    except Exception as e:
        print("FAIL", name, type(e).__name__, e)
        bad += 1
print("ALL OK" if not bad else "%d FAILED" % bad)
