"""USB sync against the virtual Pico behind a pty, with 1,000 matches on the box:
`scorebox sync` versus mpremote `fs cp` of the same journal files, same pty, same run.
sync_transfer_* time the sync protocol moving the same files alone (no decoding, checking
or storing; streamed, 4 files a request, as a sync reads them), the like-for-like
comparison with `fs cp`. sync_cpu_seconds_* say where the
sync's CPU time went: this process, its worker process, the virtual Pico (all three share
the machine's cores)."""

import os
import pathlib
import resource
import subprocess
import sys
import tempfile
import time

from boxfill import fill

from scorebox.device import link
from scorebox.device import mpremote_adapter as mp
from scorebox.sim.vpico import VirtualPico
from scorebox.store.sqlite import Store
from scorebox.sync.protocol import PIPELINE, read_files
from scorebox.sync.pull import sync

MATCHES = 1000


def cpu_seconds(box_pid):
    """CPU seconds so far of this process (all its threads), of its finished children (the
    sync's worker, once the sync has shut it down) and of the virtual Pico (Linux /proc)."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open("/proc/%d/stat" % box_pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    box = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return me.ru_utime + me.ru_stime, kids.ru_utime + kids.ru_stime, box


def run():
    with tempfile.TemporaryDirectory() as d:
        folder = pathlib.Path(d)
        flash, _ = fill(folder, MATCHES, seed=11)
        vp = VirtualPico(flash)
        try:
            ser = link.open_port(vp.port)
            vp.wait_ready(link.Client(ser, timeout=1.0))
            ser.close()
            names = [n for n in mp.ls(vp.port, "/flash") if n.endswith(".tbj")]
            out = folder / "copy"
            out.mkdir()
            t0 = time.perf_counter()
            subprocess.run(
                [sys.executable, "-m", "mpremote", "connect", vp.port, "resume", "fs", "cp"]
                + [":/flash/" + n for n in names]
                + [str(out) + "/"],
                check=True,
                capture_output=True,
                timeout=1800,
            )
            t_mpremote = time.perf_counter() - t0
            copied = sum(os.path.getsize(out / n) for n in names)
            vp.reboot()  # mpremote's Ctrl-C stopped the app, as on a Pico
            ser = link.open_port(vp.port)
            client = link.Client(ser, timeout=5.0)
            client.reads = min(vp.wait_ready(client)["reads"], PIPELINE)  # as sync() takes it from HELLO
            t0 = time.perf_counter()
            got = [
                (name, size) for name, size in client.request("LIST", {"after": 0})["files"] if name.endswith(".tbj")
            ]
            moved = sum(len(d) for i in range(0, len(got), PIPELINE) for d in read_files(client, got[i : i + PIPELINE]))
            t_transfer = time.perf_counter() - t0
            store = Store(str(folder / "club.sqlite"))
            cpu0 = cpu_seconds(vp.proc.pid)
            t0 = time.perf_counter()
            s = sync(client, store)
            t_sync = time.perf_counter() - t0
            cpu = [b - a for a, b in zip(cpu0, cpu_seconds(vp.proc.pid))]
            if moved != copied:
                raise RuntimeError("READ moved %d bytes, mpremote %d" % (moved, copied))
            if len(s.new) != MATCHES:
                raise RuntimeError("synced %d of %d matches" % (len(s.new), MATCHES))
            t0 = time.perf_counter()
            s2 = sync(client, store)
            t_noop = time.perf_counter() - t0
            if s2.new:
                raise RuntimeError("the second sync found new matches")
            ser.close()
        finally:
            vp.close()
    return {
        "sync_speedup_vs_mpremote": round(t_mpremote / t_sync, 2),
        "sync_noop_seconds": round(t_noop, 3),
        "sync_matches_per_second": round(MATCHES / t_sync, 1),
        "sync_seconds_1000": round(t_sync, 2),
        "sync_transfer_seconds_1000": round(t_transfer, 3),
        "sync_transfer_speedup_vs_mpremote": round(t_mpremote / t_transfer, 1),
        "mpremote_cp_seconds_1000": round(t_mpremote, 2),
        "sync_cpu_seconds_pc_1000": round(cpu[0], 3),
        "sync_cpu_seconds_worker_1000": round(cpu[1], 3),
        "sync_cpu_seconds_box_1000": round(cpu[2], 3),
        "journal_bytes_copied_1000": copied,
    }
