"""What box/usbport.py's Port costs per byte and per write (issue 22 item 6), run by
micropython with stdin a pipe holding the bytes (tests/both/test_sync_port_costs.py): reads
what is waiting with the collector off and reports on stdout the bytes read and the heap
they took, then writes through a stdout without flush (as the Pico's stdout.buffer) and
reports how often flush was looked up."""

import path_setup  # noqa: F401  (sys.path, so that the script runs alone)

# isort: split

import gc
import sys

from box.usbport import Port


class NoFlush:
    """A stdout with write only; counts the lookups of what it lacks."""

    def __init__(self):
        self.looked = []

    def write(self, data):
        return len(data)

    def __getattr__(self, name):
        self.looked.append(name)
        raise AttributeError(name)


out = NoFlush()
port = Port(sys.stdin, out)
gc.collect()
gc.disable()
before = gc.mem_alloc()
got = port.read_ready()
took = gc.mem_alloc() - before
gc.enable()
for _ in range(100):
    port.write(b"x" * 64)
print("READ", len(got), took)
print("FLUSH", out.looked.count("flush"))
