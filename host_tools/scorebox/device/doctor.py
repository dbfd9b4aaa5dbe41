"""`scorebox doctor`: what works and what does not, on the PC and on the box, one line each.

    ok    python 3.11.7
    FAIL  port /dev/ttyACM0: no permission: add yourself to the group ...
    ok    box e6614c311b2a7c36-1a2b3c4d ('Range 2'): firmware 1.0.0+frozen (frozen into its MicroPython 1.28.0)
Exit status 0 when nothing FAILed (warnings allowed), 2 otherwise. The box's name is the
club's (`scorebox boxes name`): this layer has no store, so the caller passes box_name, a
lookup from the box's id to its name or None (cli.py: the store's, when there is one).
"""

import os
import sys

from scorebox.device import deploy, link, space
from scorebox.device import mpremote_adapter as mp
from scorebox.device.link import DeviceError
from scorebox.errors import ScoreboxError
from scorebox.text import printable


def _dist_version(name):
    try:
        from importlib.metadata import PackageNotFoundError, version
    except ImportError:  # pragma: no cover (Python < 3.8)
        return None
    try:
        return version(name)
    except PackageNotFoundError:
        return None


def check_pc(report):
    v = sys.version_info
    report("ok" if v >= (3, 9) else "FAIL", "python %d.%d.%d (%s)" % (v[0], v[1], v[2], sys.executable))
    ps = _dist_version("pyserial")
    report("ok" if ps else "FAIL", "pyserial %s" % (ps or "missing: pip install scorebox"))
    mpv = _dist_version("mpremote")
    if mpv == mp.PINNED:
        report("ok", "mpremote %s (pinned)" % mpv)
    else:
        report(
            "warn" if mpv else "FAIL", "mpremote %s, pinned %s: pip install mpremote==%s" % (mpv, mp.PINNED, mp.PINNED)
        )
    try:
        mpc, mpy = deploy.mpy_cross_version()
        report("ok", "mpy-cross: MicroPython %s, .mpy v%d.%d" % (mpc, mpy[0], mpy[1]))
    except DeviceError as e:
        report("warn", "mpy-cross: %s (needed by `scorebox deploy` only)" % e)
    try:
        deploy.check_drivers()
        report("ok", "display drivers match their pinned SHA-256")
    except (DeviceError, OSError, KeyError, ValueError) as e:
        report("FAIL", "display drivers: %s" % e)


def check_port(report, port):
    """Find the box (or take --port) and check it can be opened; the port or None."""
    if port is None:
        try:
            port = link.find_port()
        except DeviceError as e:
            report("FAIL", str(e))
            return None
        report("ok", "box found on %s (%s)" % (port, dict(link.box_ports()).get(port, "?")))
    if not os.path.exists(port) and not port.upper().startswith("COM"):
        report("FAIL", "port %s does not exist: is the box plugged in?" % port)
        return None
    if os.name == "posix" and not os.access(port, os.R_OK | os.W_OK):
        report("FAIL", "port %s: no permission: %s" % (port, link.permission_help(port)))
        return None
    try:
        ser = link.open_port(port)
        ser.close()
    except DeviceError as e:
        report("FAIL", str(e))
        return None
    report("ok", "port %s opens" % port)
    return port


def named(report, uid, box_name):
    """The box's name as " ('Range 2')" when box_name knows it, else ""; a store it cannot read is a warning."""
    if not (box_name and uid):
        return ""
    try:
        name = box_name(uid)
    except ScoreboxError as e:
        report("warn", "the club's name for box %s: %s" % (printable(str(uid)), e))
        return ""
    return " ('%s')" % printable(name) if name else ""


def check_firmware(report, info, who):
    """The box's firmware: its version against this PC's, frozen into its MicroPython image
    (`make uf2`) or deployed as files, and whether those parts agree (files on the flash
    shadowing the image's modules quietly run instead of them)."""
    want = deploy.firmware_version()
    fw = str(info.get("firmware"))
    version, _, how = fw.partition("+")
    mpy = info.get("micropython")
    cp = info.get("runtime") == "circuitpython"  # its version in "micropython" too
    where = ""
    if mpy:
        where = " (%s %s %s)" % (
            "frozen into its" if how == "frozen" else "deployed on",
            "CircuitPython" if cp else "MicroPython",
            printable(str(mpy)),
        )
    if version == want:
        report("ok", "%s: firmware %s%s" % (who, printable(fw), where))
    else:
        fix = "flash scorebox-%s-RPI_PICO.uf2 (make uf2)" % want if how == "frozen" else "scorebox deploy"
        fix = "scorebox deploy --circuitpython DRIVE (its CIRCUITPY drive)" if cp else fix
        report("warn", "%s: firmware %s%s, this PC has %s: %s" % (who, printable(fw), where, want, fix))
    image = info.get("image")
    if image and how != "frozen":
        report(
            "FAIL",
            "the box's image holds scorebox %s frozen in, but files on its flash shadow it: "
            "`scorebox deploy` removes them" % printable(str(image)),
        )
    elif image:
        report("ok", "the box's parts agree: main.py and pins.py on its flash, the rest frozen in its image")


def battery_text(mv):
    """ "3.91 V", from the box's battery_mv (HELLO), and why it reads high on USB power."""
    return "%d.%02d V%s" % (
        mv // 1000,
        mv % 1000 // 10,
        " (on USB power: the battery is read under the USB supply)" if mv > 4600 else "",
    )


def check_box(report, port, box_name=None):
    try:
        ser = link.open_port(port)
    except DeviceError as e:
        report("FAIL", str(e))
        return
    try:
        info = link.Client(ser, timeout=1.5, retries=2).request("HELLO")
    except DeviceError as e:
        report("FAIL", "the box does not answer the sync protocol (%s): `scorebox deploy` installs the firmware" % e)
        return
    finally:
        ser.close()
    other = link.firmware(info)
    if other:
        report("FAIL", other)
        return
    uid = info.get("device")
    check_firmware(report, info, "box %s%s" % (uid, named(report, uid, box_name)))
    sp = info.get("space") or {}
    if sp:
        report(
            "warn" if sp.get("warn") else "ok",
            "storage " + space.text(sp),
        )
    mv = info.get("battery_mv")
    if mv is not None:
        report("ok", "battery (VSYS) " + battery_text(mv))
    # a match a PC already holds stays on the box until its room is needed: not one to sync
    stored, waiting = info.get("matches", 0), sp.get("unacked", 0)
    text = "matches waiting for a sync: %d (and %d already on a PC)" % (waiting, stored - waiting)
    report("ok", text + (", one open" if info.get("open") else ""))


def doctor(port=None, out=print, box_name=None, checks=(), box=True):
    """Every check's line, then the box's unless box is False; checks are the caller's own
    (report) -> None, run after the PC's (cli.py: the league's database)."""
    fails = []

    def report(level, text):
        if level == "FAIL":
            fails.append(text)
        out("%-5s %s" % (level, text))

    check_pc(report)
    for check in checks:
        check(report)
    if not box:
        return 0 if not fails else 2
    port = check_port(report, port)
    if port:
        check_box(report, port, box_name)
    return 0 if not fails else 2


def cmd_doctor(args):
    return doctor(args.port)


def add_parser(sub, parents=()):
    p = sub.add_parser("doctor", parents=parents, help="check the PC tools, the USB port and the box")
    p.add_argument("--port", help="the box's serial port (found by its USB id when omitted)")
    p.set_defaults(run=cmd_doctor)
