"""Child processes of the PC side (the sync's worker, the virtual Pico) that end with it."""

import os
import signal


def die_with_parent(parent):
    """In a child process of `parent` (a pid), Linux: be killed when the parent dies, so
    that nothing is left running after the PC side is killed. PR_SET_PDEATHSIG follows
    the thread that forked: only useful for children of the main thread."""
    try:
        import ctypes

        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return  # not Linux: the child lives until its work is done or it is killed
    if os.getppid() != parent:  # the parent died before the line above: nobody will kill us
        os._exit(1)
