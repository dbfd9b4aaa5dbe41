"""CPU time of one idle turn of the box's main loop on the unix port (bench_power.py).

One turn is what firmware/main.py does between two sleeps when no key is down and the PC
says nothing: App.poll() (scan, debounce, idle bookkeeping, the battery check when due)
and Sync.poll() (a poll of the USB input; the link itself loads on the PC's first byte). Prints one JSON line.
"""

import json
import sys
import time

from box import device
from box.app import App
from box.usbport import Sync
from vpico.board import Board


def main(path):
    b = Board(path=path)
    app = App(b)
    sync = Sync(app, device.Info(b, device.Clock()))
    n = 20000
    t0 = time.ticks_us()
    for _ in range(n):
        b.clock.now += 5
        app.poll()
        sync.poll()
    loop = time.ticks_diff(time.ticks_us(), t0) / n
    print(json.dumps({"idle_loop_us": loop}))


main(sys.argv[1])
