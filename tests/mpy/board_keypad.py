"""boards/keypad.py on the MicroPython unix port, over a fake `rp2` whose state machines' pushes
the checks make, each moved by the fake DMA channel reading that machine's FIFO into the ring
it was given in RAM (run by tests/both/test_pico_keypad.py): the 16 readings to a key code,
wired either way round; each change's time from the scan count (mod 16384) on the board's
clock; a ring not read for too long; the buttons' changes merged with the keypad's in time
order. The checks print `ok NAME`, and the script ends with ALL OK or exits with status 1
(tests/mpy/verdict.py).
"""

import path_setup  # noqa: F401  (sys.path, so that the script runs alone)

# isort: split

import sys

import uctypes
from verdict import done, want


class _DMA:
    """A channel as boards/keypad.py sets it: paced by a state machine's RX DREQ, reading its
    RX FIFO's register, writing words into a ring of 2**ring_size bytes at an aligned address
    (the DMA's write ring: the address's low bits wrap, the rest stays) until count runs out."""

    made = []

    def __init__(self):
        self.count = 0
        self.read = None
        _DMA.made.append(self)

    def pack_ctrl(self, **kw):
        return kw

    def config(self, read=None, write=None, count=None, ctrl=None, trigger=False):
        want(trigger and not ctrl.get("inc_read", True) and ctrl["ring_sel"], ctrl)
        self.read, self.write, self.count, self.ctrl = read, write, count, ctrl

    def transfer(self, word):
        """One word from the FIFO into RAM, as the DMA does when the DREQ asks."""
        size = 1 << self.ctrl["ring_size"]
        ring = uctypes.bytearray_at(self.write & ~(size - 1), size)
        at = self.write % size
        ring[at : at + 4] = word.to_bytes(4, "little")
        self.write = self.write & ~(size - 1) | (at + 4) % size
        self.count -= 1


class _SM:
    def __init__(self, id, prog, freq=0, set_base=None, in_base=None):
        self.id = id
        self.active_ = 0
        self.args = (freq, set_base, in_base)
        _DMA.made = [d for d in _DMA.made if d.read != self.rxf()]  # an earlier check's Keypad's

    def rxf(self):
        """The address of its RX FIFO's register (RP2040 datasheet, PIO0 and PIO1's RXF0-3)."""
        return (0x50200020, 0x50300020)[self.id >> 2] + 4 * (self.id & 3)

    def exec(self, instr):
        pass

    def active(self, on):
        self.active_ = on

    def push(self, readings, scan):
        """What the PIO program pushes at scan number `scan` (1 the first): its DMA channel
        (the one reading this machine's RX FIFO, paced by its DREQ) moves it to RAM."""
        dreq = (4, 12)[self.id >> 2] + (self.id & 3)  # DREQ_PIO0_RX0, DREQ_PIO1_RX0
        dma = [d for d in _DMA.made if d.read == self.rxf() and d.ctrl["treq_sel"] == dreq]
        want(len(dma) == 1 and self.active_, "one DMA channel on the FIFO of state machine %d" % self.id)
        dma[0].transfer(readings << 14 | (-scan & 0x3FFF))


class _PIO:
    IN_LOW = 0
    JOIN_RX = 2


class _RP2:
    PIO = _PIO
    StateMachine = _SM
    DMA = _DMA

    @staticmethod
    def asm_pio(**kw):
        return lambda f: f


sys.modules["rp2"] = _RP2

from boards import keypad  # noqa: E402
from box.keys import NONE  # noqa: E402

IDLE = 0xFFFF
ROWS, COLS = (6, 7, 8, 9), (10, 11, 12, 13)


def down(row_slot, col_slot):
    """The readings with one place down (its column low while its row is driven)."""
    return IDLE & ~(1 << (12 - 4 * row_slot + col_slot))


def check_codes():
    want(keypad.key_of(IDLE) == NONE, "idle")
    kp = keypad.Keypad(ROWS, COLS, None, None, 0)
    want(kp.pad.sm.args[0] == 50_000 and kp.buttons is None, kp.pad.sm.args)
    got = [kp.codes[keypad.key_of(down(r, c))] for r in range(4) for c in range(4)]
    want(got == list(range(16)), got)
    # The plug turned round (docs/hardware.md): R1 on GP13 ... C1 on GP9.
    kp = keypad.Keypad((13, 12, 11, 10), (9, 8, 7, 6), None, None, 0)
    want(kp.codes[keypad.key_of(down(3, 3))] == 0, "R1 C1 is the key 1")
    want(kp.codes[keypad.key_of(down(0, 0))] == 15, "R4 C4 is the key D")
    # Two keys down: the first in the scan's order, as the CPU's scan.
    want(keypad.key_of(down(1, 2) & down(2, 0)) == 6, "two keys")
    print("ok codes")


def check_times():
    kp = keypad.Keypad(ROWS, COLS, None, None, 1000)
    sm = kp.pad.sm
    sm.push(IDLE, 1)  # the first scan: at the start
    kp.read(1001)
    want(kp.log == [[NONE, 1000]], kp.log)
    kp.log = []
    # Three changes in a stall the board reads only after it, at 1900 ms on its clock.
    sm.push(down(1, 1), 501)
    sm.push(IDLE, 581)
    sm.push(down(0, 0), 701)
    kp.read(1900)
    want(kp.log == [[5, 1500], [NONE, 1580], [0, 1700]], kp.log)
    kp.log = []
    # 40 s later: the count went round twice; the change is placed by the board's clock.
    sm.push(IDLE, 40_801)
    kp.read(41_805)
    want(kp.log == [[NONE, 41_800]], kp.log)
    kp.log = []
    # The PIO's clock 3 ms ahead of the board's (scan k at 1000 + k - 1 - 3): a change is
    # never placed in the future, and the start moves so that the next is placed as it ran.
    sm.push(down(0, 1), 41_903 - 1000 + 1 + 3)
    kp.read(41_903)
    sm.push(IDLE, 42_000 - 1000 + 1 + 3)
    kp.read(42_010)
    want(kp.log == [[1, 41_903], [NONE, 42_000]], kp.log)
    print("ok times")


def check_ring():
    kp = keypad.Keypad(ROWS, COLS, None, None, 0)
    for i in range(keypad._RING + 6):  # 70 changes, never read: the oldest 6 are gone
        kp.pad.sm.push(down(0, 0) if i % 2 else IDLE, 10 * i + 1)
    kp.read(10 * keypad._RING + 100)
    want(len(kp.log) == keypad._RING and kp.log[0][1] == 60 and kp.log[-1][1] == 690, kp.log[:2])
    print("ok ring")


BUTTONS = ((20, 14), (21, 15), (22, 16), (23, 17), (24, 18), (25, 19))  # (code, GPIO)


def check_buttons():
    """The six buttons on a second state machine, its changes merged with the keypad's by their
    times; a key down on the keypad comes first, as in the CPU's scan."""
    kp = keypad.Keypad(ROWS, COLS, None, None, 0, BUTTONS[3:] + BUTTONS[:3], "GP14")
    pad, btn = kp.pad.sm, kp.buttons.sm
    want(btn.id >> 2 != pad.id >> 2 and btn.args == (50_000, None, "GP14"), btn.args)
    want(kp.pad.dma is not kp.buttons.dma, "a channel each")
    pad.push(IDLE, 1)
    btn.push(0x3F, 1)
    kp.read(5)
    kp.log = []
    # In a stall: "left" (GP16) down at 100, the key 1 at 150, "left" up at 170, 1 up at 200,
    # "right" and "ok" both down at 300 ("right" first in pins.py's order, given here first).
    btn.push(0x3F & ~4, 100)
    btn.push(0x3F, 170)
    btn.push(0x3F & ~8 & ~16, 300)
    pad.push(down(0, 1), 150)
    pad.push(IDLE, 200)
    kp.read(450)
    want(kp.log == [[22, 99], [1, 149], [1, 169], [NONE, 199], [23, 299]], kp.log)
    # No keypad fitted (or the CPU scans it): the buttons' machine alone.
    kp = keypad.Keypad((), (), None, None, 0, BUTTONS, "GP14")
    want(kp.pad is None, "no keypad machine")
    kp.buttons.sm.push(0x3F & ~1, 20)
    kp.read(30)
    want(kp.log == [[20, 19]], kp.log)
    print("ok buttons")


def check_deep():
    """40 changes in one stall (a FIFO holds 8): all of them, in order."""
    kp = keypad.Keypad(ROWS, COLS, None, None, 0)
    for i in range(40):
        kp.pad.sm.push(down(0, 0) if i % 2 == 0 else IDLE, 10 * i + 1)
    kp.read(500)
    want([t for _, t in kp.log] == [10 * i for i in range(40)], kp.log)
    print("ok deep")


check_codes()
check_times()
check_ring()
check_buttons()
check_deep()
done()
