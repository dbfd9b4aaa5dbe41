"""The Sync page's sync (`scorebox sync [--sim]`), run in a process of its own: the server
has threads, and sync forks its replay worker (sync/workers.py), which must not happen while
other threads may hold locks; the server stays quick meanwhile. The process tells the page
its progress and its end through a pipe."""

import multiprocessing
import threading

from scorebox.errors import ScoreboxError
from scorebox.text import plural


class Bar:
    """summary.Progress's stream: its "done/total matches" sent to the page, not drawn."""

    def __init__(self, conn):
        self.conn = conn

    def isatty(self):
        return True

    def write(self, text):
        done, _, total = text.rpartition("] ")[2].partition(" ")[0].partition("/")
        if done.isdigit() and total.isdigit():
            self.conn.send(("progress", (int(done), int(total))))

    def flush(self):
        pass


def facts(got):
    """What the Sync page says of the box after a sync (a summary.Summary): words, not codes."""
    from scorebox.device import doctor, space

    return {
        "device": got.device,
        "firmware": got.firmware,
        "new": len(got.new),
        "space": space.text(got.space) if got.space else None,
        "battery": None if got.battery_mv is None else doctor.battery_text(got.battery_mv),
        "foreign": got.foreign,  # the id of the store the box belongs to when it is not this one, or None
        "taken_from": got.taken_from,
    }


def ports():
    """[(device, description)] of the PC's serial ports on USB, for the page's port field."""
    from serial.tools import list_ports

    return suggested(list_ports.comports())


def suggested(comports):
    """The ports a box could be on: those with a USB id. A PC's own serial ports (/dev/ttyS0,
    COM1) have none and are never a box; offered, one took 9 s to say no box answered. The
    field still takes any port typed in."""
    return sorted((p.device, port_label(p.description)) for p in comports if p.vid is not None)


def port_label(description):
    """A port's name on the page: pyserial says "n/a" where the system names no device (a
    PC's own /dev/ttyS0), which read as a message: nothing is shown then."""
    return "" if description in (None, "n/a") else description


def run(db, sim, sim_state, conn, take_over=False, port=None):
    """The sync, in the child process: ("done", (lines, facts)) or ("failed", ([why], {}))
    at its end. take_over: `--take-over`, a box of another store made this one's; port:
    the port named on the page (`--port`), else the box is looked for on USB."""
    from scorebox.device import link
    from scorebox.sim import vpico
    from scorebox.store.access import open_store
    from scorebox.sync import pull

    def pull_from(port):
        ser = link.open_port(port)
        s = open_store(db, create=True)
        try:
            got = pull.sync(link.Client(ser), s, progress_stream=Bar(conn), take_over=take_over)
            return got.lines() + ["store: %s" % plural(s.count(), "match", "matches")], facts(got)
        finally:
            s.discard_if_empty()
            ser.close()

    try:
        if sim:
            with vpico.plugged_in(sim_state) as port:
                conn.send(("done", pull_from(port)))
        else:
            conn.send(("done", pull_from(port or link.find_port('under "the box on this port"'))))
    except ScoreboxError as e:
        conn.send(("failed", ([str(e)], {})))
    finally:
        conn.close()


class Job:
    """One sync at a time: start() refuses a second while one runs."""

    def __init__(self):
        self.lock = threading.Lock()
        self.st = {"state": "idle", "lines": [], "facts": {}}

    def running(self):
        return self.lock.locked()

    def start(self, db, sim, sim_state, take_over=False, port=None):
        if not self.lock.acquire(blocking=False):
            return False
        # The box chosen, so that the page offers it again: the next sync is of the same box.
        source = "sim" if sim else "port" if port else "usb"
        self.st = st = {"state": "running", "lines": [], "facts": {}, "source": source, "port": port}
        ours, theirs = multiprocessing.Pipe(duplex=False)
        proc = multiprocessing.get_context("spawn").Process(
            target=run, args=(db, sim, sim_state, theirs, take_over, port), daemon=True
        )
        proc.start()
        theirs.close()
        threading.Thread(target=self._follow, args=(st, ours, proc), daemon=True).start()
        return True

    def _follow(self, st, conn, proc):
        try:
            while True:
                what, value = conn.recv()
                if what == "progress":
                    st["progress"] = value
                else:
                    st["lines"], st["facts"] = value
                    st["state"] = what
                    break
        except EOFError:  # the process ended without a word: a crash, said as such
            st["state"], st["lines"] = "failed", ["the sync stopped (exit %s): nothing more was stored" % proc.exitcode]
        finally:
            conn.close()
            proc.join()
            self.lock.release()
