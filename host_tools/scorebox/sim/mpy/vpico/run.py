"""Run the firmware on the virtual Pico: `micropython host_tools/scorebox/sim/mpy/vpico/run.py [options]`.

    --keys FILE     play a key script (vpico/drive.py), then exit
    --interactive   read commands from stdin: `k NAME [HOLD_MS]`, `t MS` (time passes), `q`
    --frames FILE   write every frame to FILE ("-": stdout) as `F <hex of 1024 bytes> <on> <contrast>`
    --flash FILE    the box's flash (LittleFS2, 1408 KiB) kept in this host file (made if absent)
    --roster-file FILE  archer names for the roster (first boot): a JSON list, as `scorebox sim` writes it
    --roster NAMES  the same, comma-separated: a few only (the unix port's argument holds about 250 characters)
Names the box would not take are refused (box/link.py name_ok, the box's own test): one line, exit 2.
Beside the frames, on stdout: `R N` when the box already had N archers (--roster is then not
used), and at a clean end `K FIRST LAST OPEN WAITING`: the first match number this run keyed
(the one it resumed, or the next), the newest on the box (0: none), the one in progress (0:
none) and how many finished ones wait for the PC.
This is what `scorebox sim` runs; frames are turned into PNGs or terminal pictures on the PC.
"""

import binascii
import gc
import json
import sys

HEX_PIECE = 64  # frame bytes written at a time


def _arg(argv, name, default=None):
    if name in argv:
        i = argv.index(name)
        if i + 1 < len(argv):
            return argv[i + 1]
    return default


class FrameOut:
    def __init__(self, path):
        self.f = None
        if path == "-":
            self.f = sys.stdout
        elif path:
            self.f = open(path, "w")

    def __call__(self, panel):
        if self.f:
            self.f.write("F ")
            ram = panel.ram
            for i in range(0, len(ram), HEX_PIECE):
                # in pieces: a 2 KB string per frame finds no room in a heap long in use
                self.f.write(binascii.hexlify(ram[i : i + HEX_PIECE]).decode())
            self.f.write(" %d %d\n" % (1 if panel.on else 0, panel.level))
            if self.f is sys.stdout:
                try:
                    self.f.flush()
                except AttributeError:
                    pass

    def close(self):
        if self.f and self.f is not sys.stdout:
            self.f.close()


def roster(argv):
    """The names of --roster-file or --roster (None when neither), each checked as the box
    checks what sync sends it; ValueError says why it would refuse them."""
    path = _arg(argv, "--roster-file")
    if path:
        with open(path) as f:
            names = json.load(f)
        if not isinstance(names, list):
            raise ValueError("%s is not a JSON list of names" % path)
    else:
        text = _arg(argv, "--roster")
        if not text:
            return None
        names = [n.strip() for n in text.split(",") if n.strip()]
    before = list(sys.modules)
    from box.link import NAME_MAX, name_ok
    from box.store import ROSTER_MAX

    try:
        got = []
        for name in names:
            if not isinstance(name, str) or not name_ok(name):
                raise ValueError(
                    "%r is not a name the box takes (1-%d printable ASCII characters, not A, B or -)" % (name, NAME_MAX)
                )
            if name not in got:
                got.append(name)
        if len(got) > ROSTER_MAX:
            raise ValueError("%d names: the box keeps %d at most" % (len(got), ROSTER_MAX))
    finally:
        _unload(before)  # a box loads its sync link only when a PC speaks: so does this one
    return got


def _unload(keep):
    for name in list(sys.modules):
        if name not in keep:
            del sys.modules[name]
            pkg, _, leaf = name.rpartition(".")
            p = sys.modules.get(pkg)
            if p is not None and leaf in p.__dict__:
                delattr(p, leaf)
    gc.collect()


def first_roster(b, names):
    """A new box's roster; a box that has one keeps it: returns how many names it has (0: given)."""
    from box.store import Store

    st = Store(b.root)
    had = len(st.roster())
    if not had:
        st.set_roster(names)
    return had


def main(argv):
    from vpico import board as vboard
    from vpico.drive import Driver
    from vpico.keyscript import ScriptError, play

    path = _arg(argv, "--flash")
    if not path:
        print("error: --flash FILE is needed (the flash lives in a host file, not in the heap)")
        return 2
    try:
        names = roster(argv)  # before the flash is touched: a refused roster changes nothing
    except (ValueError, OSError) as e:
        print("error: roster: %s" % e)
        return 2
    b = vboard.Board(path=path)
    if names:
        had = first_roster(b, names)
        if had:
            print("R %d" % had)
        names = None  # the box reads its roster from flash: no copy held on the heap beside it
        gc.collect()
    from box.app import App

    out = FrameOut(_arg(argv, "--frames"))
    app = App(b)
    j = app.journal
    o = j.open_match()
    first = o[0] if o else j.last() + 1  # a resumed match counts as keyed in this run
    o = None  # its copy of the events: not held on the heap through the run
    drv = Driver(app, b, out)
    keys = _arg(argv, "--keys")
    rc = 0
    if keys:
        try:
            play(keys, drv)
        except ScriptError as e:
            print("error: %s: %s" % (keys, e))
            rc = 2
    if "--interactive" in argv:
        from box.keys import code

        while True:
            line = sys.stdin.readline()
            if not line:
                break
            parts = line.split()
            if not parts:
                continue
            if parts[0] == "q":
                break
            if parts[0] == "t" and len(parts) > 1:
                drv.advance(int(parts[1]))
            elif parts[0] == "k" and len(parts) > 1:
                k = code(parts[1])
                if k >= 0:
                    drv.press(k, int(parts[2]) if len(parts) > 2 else 80)
            sys.stdout.write("ok\n")
    out.close()
    if rc == 0:
        o = j.open_match()
        n = o[0] if o else 0
        print("K %d %d %d %d" % (first, j.last(), n, j.space()["unacked"] - (1 if n else 0)))
    vboard.unmount(b.root)
    b.bdev.close()
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
