"""Run the firmware on the virtual Pico: `micropython host_tools/scorebox/sim/mpy/vpico/run.py [options]`.

    --keys FILE     play a key script (vpico/drive.py), then exit
    --interactive   read commands from stdin: `k NAME [HOLD_MS]`, `t MS` (time passes), `q`
    --frames FILE   write every frame to FILE ("-": stdout) as `F <hex of 1024 bytes> <on> <contrast>`
    --flash FILE    the box's flash (LittleFS2, 1408 KiB) kept in this host file (made if absent)
    --roster NAMES  comma-separated archer names for the roster (first boot)
This is what `scorebox sim` runs; frames are turned into PNGs or terminal pictures on the PC.
"""

import binascii
import sys


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
            self.f.write(binascii.hexlify(panel.ram).decode())
            self.f.write(" %d %d\n" % (1 if panel.on else 0, panel.level))
            if self.f is sys.stdout:
                try:
                    self.f.flush()
                except AttributeError:
                    pass

    def close(self):
        if self.f and self.f is not sys.stdout:
            self.f.close()


def main(argv):
    from vpico import board as vboard
    from vpico.drive import Driver
    from vpico.keyscript import ScriptError, parse

    path = _arg(argv, "--flash")
    if not path:
        print("error: --flash FILE is needed (the flash lives in a host file, not in the heap)")
        return 2
    b = vboard.Board(path=path)
    roster = _arg(argv, "--roster")
    if roster:
        from box.store import Store

        st = Store(b.root)
        if not st.roster():
            st.set_roster(roster.split(","))
    from box.app import App

    out = FrameOut(_arg(argv, "--frames"))
    app = App(b)
    drv = Driver(app, b, out)
    keys = _arg(argv, "--keys")
    rc = 0
    if keys:
        with open(keys) as f:
            text = f.read()
        try:
            drv.play(parse(text))
        except ScriptError as e:
            print("error:", e)
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
    vboard.unmount(b.root)
    b.bdev.close()
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
