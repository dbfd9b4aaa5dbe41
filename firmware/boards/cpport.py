"""The sync link's port on CircuitPython: its second USB serial port, usb_cdc.data, which
boot.py enables (`usb_cdc.enable(console=True, data=True)`, docs/circuitpython.md). The
console stays CircuitPython's REPL and its prints; the PC finds the box by this port's USB
interface (scorebox/device/link.py). It has box/usbport.py's Port's members, for
box/link.py: read_ready(), write(), poller and closed."""

import select

import usb_cdc


class DataPort:
    def __init__(self, serial):
        self.serial = serial
        serial.timeout = 0  # read() returns what is there, never waits
        serial.write_timeout = None  # write() waits until all is queued: a reply goes whole
        self.poller = select.poll()
        self.poller.register(serial, select.POLLIN)
        self.closed = False  # a USB port never ends: the PC may open it again

    def read_ready(self, limit=4096):
        """Bytes waiting now (up to limit); b"" when none. usb_cdc.Serial counts them
        (in_waiting), so they are read at once, not a byte a call as the console's are."""
        n = self.serial.in_waiting
        if not n:
            return b""
        return self.serial.read(min(n, limit))

    def write(self, data):
        self.serial.write(data)


def data_port():
    """usb_cdc.data's DataPort, or None when boot.py did not enable it (the box then syncs
    over the console, as on MicroPython)."""
    return DataPort(usb_cdc.data) if usb_cdc.data else None
