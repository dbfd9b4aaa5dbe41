"""The virtual Pico's life on its USB port, in one process, as a Pico's (ports/rp2/main.c).

The flash is mounted and main.py runs until Ctrl-C; then the REPL (vpico/repl.py) until a
soft reset: Ctrl-D at either REPL, or SystemExit. That prints "MPY: soft reboot", unmounts the
flash, drops every module loaded since the box was switched on (the firmware's, the REPL's:
main.py starts again from nothing, on a heap they no longer hold), mounts the flash again and
runs main.py again, from the friendly REPL; after the raw REPL's reset the box stays in the raw
REPL without running main.py, as a Pico does (mpremote's soft-reset expects it). The port stays
open throughout, as a Pico's USB CDC does. The process ends only when the port is gone.
"""

import sys

from vpico.run import _unload


def live(box):
    """Run box (mount(), main(), unmount()) through soft resets until the port is gone."""
    keep = list(sys.modules)
    mode = "friendly"
    while mode:
        box.mount()
        if mode == "friendly":
            try:
                box.main()
            except Exception as e:  # main.py failed: the REPL, as on a Pico; the traceback in the log
                sys.print_exception(e, sys.stderr)  # type: ignore[arg-type]  # stubs: any stream
        from vpico.repl import repl

        mode = repl(mode)
        if mode:
            sys.stdout.buffer.write(b"MPY: soft reboot\r\n")
        box.unmount()
        _unload(keep)
