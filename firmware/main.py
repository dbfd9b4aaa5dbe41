"""Boot entry on the Pico: build the board, run the app and the USB sync link.

On a Pico (Pico W, Pico 2: `sys.platform == "rp2"`) the board is boards/pico.py, with the
pins of pins.py. Elsewhere, as on the unix port, the virtual board stands in, so
`micropython firmware/main.py` runs the box with no keys. (The test is the platform, not
whether `machine` imports: the unix port has a `machine` module too, without Pin or I2C.)
The simulator with keys and frames is `scorebox sim` (firmware/vpico/run.py); the virtual
Pico that runs what `scorebox deploy` put on its flash is firmware/vpico/flashboot.py.

Between key samples the box answers the PC on the USB serial port (box/usbport.py, box/link.py): that is
how `scorebox sync` and `scorebox deploy` talk to it. A Ctrl-C from the PC (mpremote,
Thonny) stops the app and leaves the REPL.
"""

import sys
import time

PERIOD_MS = 5  # key sampling period; on battery the board's sleep_ms lightsleeps longer


def board():
    if sys.platform == "rp2":
        from boards.pico import Board  # the real hardware

        return Board()
    from vpico.board import Board as VBoard  # the virtual Pico

    return VBoard(path="flash.img")


def main(b=None):
    from box import device
    from box.app import App
    from box.usbport import Sync

    if b is None:
        b = board()
    app = App(b)
    clock = device.Clock()
    sync = Sync(app, device.Info(b, clock), clock.set)

    def serve():
        if sync.poll():
            app.refresh_space()

    try:
        app.run(getattr(b, "sleep_ms", time.sleep_ms), PERIOD_MS, serve)
    except KeyboardInterrupt:
        pass  # to the REPL, with the journal flushed (every record is, when written)


if __name__ == "__main__":
    main()
