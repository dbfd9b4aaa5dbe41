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


def run(port, *args, timeout=120, cwd=None):
    """Run `mpremote connect PORT resume ARGS...`; its stdout, or MpremoteError."""
    cmd = [sys.executable, "-m", "mpremote", "connect", port, "resume", *args]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=cwd)
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


# --- deploy (scorebox/device/deploy.py) ----------------------------------------------------------
def exec_(port, code, timeout=60):
    """Run Python code on the box (mpremote exec); what it printed."""
    return run(port, "exec", code, timeout=timeout)


def cp_to(port, groups, timeout=600):
    """Copy local files to folders on the box in one mpremote session: groups is a list of
    (remote folder, [local paths]). mpremote skips a file whose hash on the box already
    matches (its `fs cp` checks sha256 first), so a second deploy copies only what changed.
    Returns how many files were skipped so."""
    args = []
    for folder, paths in groups:
        if not paths:
            continue
        if args:
            args.append("+")
        args += ["fs", "cp", *paths, ":" + folder.rstrip("/") + "/"]
    if not args:
        return 0
    out = run(port, *args, timeout=timeout)
    return sum(1 for line in out.splitlines() if line.startswith("Up to date:"))


def sha256sums(port, remote_paths, timeout=300):
    """{remote path: sha256 hex} of files on the box, hashed on the box (mpremote's
    `fs sha256sum`, its fs_hashfile: hashlib on the device, 256-byte reads)."""
    out = run(port, "fs", "sha256sum", *[":" + p for p in remote_paths], timeout=timeout)
    got = {}
    path = None
    for line in out.splitlines():
        line = line.strip()
        if line.startswith("sha256sum :"):
            path = line[len("sha256sum :") :]
        elif path is not None and len(line) == 64:
            got[path] = line
            path = None
    return got


def mip_install(port, package, target, cwd=None, timeout=600):
    """`mpremote mip install --target TARGET PACKAGE` (a package.json path is read relative to cwd)."""
    return run(port, "mip", "install", "--target", target, package, timeout=timeout, cwd=cwd)
