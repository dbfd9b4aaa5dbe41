"""The sync link loads on the PC's first byte (run by micropython, stdin and stdout a pipe
to the test): reports on stderr whether box.link is loaded and the heap in use, before and
after the first request."""

import path_setup  # noqa: F401  (sys.path, so that the script runs alone)

# isort: split

import gc
import sys
import time

from box import device
from box.app import App
from box.usbport import Sync
from vpico.board import Board


def state(tag):
    gc.collect()
    sys.stderr.write("%s %d %d\n" % (tag, "box.link" in sys.modules, gc.mem_alloc()))


b = Board(path=sys.argv[1])
app = App(b)
sync = Sync(app, device.Info(b, device.Clock()))
for _ in range(100):  # the box at the range: polled, nobody there
    app.poll()
    sync.poll()
state("IDLE")
while not sync.poll():
    time.sleep_ms(2)
state("SERVED")
