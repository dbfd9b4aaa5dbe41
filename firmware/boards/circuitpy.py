"""The Raspberry Pi Pico on CircuitPython (docs/circuitpython.md): the binding beside
boards/pico.py, the only module that imports CircuitPython's hardware modules. Every pin comes
from pins.py, as there.

It is a boards.base.Board: the display is an SSD1306 or SH1106 on I2C through displayio and
Adafruit's drivers (adafruit_displayio_ssd1306, adafruit_displayio_sh1106 in /lib; an SSD1309
takes the SSD1306's, as the panels share its commands but the charge pump's), the keys are
scanned in C by keypad.KeyMatrix and keypad.Keys, battery_mv() reads VSYS through analogio,
usb_powered() reads VBUS. The app draws on box/display.py's FrameBuffer (framebuf.py in /lib:
CircuitPython has none), and the panel here puts each run of page bytes it sends into a
displayio Bitmap and refreshes: displayio sends the panel what changed.
"""

import time

import analogio
import busio
import digitalio
import displayio
import i2cdisplaybus
import keypad
import microcontroller
import pins
import supervisor

from boards.base import Board as Base
from box.display import WIDTH, Display
from box.keys import NONE, code

_SAMPLES = 8  # ADC readings averaged per battery_mv(), as boards/pico.py
_ADC_REF_MV = 3266  # the ADC's reference, 3.3 V less its known offset: boards/pico.py's ADC_REF_MV
_HALF = 32768  # PWM duty for a tone: a square wave
_SCAN_S = 0.005  # keypad's scan interval: a key is seen within 5 ms (boards/pico.py's PIO: 1 ms)
_WRAP = 1 << 29  # supervisor.ticks_ms() counts modulo 2**29
_HALF_WRAP = 1 << 28


def _pin(gpio):
    return getattr(microcontroller.pin, "GPIO%d" % gpio)


def _driver(bus):
    """displayio's driver for pins.DISPLAY, at 180 degrees for pins.DISPLAY_FLIP."""
    turn = 180 if pins.DISPLAY_FLIP else 0
    if pins.DISPLAY == "SH1106":
        from adafruit_displayio_sh1106 import SH1106

        # 128 of the SH1106's 132 columns, from column 2 (as the MicroPython driver's offset)
        return SH1106(bus, width=WIDTH, height=64, colstart=2, rotation=turn, auto_refresh=False)
    from adafruit_displayio_ssd1306 import SSD1306

    return SSD1306(bus, width=WIDTH, height=64, rotation=turn, auto_refresh=False)


class Panel:
    """box/display.py's panel on a displayio display. The frame is a 1-bit Bitmap shown
    transposed and flipped (a TileGrid's transpose_xy and flip_x): each of its rows of 64 bits
    is then one column of the screen, and a page's byte (MONO_VLSB: the top pixel in bit 0)
    is one byte of that row as it is, the row's 8 bytes holding pages 7 to 0. write() puts the
    bytes there through the Bitmap's buffer, marks them dirty and refreshes."""

    def __init__(self, display):
        self.display = display
        self.bitmap = displayio.Bitmap(64, WIDTH, 2)
        self.mem = memoryview(self.bitmap)
        palette = displayio.Palette(2)
        palette[1] = 0xFFFFFF
        grid = displayio.TileGrid(self.bitmap, pixel_shader=palette)
        grid.transpose_xy = True
        grid.flip_x = True
        group = displayio.Group()
        group.append(grid)
        display.root_group = group

    def write(self, page, col, data):
        mem = self.mem
        i = col * 8 + 7 - page
        for b in data:
            mem[i] = b
            i += 8
        # the Bitmap's own coordinates: x is the screen's y, y the screen's x
        self.bitmap.dirty(56 - 8 * page, col, 64 - 8 * page, col + len(data))
        self.display.refresh()

    def contrast(self, value):
        self.display.brightness = min(1.0, (value + 0.5) / 255)  # the driver sends brightness * 255

    def power(self, on):
        # Display on or off (its RAM kept), the command every panel here shares, sent on the
        # bus here: adafruit_displayio_sh1106 2.0.4's sleep() and wake() hand the bus a list,
        # which CircuitPython 10's send() refuses ("object with buffer protocol required").
        self.display.bus.send(0xAF if on else 0xAE, b"")


class Board(Base):
    def __init__(self):
        self.root = "/"
        self.layout = pins.LAYOUT
        self.battery_type = pins.BATTERY
        self.press_ms = getattr(pins, "KEY_PRESS_MS", 0)
        displayio.release_displays()  # the console's, if CircuitPython made one
        i2c = busio.I2C(_pin(pins.I2C_SCL), _pin(pins.I2C_SDA), frequency=pins.I2C_FREQ)
        bus = i2cdisplaybus.I2CDisplayBus(i2c, device_address=pins.DISPLAY_ADDR)
        self.panel = Panel(_driver(bus))
        self.display = Display(self.panel)
        # The keys: scanned in C every _SCAN_S, their changes queued with their times. ms()
        # and scan() hand out each change at its own time, oldest first (as boards/pico.py
        # does with its PIO's), so a key pressed and let go while Python was busy is seen.
        self.pad = None
        if pins.KEYPAD_ROWS:
            self.pad = keypad.KeyMatrix(
                tuple(_pin(g) for g in pins.KEYPAD_ROWS),
                tuple(_pin(g) for g in pins.KEYPAD_COLS),
                columns_to_anodes=True,  # rows driven low, columns pulled up (pins.py)
                interval=_SCAN_S,
            )
        self.buttons = None
        self.button_codes = tuple(code(name) for name, _ in pins.BUTTONS)
        if pins.BUTTONS:
            self.buttons = keypad.Keys(
                tuple(_pin(g) for _, g in pins.BUTTONS), value_when_pressed=False, pull=True, interval=_SCAN_S
            )
        self.event = keypad.Event()
        self.pad_down = []  # key numbers held, in the order pressed
        self.buttons_down = []
        self.log = []  # [(key scan() gives after the change, box ms of it)], oldest first
        self.key = NONE
        self._last = supervisor.ticks_ms()
        self._ms = 0
        self._given = 0  # the last ms() handed out
        self.adc = analogio.AnalogIn(_pin(pins.BATTERY_GPIO))
        self.vbus = digitalio.DigitalInOut(_pin(pins.VBUS_GPIO))
        self.piezo = None
        if pins.PIEZO is not None:
            import pwmio

            self.piezo = pwmio.PWMOut(_pin(pins.PIEZO), frequency=2000, duty_cycle=0, variable_frequency=True)
        self._quiet_at = 0  # ms() when the tone sounding ends; 0: silent

    def _box_ms(self, ticks):
        """ticks (supervisor.ticks_ms(), near the last read) on the box's clock."""
        return self._ms + (ticks - self._last + _HALF_WRAP) % _WRAP - _HALF_WRAP

    def _held(self):
        """The key scan() gives: the first keypad key held (the lowest, as a scan row by row
        finds it), else the first button."""
        if self.pad_down:
            return min(self.pad_down)
        if self.buttons_down:
            return self.button_codes[min(self.buttons_down)]
        return NONE

    def _drain(self):
        """The changes the scanners queued, into the log with their times."""
        ev = self.event
        for keys, down in ((self.pad, self.pad_down), (self.buttons, self.buttons_down)):
            if keys is None:
                continue
            while keys.events.get_into(ev):
                n = ev.key_number
                if ev.pressed:
                    if n not in down:
                        down.append(n)
                elif n in down:
                    down.remove(n)
                self.log.append((self._held(), self._box_ms(ev.timestamp)))

    # --- the contract (boards/base.py) -------------------------------------------------------
    def ms(self):
        """The clock, or while key changes wait to be handed out the time of the oldest (the
        one scan() hands out next). Never less than the time handed out before."""
        now = supervisor.ticks_ms()
        self._ms += (now - self._last) % _WRAP
        self._last = now
        self._drain()
        t = self.log[0][1] if self.log else self._ms
        if t < self._given:
            t = self._given
        self._given = t
        return t

    def scan(self):
        if self.log:
            self.key = self.log.pop(0)[0]
        return self.key

    def battery_mv(self):
        total = 0
        for _ in range(_SAMPLES):
            total += self.adc.value
        return total * _ADC_REF_MV * pins.BATTERY_DIVIDER // (65535 * _SAMPLES)

    def unique_id(self):
        return bytes(microcontroller.cpu.uid)

    def set_clock(self, epoch):
        import rtc  # at the first sync, not at boot: the heap is tightest then

        rtc.RTC().datetime = time.localtime(epoch)

    def usb_powered(self):
        return self.vbus.value

    def sync_port(self):
        """usb_cdc.data, where boot.py enabled it (boards/cpport.py); else the console's."""
        from boards.cpport import data_port

        return data_port()

    def sleep_ms(self, ms):
        """The app loop's pause: time.sleep, which idles the CPU until the next tick (the key
        scan goes on in C); a tone ends in the first pause past its length."""
        time.sleep(ms / 1000)
        if self._quiet_at:
            self._quiet()

    def beep(self, freq, ms):
        p = self.piezo
        if p is not None:
            p.frequency = freq
            p.duty_cycle = _HALF
            self._quiet_at = self.ms() + ms

    def _quiet(self):
        p = self.piezo
        if p is not None and self.ms() >= self._quiet_at:
            p.duty_cycle = 0
            self._quiet_at = 0
