"""The box's id across reboots and a wiped file system (run by micropython; prints JSON)."""

import path_setup  # noqa: F401  (sys.path, so that the script runs alone)

# isort: split

import json
import os

from box.device import ID_FILE, device_id
from vpico.board import Board


class Chip(Board):
    def unique_id(self):
        return b"\xe6\x61\x38\x52\x83\x1f\x2b\x2c"


b = Chip()
first = device_id(b)
again = device_id(b)  # a reboot: the same file system
os.remove(b.root + "/" + ID_FILE)  # a wiped file system: the journal starts again at match 1
wiped = device_id(b)
print(json.dumps({"first": first, "again": again, "wiped": wiped}))
