# ruff: noqa: F821  (the PIO assembler's names: rp2.asm_pio gives them to _scan)
"""The 4x4 keypad scanned by a PIO state machine, so that no key is lost while the CPU is
stalled: MicroPython erases and programs the flash with interrupts off, 45 ms a sector
(400 ms at the chip's maximum), and a key pressed and let go meanwhile was never seen.

The state machine drives the rows low one at a time (open drain: a row's pin is an output
only while it is driven, its value 0), reads the four columns, and only when the 16
readings change pushes a word to the RX FIFO and raises its interrupt: the readings above
the number of scans so far (mod 16384; a small int, so the interrupt's handler allocates
nothing). A scan is 50 cycles at 50 kHz: 1 ms, so the count is the change's time in ms.
The joined FIFO (8 words) holds the changes of a whole 400 ms stall up to 10 keys a second;
the interrupt's handler, served as soon as the stall ends, moves them to a ring in RAM that
the board reads at its leisure.

Used by boards/pico.py when pins.py has the rows on consecutive GPIOs and the columns too, in
either order (the PIO's set and in pins are ranges); otherwise the CPU scans as before.
"""

from array import array

import rp2

from box.keys import NONE

_FREQ = 50_000  # Hz: the 50 cycles of a scan take 1 ms


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
    push(noblock)
    irq(rel(0))
    jmp("top")


_RING = 64  # changes kept between two reads of the board (32 keys)


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


class Keypad:
    """The changes of the key down, each with its time on the board's clock (ms)."""

    def __init__(self, rows, cols, row0, col0, now, irqs, sm=0):
        """rows, cols: pins.py's GPIOs, each set consecutive in either order; row0, col0: the
        machine.Pin of the lowest row GPIO and of the lowest column GPIO (pulled up); irqs:
        (machine.disable_irq, machine.enable_irq), for read() to drain the FIFO itself."""
        self._irq_off, self._irq_on = irqs
        r0 = min(rows)
        c0 = min(cols)
        # The key code at each of the PIO's 16 places (row slot * 4 + column slot).
        self.codes = bytes(rows.index(r0 + r) * 4 + cols.index(c0 + c) for r in range(4) for c in range(4))
        self.ring = array("i", bytes(4 * _RING))
        self.put = 0  # words the interrupt put in the ring
        self.got = 0  # words read from it
        self.key = NONE  # the key down after the changes handed out
        self.log = []  # [key, ms] changes not handed out yet, oldest first
        self._start = now  # the board's ms at the first scan
        self.sm = rp2.StateMachine(sm, _scan, freq=_FREQ, set_base=row0, in_base=col0)
        self.sm.exec("mov(osr, null)")
        self.sm.exec("mov(y, null)")  # so the first scan pushes the idle readings
        self.sm.irq(self._drain, hard=True)
        self.sm.active(1)

    def _drain(self, sm):
        """The interrupt: the FIFO into the ring (no allocation here)."""
        while sm.rx_fifo():
            self.ring[self.put % _RING] = sm.get()
            self.put += 1

    def read(self, now):
        """Take the changes into the log; now: the board's clock. The FIFO is drained here
        too (the interrupt may not have been served yet), with interrupts off meanwhile."""
        state = self._irq_off()
        try:
            self._drain(self.sm)
        finally:  # a Ctrl-C raised in the drain: left off, the REPL would never hear USB again
            self._irq_on(state)
        if self.put - self.got > _RING:  # not read for 32 keys: the oldest were overwritten
            self.got = self.put - _RING
        while self.got < self.put:
            w = self.ring[self.got % _RING]
            self.got += 1
            # How many scans ago the change was (its count mod 16384, 16 s, against the scan
            # running now by the board's clock): its time. A PIO clock found ahead of the
            # board's moves the start, so that no change is placed in the future.
            back = (now - self._start + 1 + w) & 0x3FFF  # the count runs down: -w
            if back > 0x2000:
                self._start -= 0x4000 - back
                back = 0
            k = key_of(w >> 14)
            self.log.append([k if k == NONE else self.codes[k], now - back])
