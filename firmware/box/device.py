"""Who the box is, for the PC: its id, firmware version, battery and clock."""

import binascii
import os
import time

from box.store import write_atomic

FIRMWARE = "0.1.0"
ID_FILE = "device.id"


def device_id(board):
    """The box's id for the PC: the chip's unique id where the board has one (the Pico:
    machine.unique_id()), else "v" (the virtual Pico), then a random part made when the
    file system is new. Match numbers start again at 1 on a wiped file system, so the
    random part keeps the PC from taking a new match 1 for one it already holds. Kept in
    ID_FILE, where the PC's rescue path finds it too."""
    path = board.root + "/" + ID_FILE
    raw = board.unique_id()
    chip = binascii.hexlify(raw).decode() if raw else "v"
    try:
        with open(path) as f:
            kept = f.read().strip()
    except OSError:
        kept = ""
    if kept.startswith(chip + "-"):
        return kept
    uid = chip + "-" + binascii.hexlify(os.urandom(4)).decode()
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
