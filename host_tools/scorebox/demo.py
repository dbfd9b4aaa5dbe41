"""`scorebox demo`: the whole story on the virtual Pico, for `make demo`.

A match is keyed in on the box (docs/demo.keys, the real firmware on the MicroPython unix
port), its last screen shown; then the box is plugged in over a pseudo-terminal and
`scorebox sync` brings the match into a fresh store, which `scorebox matches` lists and
`scorebox report` turns into the club's HTML report.
"""

import glob
import os
import sys

from scorebox.device import link
from scorebox.device.firmware import firmware_dir
from scorebox.errors import ScoreboxError
from scorebox.report import html
from scorebox.sim.pictures import half_blocks, write_frames
from scorebox.sim.run import run_script
from scorebox.sim.vpico import VirtualPico
from scorebox.store.access import open_store
from scorebox.sync.commands import cmd_matches
from scorebox.sync.pull import sync

MARK = ".scorebox-demo"  # in every folder the demo makes: a later demo may clear it
OWN = ("box.flash", "box.flash.log", "club.sqlite", "club.sqlite-journal", "report.html", "frames/frame_*.png")


def demo_folder(out):
    """Make out ready for the demo and return it: a new folder, or one an earlier demo made,
    of which only the files the demo writes are removed. Anything else is refused: the demo
    never deletes what it did not create."""
    if os.path.exists(out) and not os.path.isfile(os.path.join(out, MARK)):
        if not os.path.isdir(out) or os.listdir(out):
            raise ScoreboxError("%s exists and was not made by `scorebox demo`: give a new folder with --out" % out)
    for pattern in OWN:
        for path in glob.glob(os.path.join(out, pattern)):
            os.remove(path)
    os.makedirs(out, exist_ok=True)
    open(os.path.join(out, MARK), "w").close()
    return out


def lit_rows(frame, on):
    """The box's last screen as the sim draws it (half blocks, 128 columns), to its last lit
    row: the panel's dark rows below it would print as a run of blank lines."""
    rows = [row.rstrip() for row in half_blocks(frame, on).split("\n")]
    while rows and not rows[-1]:
        rows.pop()
    return "\n".join(rows)


def cmd_demo(args):
    keys = args.keys or os.path.join(os.path.dirname(firmware_dir()), "docs", "demo.keys")
    if not os.path.exists(keys):
        print("scorebox demo: no key script %s: give --keys FILE" % keys, file=sys.stderr)
        return 2
    out = demo_folder(os.path.abspath(args.out))
    flash = os.path.join(out, "box.flash")
    print("== 1. A match keyed in on the box (%s)" % os.path.relpath(keys))
    frames = run_script(keys, state=flash, roster="Ann,Bob,Cat,Dan")
    write_frames(frames, os.path.join(out, "frames"))
    frame, on, _ = frames[-1]
    print(lit_rows(frame, on))
    print("(its last screen; all %d frames, as PNG: %s)" % (len(frames), os.path.relpath(os.path.join(out, "frames"))))
    print()
    print("== 2. The box plugged into the PC: scorebox sync")
    db = os.path.join(out, "club.sqlite")
    vp = VirtualPico(flash)
    try:
        ser = link.open_port(vp.port)
        try:
            client = link.Client(ser, timeout=3.0)
            vp.wait_ready(client)
            s = sync(client, open_store(db, create=True))
        finally:
            ser.close()
    finally:
        vp.close()
    for line in s.lines():
        print(line)
    print()
    print("== 3. The club's store: scorebox matches --db %s" % os.path.relpath(db))
    args.db, args.json = db, False
    cmd_matches(args)
    print()
    path = os.path.join(out, "report.html")
    print("== 4. The club's report: scorebox report --db %s --out %s" % (os.path.relpath(db), os.path.relpath(path)))
    size = html.write(open_store(db), path)
    print("report written: %s (%d KB): open it in a browser" % (path, round(size / 1e3)))
    return 0


def add_parser(sub):
    d = sub.add_parser("demo", help="the whole story on the virtual Pico: key a match, sync it, list it")
    d.add_argument("--out", default="out/demo", help="folder for the box's flash, frames and store (default out/demo)")
    d.add_argument("--keys", help="key script to play (default docs/demo.keys)")
    d.set_defaults(run=cmd_demo)
