# ruff: noqa: F821  (the PIO assembler's names: rp2.asm_pio gives them to _scan and _buttons)
"""The 4x4 keypad, and the six buttons, scanned by PIO state machines whose changes a DMA
channel moves to RAM, so that no key is lost while the CPU is stalled: MicroPython erases
and programs the flash with interrupts off, 45 ms a sector (400 ms at the chip's maximum),
and a key pressed and let go meanwhile was never seen.

The keypad's state machine drives the rows low one at a time (open drain: a row's pin is an
output only while it is driven, its value 0) and reads the four columns; the buttons' reads
its six pins. Each, only when its readings change, pushes a word to its RX FIFO: the
readings above the number of scans so far (mod 16384; a small int). A scan is 50 cycles at
50 kHz: 1 ms, so the count is the change's time in ms. A DMA channel paced by the FIFO's
DREQ copies each word into a ring of 64 in RAM (aligned to its 256 bytes: the DMA's write
ring) as soon as it is pushed, with no interrupt: the DMA and the PIO go on while the CPU
waits for the flash. The board reads the ring at its leisure, up to the channel's transfer
count: 64 changes (32 keys) between two reads, whatever the stall.

Used by boards/pico.py when pins.py has the rows on consecutive GPIOs and the columns too, in
either order (the PIO's set and in pins are ranges), and for the buttons when all six are on
consecutive GPIOs; otherwise the CPU scans them as before.
"""

from array import array

import rp2
import uctypes

from box.keys import NONE


@rp2.asm_pio(set_init=(rp2.PIO.IN_LOW,) * 4, fifo_join=rp2.PIO.JOIN_RX)  # type: ignore[arg-type]  # a tuple, as rp2.py takes
def _scan():
    # OSR counts the scans (down from 0), Y holds the last readings pushed. Both branches
    # after the comparison take 5 cycles, so every scan takes 50.
    wrap_target()
    label("top")
    mov(x, osr)
    jmp(x_dec, "count")
    label("count")
    mov(osr, x)
    set(pindirs, 1)[8]  # row 0 low; 9 cycles (180 us) for the membrane's lines to settle
    in_(pins, 4)
    set(pindirs, 2)[8]
    in_(pins, 4)
    set(pindirs, 4)[8]
    in_(pins, 4)
    set(pindirs, 8)[7]
    in_(pins, 4)
    set(pindirs, 0)
    mov(x, isr)
    jmp(x_not_y, "change")
    mov(isr, null)[4]
    wrap()
    label("change")
    mov(y, x)
    in_(osr, 14)
    push(noblock)[1]
    jmp("top")


@rp2.asm_pio(fifo_join=rp2.PIO.JOIN_RX)
def _buttons():
    # As _scan, on six pins pulled up: 50 cycles a scan.
    wrap_target()
    label("top")
    mov(x, osr)[20]
    jmp(x_dec, "count")
    label("count")
    mov(osr, x)
    in_(pins, 6)[19]
    mov(x, isr)
    jmp(x_not_y, "change")
    mov(isr, null)[4]
    wrap()
    label("change")
    mov(y, x)
    in_(osr, 14)
    push(noblock)[1]
    jmp("top")


_FREQ = 50_000  # Hz: the 50 cycles of a scan take 1 ms
_RING = 64  # words in a ring: 256 bytes, the DMA's ring_size 8
# The channel's transfers: 268 million changes. 28 bits: on a Pico 2 (RP2350) the count's top
# four bits are its MODE (0 normal), so a larger count would start the DMA in a reserved mode.
_COUNT = 0x0FFFFFFF


def key_of(readings):
    """The first place down in the 16 readings (the lowest row GPIO's columns in bits 12-15,
    the lowest column GPIO the lowest bit): row slot * 4 + column slot, or NONE."""
    k = 0
    for shift in (12, 8, 4, 0):
        n = readings >> shift
        for c in range(4):
            if not n >> c & 1:
                return k
            k += 1
    return NONE


class _Changes:
    """One state machine's changes, moved by its DMA channel into an aligned ring."""

    def __init__(self, sm, prog, now, **pins):
        self.buf = array("i", bytes(8 * _RING))  # twice the ring: an aligned one is inside
        at = uctypes.addressof(self.buf)
        self.off = (-at % (4 * _RING)) // 4  # the ring's first word in buf
        self.got = 0  # words read
        self.start = now  # the board's ms at the first scan
        pio, n = sm >> 2, sm & 3
        self.sm = rp2.StateMachine(sm, prog, freq=_FREQ, **pins)
        self.sm.exec("mov(osr, null)")
        self.sm.exec("mov(y, null)")  # so the first scan pushes the idle readings
        self.dma = rp2.DMA()
        ctrl = self.dma.pack_ctrl(inc_read=False, ring_size=8, ring_sel=True, treq_sel=(4 if pio == 0 else 12) + n)
        rxf = (0x50200020 if pio == 0 else 0x50300020) + 4 * n  # the RX FIFO's register
        self.dma.config(read=rxf, write=at + 4 * self.off, count=_COUNT, ctrl=ctrl, trigger=True)
        self.sm.active(1)

    def take(self, now, out):
        """The words the DMA wrote since the last take, each as its time on the board's clock
        (now) and readings, appended to out."""
        put = _COUNT - (self.dma.count & _COUNT)  # without the RP2350's MODE bits
        if put - self.got > _RING:  # not read for 32 keys: the oldest were overwritten
            self.got = put - _RING
        while self.got < put:
            w = self.buf[self.off + self.got % _RING]
            self.got += 1
            # How many scans ago the change was (its count mod 16384, 16 s, against the scan
            # running now by the board's clock): its time. A PIO clock found ahead of the
            # board's moves the start, so that no change is placed in the future.
            back = (now - self.start + 1 + w) & 0x3FFF  # the count runs down: -w
            if back > 0x2000:
                self.start -= 0x4000 - back
                back = 0
            out.append(now - back)
            out.append(w >> 14)


class Keypad:
    """The changes of the key down, each with its time on the board's clock (ms): the keypad's
    first key down, else the first button down (the CPU's scan order)."""

    def __init__(self, rows, cols, row0, col0, now, buttons=(), button0=None):
        """rows, cols: pins.py's GPIOs, each set consecutive in either order, or () for the CPU
        to scan the keypad; row0, col0: the machine.Pin of the lowest row GPIO and of the
        lowest column GPIO (pulled up);
        buttons: ((key code, GPIO), ...) on six consecutive GPIOs, or () for the CPU to read
        them; button0: the machine.Pin of the lowest (pulled up)."""
        self.pad = None
        if rows:
            r0 = min(rows)
            c0 = min(cols)
            # The key code at each of the PIO's 16 places (row slot * 4 + column slot).
            self.codes = bytes(rows.index(r0 + r) * 4 + cols.index(c0 + c) for r in range(4) for c in range(4))
            self.pad = _Changes(0, _scan, now, set_base=row0, in_base=col0)
        self.buttons = None
        if buttons:
            b0 = min(g for _, g in buttons)
            self.bits = tuple((k, g - b0) for k, g in buttons)  # in pins.py's order
            self.buttons = _Changes(4, _buttons, now, in_base=button0)
        self.pad_key = NONE
        self.button_key = NONE
        self.key = NONE  # the key down after the changes handed out
        self.log = []  # [key, ms] changes not handed out yet, oldest first
        self._pad = []  # time, readings, ...: read() takes each machine's changes into these
        self._btn = []

    def _button(self, readings):
        for k, bit in self.bits:
            if not readings >> bit & 1:
                return k
        return NONE

    def read(self, now):
        """Take the changes into the log, in time order; now: the board's clock."""
        pad, btn = self._pad, self._btn
        if self.pad is not None:
            self.pad.take(now, pad)
        if self.buttons is not None:
            self.buttons.take(now, btn)
        i = j = 0
        while i < len(pad) or j < len(btn):
            if j >= len(btn) or (i < len(pad) and pad[i] <= btn[j]):
                k = key_of(pad[i + 1])
                self.pad_key = k if k == NONE else self.codes[k]
                t = pad[i]
                i += 2
            else:
                self.button_key = self._button(btn[j + 1])
                t = btn[j]
                j += 2
            self.log.append([self.button_key if self.pad_key == NONE else self.pad_key, t])
        pad.clear()
        btn.clear()
