"""Boot entry on the Pico: build the board, run the app (docs/keys.md for the keys).

The Pico binding (the SSD1306/SH1106 panel on I2C, the keypad or buttons, the battery on
ADC3) is `boards/pico.py` (its own issue); where it is absent, as on the unix port, the
virtual board stands in, so `micropython firmware/main.py` runs the box with no keys.
For the simulator with keys and frames: `scorebox sim` (firmware/vpico/run.py).
"""

import time


def board():
    try:
        from boards.pico import Board  # the real hardware
    except ImportError:
        from vpico.board import Board  # the virtual Pico

        return Board(path="flash.img")
    return Board()


def main():
    from box.app import App

    app = App(board())
    app.run(time.sleep_ms)


if __name__ == "__main__":
    main()
