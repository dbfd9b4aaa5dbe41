"""The virtual Pico on the Pico's budget: the firmware compiled to .mpy (as deployed) under
`-X heapsize=192k`, the heap the app is tested on (docs/sync.md "Sizes"). main.py runs
from source, as on a Pico. For the sync tests; scorebox.sim.vpico.VirtualPico otherwise."""

import os
import subprocess

from scorebox.device import link, mpy_build
from scorebox.device.mpy_build import SIM_MPY
from scorebox.sim.run import micropython
from scorebox.sim.vpico import VirtualPico

HEAP = "192k"
FIRMWARE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "firmware")


class PicoHeapVirtualPico(VirtualPico):
    built = None  # the firmware's .mpy folder, built at the first boot: a power cycle runs the same

    def boot(self):
        if self.built is None:
            self.built = mpy_build.build()
        built = self.built
        args = [micropython(), "-X", "heapsize=" + HEAP, os.path.join(SIM_MPY, "vpico", "usb.py")]
        with open(self.log, "ab") as err:
            self.proc = subprocess.Popen(
                args + ["--flash", self.flash],
                stdin=self.master,
                stdout=self.master,
                stderr=err,
                env=dict(os.environ, MICROPYPATH=os.pathsep.join((built, FIRMWARE, ".frozen"))),
                cwd=SIM_MPY,
                close_fds=True,
            )

    def hello(self):
        """HELLO's reply once the box answers."""
        ser = link.open_port(self.port)
        try:
            return self.wait_ready(link.Client(ser, timeout=1.0, retries=0))
        finally:
            ser.close()
