"""The board contract: everything the app asks of the hardware, written once.

The app (box/app.py, its screens, box/device.py, main.py) reaches the hardware only through
a board. boards/pico.py is the Raspberry Pi Pico's; host_tools/scorebox/sim/mpy/vpico/board.py
is its twin for the simulator and the tests. Both subclass Board, so the app uses every member
plainly: where a part is not fitted, the default below stands for it.

Set by the subclass (no default):
    display       a box.display.Display over the panel
    root          the folder on the flash file system where the box keeps its files
and overridden by it: ms(), scan(), battery_mv().
"""

import time


class Board:
    layout = "keypad"  # the keys fitted, for the help lines: "keypad" (4x4) or "buttons" (six)
    battery_type = "3xAA"  # "3xAA" or "lipo": the thresholds of the battery watch (docs/power.md)
    press_ms = 0  # how long a key must read down to count: 0, at its first edge (box/keys.py)

    def ms(self):
        """A monotonic clock in ms (it never wraps)."""
        raise NotImplementedError

    def scan(self):
        """The key held down now (a key code from box.keys) or keys.NONE."""
        raise NotImplementedError

    def battery_mv(self):
        """The battery voltage on VSYS in mV."""
        raise NotImplementedError

    def usb_powered(self):
        """Power present on the USB socket: the battery is then not judged. Default: no sense
        wire, never."""
        return False

    def sync_port(self):
        """The port the sync link talks on (box/usbport.py's Port's members), or None for the
        console's (stdin/stdout): CircuitPython's is usb_cdc.data (boards/cpport.py)."""
        return None

    def unique_id(self):
        """The chip's unique id (bytes), or None where there is none (the box's id is then
        "v-...": box/device.py)."""
        return None

    def set_clock(self, epoch):
        """Set the chip's own clock to epoch (seconds since 1970, UTC), so that time.time() gives
        the date from now to power-off: the journal stamps each match's header with it. Default:
        nothing to set (the virtual Pico's clock is the PC's own)."""

    def sleep_ms(self, ms):
        """The app loop's pause between key samples (main.py)."""
        time.sleep_ms(ms)

    def deepsleep(self):
        """The box at EMPTY (box/app.py), its journal closed and its panel off: sleep as deep
        as the board can, to draw the least until the archer switches it off, and wake on a
        key where the board can. The Pico's never returns (a key wakes it as from a reset:
        boards/pico.py); this default, for a board without, returns at once, and the app
        stays halted with its panel off."""

    def beep(self, freq, ms):
        """Start a tone of freq Hz lasting ms; returns at once (the key loop goes on and the
        board ends the tone in a later sleep_ms). Default: no piezo fitted, silent."""
