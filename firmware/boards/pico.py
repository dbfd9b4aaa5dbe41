"""The Raspberry Pi Pico (Pico W, Pico 2) binding: the only firmware module that imports
`machine` or a display driver. Every pin comes from pins.py.

It is a boards.base.Board (the contract, with its twin vpico/board.py): the display is an
SH1106, SSD1306 or SSD1309 on I2C, battery_mv() reads VSYS on ADC3 (GP29 behind the Pico's divider
of 3), usb_powered() reads VBUS, and sleep_ms(ms), the app loop's pause, is
machine.lightsleep when on battery (it would stop the USB clock, so never while USB power
is present) and time.sleep_ms otherwise. beep() drives the piezo on pins.PIEZO with PWM.
deepsleep(), at EMPTY, is machine.deepsleep() with a key and VBUS armed to wake it.
The keypad and the buttons are scanned by PIO state machines (boards/keypad.py) where
pins.py allows it, so that a key pressed while the flash stalls the CPU is still seen.

Pico W / Pico 2 W: GP29 (the VSYS divider) is also the wireless chip's SPI clock and GP25
its chip select, and VBUS sense is the wireless chip's WL_GPIO2, not GP24 (Pico W
datasheet, pinout; Raspberry Pi's pico-examples adc/read_vsys/power_status.c reads VBUS
through CYW43_WL_GPIO_VBUS_PIN and VSYS with the wireless driver held off). Here the
battery read drives GP25 high (chip deselected), makes GP29 an analog input, reads, and
gives GP29 back to the wireless SPI (function 7, pulled down).
"""

import sys
import time

import machine
import pins

from boards.base import Board as Base
from box.display import Display
from box.keys import NONE, code

try:
    from boards.keypad import Keypad
except ImportError:  # no rp2 module: a fake machine on the unix port (tests/mpy/board_pico.py)
    Keypad = None  # type: ignore[misc,assignment]

_LIGHTSLEEP_MS = 20  # a key is sampled at least every 20 ms + the loop's work
_SAMPLES = 8  # ADC readings averaged per battery_mv() (the ADC is noisy, ~1 LSB = 2.4 mV at VSYS)
# Deep sleep's wake on the RP2040 (its datasheet, IO_BANK0; the SDK's gpio_set_dormant_irq_enabled):
# MicroPython's machine.deepsleep() with no time is DORMANT (the crystal stopped) and then a
# reset, with no wake of its own: a key's GPIO edge is armed for it in these registers.
_IO_BANK0 = 0x40014000
_INTR0 = 0x0F0  # raw edges, write 1 to clear
_DORMANT_WAKE_INTE0 = 0x160  # the dormant wake's enables, 4 bits a GPIO, 8 GPIOs a register
_SET = 0x2000  # the register's atomic bit-set alias
_EDGE_LOW = 4  # a GPIO falling (a key pressed: its column or button pulled to GND)
_EDGE_HIGH = 8  # a GPIO rising (VBUS: USB power arriving)

# The ADC's reference is its supply, ADC_AVDD: the 3.3 V rail through the Pico's 200 Ohm filter
# resistor, which the ADC's own ~150 uA (+20 uA while sampling) drops by about 34 mV (Pico
# datasheet, "Using the ADC": "an inherent offset of about 150uA*200 = ~30mV"). Read against
# 3.3 V, VSYS would come out about 1 % high: 30 mV at the alkaline EMPTY, 45 mV full.
ADC_REF_MV = 3266
_HALF = 32768  # PWM duty for a tone: a square wave, the loudest a piezo gives


def _consecutive(gpios, n):
    """n GPIOs next to each other, in any order (the PIO's pin ranges)."""
    return len(gpios) == n and max(gpios) - min(gpios) == n - 1 and len(set(gpios)) == n


def _is_wireless():
    return " W" in sys.implementation._machine  # "Raspberry Pi Pico W with RP2040", "... Pico 2 W ..."


def _is_rp2040():
    return "RP2040" in sys.implementation._machine  # "Raspberry Pi Pico with RP2040"; a Pico 2's: RP2350


def _panel(i2c):
    """The display driver for pins.DISPLAY (installed in /lib by `scorebox deploy`)."""
    if pins.DISPLAY == "SH1106":
        from sh1106 import SH1106

        return SH1106(i2c, pins.DISPLAY_ADDR, pins.DISPLAY_FLIP)
    if pins.DISPLAY == "SSD1309":
        from ssd1306 import SSD1309

        return SSD1309(i2c, pins.DISPLAY_ADDR, pins.DISPLAY_FLIP)
    from ssd1306 import SSD1306

    return SSD1306(i2c, pins.DISPLAY_ADDR, pins.DISPLAY_FLIP)


class Board(Base):
    def __init__(self):
        self.root = "/"
        self.layout = pins.LAYOUT
        self.battery_type = pins.BATTERY
        self.press_ms = getattr(pins, "KEY_PRESS_MS", 0)  # a pins.py older than it has none
        self.wireless = _is_wireless()
        i2c = machine.I2C(
            pins.I2C_BUS, sda=machine.Pin(pins.I2C_SDA), scl=machine.Pin(pins.I2C_SCL), freq=pins.I2C_FREQ
        )
        self.i2c = i2c
        self.panel = _panel(i2c)
        self.display = Display(self.panel)
        self._last = time.ticks_ms()
        self._ms = 0
        self._given = 0  # the last ms() handed out
        # Keypad: rows open-drain (released = high through the column pull-ups), columns in.
        # Scanned by a PIO state machine where the wiring allows it, the buttons by another
        # (boards/keypad.py): they go on while the CPU stalls for the flash, and ms() and
        # scan() then hand out each change they saw at its own time, oldest first. Else the
        # CPU scans.
        rows, cols = pins.KEYPAD_ROWS, pins.KEYPAD_COLS
        gpios = [g for _, g in pins.BUTTONS]
        self.keypad = None
        self.rows = ()  # type: tuple
        self.cols = tuple(machine.Pin(g, machine.Pin.IN, machine.Pin.PULL_UP) for g in cols)
        self.buttons = tuple(
            (code(name), machine.Pin(g, machine.Pin.IN, machine.Pin.PULL_UP)) for name, g in pins.BUTTONS
        )
        pad = Keypad is not None and _consecutive(rows, 4) and _consecutive(cols, 4)
        btn = Keypad is not None and _consecutive(gpios, 6)
        if pad or btn:
            self.keypad = Keypad(
                rows if pad else (),
                cols,
                machine.Pin(min(rows)) if pad else None,
                self.cols[cols.index(min(cols))] if pad else None,
                self._ms,
                tuple((code(name), g) for name, g in pins.BUTTONS) if btn else (),
                self.buttons[gpios.index(min(gpios))][1] if btn else None,
            )
        if not pad:
            self.rows = tuple(machine.Pin(g, machine.Pin.OPEN_DRAIN, value=1) for g in rows)
        if btn:
            self.buttons = ()  # the PIO reads them
        # On a W, ADC(3) would take GP29 from the wireless chip: made at each reading there.
        self.adc = None if self.wireless else machine.ADC(3)
        if self.wireless:
            self.vbus = machine.Pin("WL_GPIO2", machine.Pin.IN)
        else:
            self.vbus = machine.Pin(pins.VBUS_GPIO, machine.Pin.IN)
        self.piezo = None
        if pins.PIEZO is not None:
            self.piezo = machine.PWM(machine.Pin(pins.PIEZO), freq=2000, duty_u16=0)
        self._quiet_at = 0  # ms() when the tone sounding ends; 0: silent
        self._usb = None
        self._usb_at = self._last

    # --- the contract (boards/base.py) -------------------------------------------------------
    def ms(self):
        """The clock, or while the PIO's keypad has changes not handed out yet the time of
        the oldest (the one scan() hands out next): after a stall the debouncer sees each
        key at the time it was pressed. Never less than the time handed out before."""
        # now: the ticks, then the box's ms (ints both on the Pico; the stubs type ticks apart).
        now = time.ticks_ms()
        self._ms += time.ticks_diff(now, self._last)
        self._last = now
        now = self._ms  # type: ignore[assignment]
        kp = self.keypad
        if kp is not None:
            kp.read(now)
            if kp.log:
                now = kp.log[0][1]
        if now < self._given:  # type: ignore[operator]
            now = self._given  # type: ignore[assignment]
        self._given = now  # type: ignore[assignment]
        return now

    def scan(self):
        """The first key found down: the keypad row by row, then the buttons (the PIO's key,
        keypad before buttons, comes between: one of the two sets is its)."""
        kp = self.keypad
        if kp is not None and kp.log:
            kp.key = kp.log.pop(0)[0]
        cols = self.cols
        k = 0
        for r in self.rows:
            r.value(0)
            time.sleep_us(3)  # let the membrane's lines settle
            for c in cols:
                if not c.value():
                    r.value(1)
                    return k
                k += 1
            r.value(1)
        if kp is not None and kp.key != NONE:
            return kp.key
        for key, pin in self.buttons:
            if not pin.value():
                return key
        return NONE

    def battery_mv(self):
        adc = self.adc
        if adc is None:  # Pico W: deselect the wireless chip (CS high), borrow GP29
            machine.Pin(25, machine.Pin.OUT, value=1)
            machine.Pin(pins.BATTERY_GPIO, machine.Pin.IN)
            adc = machine.ADC(3)
        total = 0
        for _ in range(_SAMPLES):
            total += adc.read_u16()
        if self.adc is None:  # GP29 back to the wireless SPI clock (function 7), CS left high
            machine.Pin(pins.BATTERY_GPIO, machine.Pin.ALT, machine.Pin.PULL_DOWN, alt=7)
        return total * ADC_REF_MV * pins.BATTERY_DIVIDER // (65535 * _SAMPLES)

    def unique_id(self):
        return machine.unique_id()

    def set_clock(self, epoch):
        t = time.gmtime(epoch)  # year, month, day, hour, minute, second, weekday, yearday
        machine.RTC().datetime((t[0], t[1], t[2], t[6], t[3], t[4], t[5], 0))

    def usb_powered(self):
        """VBUS present (a PC or a charger on the USB socket). Read at most once a second:
        on a W it is a question to the wireless chip over its SPI bus."""
        now = time.ticks_ms()
        if self._usb is None or time.ticks_diff(now, self._usb_at) >= 1000:
            self._usb = bool(self.vbus.value())
            self._usb_at = now
        return self._usb

    def sleep_ms(self, ms):
        """The app loop's pause between key samples. On battery: lightsleep (about 1 mA
        instead of 20), at least _LIGHTSLEEP_MS, still well under a key press (docs/power.md).
        While a tone sounds: time.sleep_ms, as lightsleep stops the clock of the PWM too; the
        tone ends in the first pause past its length."""
        if self._quiet_at:
            time.sleep_ms(ms)
            self._quiet()
        elif self.usb_powered():
            time.sleep_ms(ms)
        else:
            machine.lightsleep(ms if ms > _LIGHTSLEEP_MS else _LIGHTSLEEP_MS)

    def deepsleep(self):
        """At EMPTY (box/app.py power_off; the panel already off): the piezo silent, the
        keypad's rows held low so that a key pulls its column down, and on an RP2040 a
        falling edge on a column or button, or VBUS rising, armed as the DORMANT wake; then
        machine.deepsleep(): about 0.9 mA at 5 V in instead of 20 (docs/power.md). It never
        returns: the wake is a reset, the box boots and resumes the open match. On a Pico 2
        (RP2350, other registers) or a Pico W (VBUS on the wireless chip) fewer wakes are
        armed: none on the Pico 2, where it sleeps until switched off and on."""
        if self.piezo is not None:
            self.piezo.duty_u16(0)
        pin = machine.Pin
        wakes = ()  # type: tuple
        if _is_rp2040():
            wakes = tuple((g, _EDGE_LOW) for g in pins.KEYPAD_COLS) + tuple((g, _EDGE_LOW) for _, g in pins.BUTTONS)
            if not self.wireless:
                wakes += ((pins.VBUS_GPIO, _EDGE_HIGH),)
        for g in pins.KEYPAD_ROWS:  # from the PIO or the scan to the CPU, driven low
            pin(g, pin.OPEN_DRAIN, value=0)
        mem = machine.mem32
        for g, edge in wakes:
            r = 4 * (g >> 3)
            bits = edge << 4 * (g & 7)
            mem[_IO_BANK0 + _INTR0 + r] = bits  # a stale edge cleared
            mem[_IO_BANK0 + _SET + _DORMANT_WAKE_INTE0 + r] = bits
        machine.deepsleep()

    def beep(self, freq, ms):
        """The tone starts now and the key loop goes on: sleep_ms ends it (a tone that blocked
        would hold the keys, the screen and the USB link for its whole length)."""
        p = self.piezo
        if p is not None:
            p.freq(freq)
            p.duty_u16(_HALF)
            self._quiet_at = self.ms() + ms

    def _quiet(self):
        p = self.piezo
        if p is not None and self.ms() >= self._quiet_at:
            p.duty_u16(0)
            self._quiet_at = 0
