"""The box of the app scripts: the real App on the virtual Pico's board over a flash file,
powered off and on again by boot(), keyed by keys("5 A #") (NAME~MS: held MS ms, as in key
scripts, docs/keys.md)."""

import gc

from box.app import App
from box.keys import code
from vpico.board import Board, unmount
from vpico.drive import HOLD_MS, Driver


class FlashBox:
    def __init__(self, path, layout="keypad"):
        self.path = path
        self.layout = layout
        self.app = self.b = self.d = None
        self.boot()

    def boot(self):
        """Power on (again): a new mount of the same flash, a new App (the old one let go first)."""
        self.app = self.b = self.d = None
        gc.collect()
        unmount("/flash")
        self.b = Board(path=self.path, layout=self.layout)
        self.app = App(self.b, strict=True)
        self.d = Driver(self.app, self.b)

    def keys(self, s):
        for ch in s.split():
            name, _, ms = ch.partition("~")
            self.d.press(code(name), int(ms) if ms else HOLD_MS)
