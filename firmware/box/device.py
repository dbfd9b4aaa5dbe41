"""Who the box is, for the PC: its id, firmware version, battery and clock."""

import binascii
import os
import time

from box.store import write_atomic

FIRMWARE = "0.1.0"
ID_FILE = "device.id"


def device_id(board):
    """The chip's unique id where the board has one (the Pico: machine.unique_id()), else an
    id made once and kept in flash (the virtual Pico). Either way also kept in ID_FILE, so
    that the PC's rescue path finds it among the files."""
    path = board.root + "/" + ID_FILE
    uid = None
    if hasattr(board, "unique_id"):
        uid = binascii.hexlify(board.unique_id()).decode()
    try:
        with open(path) as f:
            kept = f.read().strip()
    except OSError:
        kept = None
    if uid is None:
        uid = kept or "v" + binascii.hexlify(os.urandom(7)).decode()
    if kept != uid:
        write_atomic(path, uid + "\n")
    return uid


class Clock:
    """Wall-clock seconds since 1970, once the PC has set it (the box has no RTC battery:
    until then it does not know the date and says so with None)."""

    def __init__(self):
        self.offset = None

    def set(self, epoch):
        self.offset = epoch - time.time()

    def now(self):
        return None if self.offset is None else int(time.time() + self.offset)


class Info:
    def __init__(self, board, clock):
        self.board = board
        self.clock = clock
        self.uid = device_id(board)

    def __call__(self):
        return {
            "device": self.uid,
            "firmware": FIRMWARE,
            "battery_mv": self.board.battery_mv(),
            "clock": self.clock.now(),
        }
