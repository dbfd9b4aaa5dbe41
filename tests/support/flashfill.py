"""Matches appended to a virtual Pico's flash image by the box's own journal writer
(box/journal.py on MicroPython), as the box writes them: for the sync tests that need a box
of both games, one match left open, or matches added while the box is off."""

import json
import os

from matchgen import box_matches
from mpy import run
from ttt_history import full_game, ttt_header

from scorebox.sim.run import FLASH_SIZE

# Appends matches to a virtual Pico's flash image the way the box does (header, events,
# result, both confirmations), each replayed with its own game's rules; one marked "open"
# is left open after its events. A blank image is formatted first. MicroPython, alone.
FILL = """
import json, sys
from box.journal import Journal
from scorebox_core.match import from_header, game_of, result
from scorebox_core.games.ttb.rules import Match
from scorebox_core.games.ttt.rules import Game
from vpico import board as vboard
from vpico.blockdev import RamBlockDev

flash, src = sys.argv[1], sys.argv[2]
with open(flash, "rb") as f:
    image = bytearray(f.read())
bdev = RamBlockDev(blocks=len(image) // 4096, block_size=4096, data=image)
b = vboard.Board(bdev=bdev)
j = Journal(b.root)
j.recover()
with open(src) as f:
    todo = json.load(f)
for m in todo:
    h = m["header"]
    opts, archers, _ = from_header(h)
    g = (Game if game_of(h) == Game.GAME else Match)(opts, archers)
    j.start_match(h)
    for ev in m["events"]:
        g.apply(ev)
        j.append(ev)
    if m.get("open"):
        break
    j.finish(result(g))
    j.confirm(0)
    j.confirm(1)
j.close()
vboard.unmount(b.root)
with open(flash, "wb") as f:
    f.write(bdev.data)
print(len(todo))
"""


def write(folder, flash, todo):
    """Append todo ([{"header", "events", "open"?}], a match's header and events as the box
    journals them) to the flash image, made blank if missing; folder: for the script."""
    if not os.path.exists(flash):
        with open(flash, "wb") as f:
            f.write(b"\xff" * FLASH_SIZE)  # erased flash: formatted by the board, as a new Pico's
    script, src = folder / "fill_both.py", folder / "todo.json"
    script.write_text(FILL)
    src.write_text(json.dumps(todo))
    p = run([str(script), flash, str(src)], heapsize="8m", timeout=300)
    assert p.returncode == 0, p.stderr[-2000:]


def matches(game, count, seed):
    """count finished matches of game ("ttb" or "ttt") as the box journals them."""
    if game == "ttb":
        return box_matches(count, seed)
    out = []
    for i in range(count):
        g = full_game(seed * 10 + i, (("Ann",), ("Bo",)))
        out.append({"header": ttt_header(g, 1790100000 + seed * 10 + i), "events": list(g.log)})
    return out
