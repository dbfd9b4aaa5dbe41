"""The virtual Pico behind a pseudo-terminal, as the PC sees a box on USB (POSIX only).

The firmware runs on the `micropython` command with its stdin/stdout on the pty's master
side (sim/ptybox.py); a "reboot" (kill and start again: a power cycle) keeps the flash
file, as a Pico's flash is kept. A soft reset at its REPL stays in the process, as on a Pico
(sim/mpy/vpico/softreset.py). Used by `scorebox demo`, the sync tests and the sync benchmark, and by
`scorebox sync --sim` (plugged_in).
"""

import contextlib
import functools
import os
import subprocess
import tempfile
import threading
import time

from scorebox.device import link
from scorebox.device.mpy_build import SIM_MPY
from scorebox.process import die_with_parent
from scorebox.sim.ptybox import PtyBox
from scorebox.sim.run import Flash, SimError, default_state, micropython, source_path


@contextlib.contextmanager
def plugged_in(state=None):
    """The simulator's box (its state file, default_state() if None) on a pseudo-terminal,
    as a box on a cable: yields the port's path for the sync link (`scorebox sync --sim`)."""
    state = state or default_state()
    if not os.path.exists(state):
        # A newcomer's `scorebox sim --keys FILE` played on a fresh box that was not kept.
        own = "" if state == default_state() else " --state %s" % state
        raise SimError(
            "%s: no simulator box here yet: key a match with `scorebox sim%s` first"
            " (a `--keys FILE` run keeps its box here only with `--state %s`)" % (state, own, state)
        )
    with Flash(state) as flash, tempfile.TemporaryDirectory(prefix="scorebox-sim-") as tmp:
        vp = VirtualPico(flash, log=os.path.join(tmp, "box.log"))  # the log beside the state could be anyone's
        try:
            ser = link.open_port(vp.port)
            try:
                vp.wait_ready(link.Client(ser, timeout=3.0))
            except RuntimeError as e:
                raise SimError("the simulator's box did not start: %s" % e)
            finally:
                ser.close()
            yield vp.port
        finally:
            vp.close()


class VirtualPico(PtyBox):
    def __init__(self, flash, keys=None, log=None):
        super().__init__(flash, log)
        self.keys = keys and os.path.abspath(keys)
        self.boot()

    def boot(self):
        """Start the firmware (again): a power-on or a reboot."""
        args = [micropython(), os.path.join(SIM_MPY, "vpico", "usb.py"), "--flash", self.flash]
        if self.keys:
            args += ["--keys", self.keys]
            self.keys = None  # the match is keyed once; a reboot resumes from the journal
        with open(self.log, "ab") as err:
            env = dict(os.environ, MICROPYPATH=source_path())
            # PR_SET_PDEATHSIG follows the thread that forks: only from the main thread
            main = threading.current_thread() is threading.main_thread()
            watch = functools.partial(die_with_parent, os.getpid()) if main else None
            self.proc = subprocess.Popen(
                args,
                stdin=self.master,
                stdout=self.master,
                stderr=err,
                env=env,
                cwd=SIM_MPY,
                close_fds=True,
                preexec_fn=watch,
            )

    def reboot(self):
        self.kill()
        self.drain()
        self.boot()

    def wait_ready(self, client, timeout=30):
        """Wait until the firmware answers HELLO (it plays its key script first)."""
        deadline = time.monotonic() + timeout
        last = None
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("the virtual Pico exited: %s" % self.tail())
            try:
                return client.request("HELLO")
            except Exception as e:  # not up yet
                last = e
        raise RuntimeError("the virtual Pico did not answer: %s; %s" % (last, self.tail()))
