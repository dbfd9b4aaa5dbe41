"""A second process for the CPU-bound half of a sync.

A sync's work on the PC is Python through and through (decoding, replaying every event,
building rows) and then SQLite. One worker process does the first while this process
does the second, so a long sync keeps two cores busy instead of one.
"""

import contextlib
import gc
import os
import signal
import sys
from concurrent.futures import Executor, Future, ProcessPoolExecutor

from scorebox.process import die_with_parent

MIN_JOBS = 3  # fewer files than this: starting a process costs more than it saves


def _start(parent):
    """In the worker: die with the sync; Ctrl-C is for the sync, which stops the worker."""
    die_with_parent(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class Inline(Executor):
    """An executor running each job at once, in this process."""

    def submit(self, fn, /, *args, **kwargs):
        f = Future()
        try:
            f.set_result(fn(*args, **kwargs))
        except BaseException as e:  # raised where the caller asks for the result
            f.set_exception(e)
        return f


@contextlib.contextmanager
def gc_paused():
    """No cyclic garbage collection inside (for work that makes no cycles)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def executor(jobs):
    """Where to run `jobs` jobs: a started one-process pool, or Inline for a few jobs or
    where no process can be started. Call before starting any thread: on Linux the
    worker is forked (fast), which must not happen while other threads hold locks."""
    if jobs < MIN_JOBS:
        return Inline()
    try:
        import multiprocessing

        ctx = multiprocessing.get_context("fork" if sys.platform.startswith("linux") else None)
        pool = ProcessPoolExecutor(1, mp_context=ctx, initializer=_start, initargs=(os.getpid(),))
        pool.submit(int).result()  # the worker is up before the caller goes on
        return pool
    except (OSError, ImportError, NotImplementedError):
        return Inline()
