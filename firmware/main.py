"""Boot entry on the Pico: build the board, run the app and the USB sync link.

On a Pico (Pico W, Pico 2: `sys.platform == "rp2"`) the board is boards/pico.py, with the
pins of pins.py; on CircuitPython (which runs main.py where the drive has no code.py) it is
boards/circuitpy.py (docs/circuitpython.md). On any other port this file says that it is the Pico's entry point and
stops: the virtual Pico (`scorebox sim`, host_tools/scorebox/sim/mpy/vpico/) imports it and
calls main(board) with its own board, as the Pico's boot does with the real one.

Between key samples the box answers the PC on the USB serial port (box/usbport.py, box/link.py): that is
how `scorebox sync` and `scorebox deploy` talk to it. A Ctrl-C from the PC (mpremote,
Thonny) stops the app and leaves the REPL.
"""

import sys

# MicroPython looks for an extensible built-in module (os, time, json, array, machine ...) on
# the file system first, at every import of it, and keeps no answer: '' and /lib on sys.path
# are six LittleFS lookups, each reading and CRCing the root directory's metadata, which the
# journal's commits fill (8 ms an import on the emulated Pico with a match kept; the box's
# modules import these in a dozen places at boot). Asked once with an empty sys.path
# (MicroPython's way to force the built-in) and kept in sys.modules, each is found at once.
BUILTINS = ("os", "time", "json", "array", "machine", "select", "binascii")


def _builtins():
    path = sys.path[:]
    sys.path[:] = []
    try:
        for name in BUILTINS:
            try:
                sys.modules[name] = __import__(name)
            except ImportError:
                pass  # not on this port (machine on CircuitPython)
    finally:
        sys.path[:] = path


_builtins()
PERIOD_MS = 5  # key sampling period; on battery the board's sleep_ms lightsleeps longer
QUIET_PERIOD_MS = 20  # while the app is quiet (box/app.py App.quiet): battery's period


def board():
    if sys.implementation.name == "circuitpython":  # the same Pico on CircuitPython
        from boards.circuitpy import Board
    else:
        from boards.pico import Board  # type: ignore[assignment]  # the real hardware

    return Board()


def main(b=None, app=None):
    """Run the box on board b (the Pico's by default) until Ctrl-C, or until the USB input
    ends: a Pico's never does, the virtual Pico's pseudo-terminal does when the PC side goes.
    The virtual Pico passes an app that a key script has already played."""
    from box import device
    from box.app import App
    from box.usbport import Sync

    if b is None:
        b = board()
    if app is None:
        app = App(b)
    clock = device.Clock(b)
    sync = Sync(app, device.Info(b, clock), clock.set)
    served = False
    try:
        while not sync.port.closed:
            app.poll()
            if sync.poll():
                served = True  # and no pause: a sync runs at the link's speed, not the key period's
                continue
            if served:  # the PC paused: the screen's storage figures, if its ACKs changed them
                # served: sync.poll() made the link, and it is never unmade
                sp = sync.link.new_space()  # type: ignore[union-attr]  # (space() walks the file system: once per sync)
                if sp is not None:
                    app.space = sp
                served = False
            if sync.link is not None:
                sync.port.poller.poll(PERIOD_MS)  # a PC is talking: its next request ends the pause
            else:
                b.sleep_ms(QUIET_PERIOD_MS if app.quiet() else PERIOD_MS)
    except KeyboardInterrupt:
        pass  # to the REPL, with the journal flushed (every record is, when written)


if __name__ == "__main__":
    if sys.platform == "rp2" or sys.implementation.name == "circuitpython":  # its sys.platform: RP2040
        main()
    else:
        print("main.py is the Pico's entry point (this is %s): run `scorebox sim` for the virtual Pico" % sys.platform)
