"""Everything Scorebox asks of mpremote, in one place (mpremote's version is pinned in
pyproject.toml to the MicroPython release of the firmware).

mpremote is run as a command, its stable interface. `resume` keeps mpremote from
soft-resetting the box on connect: a rescue must not restart a box in trouble.
"""

import subprocess
import sys

PINNED = "1.29.0"


class MpremoteError(Exception):
    pass


def run(port, *args, timeout=120):
    """Run `mpremote connect PORT resume ARGS...`; its stdout, or MpremoteError."""
    cmd = [sys.executable, "-m", "mpremote", "connect", port, "resume", *args]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise MpremoteError("mpremote %s timed out after %d s" % (" ".join(args), timeout))
    if p.returncode != 0:
        msg = (p.stderr.strip() or p.stdout.strip()).splitlines()
        raise MpremoteError("mpremote %s failed: %s" % (" ".join(args), msg[-1] if msg else p.returncode))
    return p.stdout


def version():
    p = subprocess.run([sys.executable, "-m", "mpremote", "version"], capture_output=True, text=True, timeout=60)
    return p.stdout.strip().split()[-1] if p.returncode == 0 and p.stdout.strip() else None


def ls(port, path):
    """Names of the files in a folder on the box (folders end in /)."""
    names = []
    for line in run(port, "fs", "ls", ":" + path).splitlines()[1:]:
        parts = line.split(None, 1)
        if len(parts) == 2:
            names.append(parts[1].strip())
    return names


def cp_from(port, remote_paths, folder):
    """Copy files from the box into a local folder, in one mpremote session."""
    if remote_paths:
        run(port, "fs", "cp", *[":" + p for p in remote_paths], folder.rstrip("/") + "/", timeout=600)
