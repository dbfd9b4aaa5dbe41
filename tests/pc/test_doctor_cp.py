"""`scorebox doctor` on a box running CircuitPython: HELLO's runtime says so, and its version
(in "micropython", as on MicroPython) is CircuitPython's; an older firmware there is installed
again through the drive."""

from scorebox.device import deploy, doctor

V = deploy.firmware_version()


def lines(info):
    out = []
    doctor.check_firmware(lambda level, text: out.append("%-5s %s" % (level, text)), info, "box b1")
    return out


def test_a_box_on_circuitpython():
    got = lines({"firmware": V, "micropython": "10.2.1", "image": None, "runtime": "circuitpython"})
    assert got == ["ok    box b1: firmware %s (deployed on CircuitPython 10.2.1)" % V]


def test_an_older_firmware_on_circuitpython():
    got = lines({"firmware": "0.0.9", "micropython": "10.2.1", "image": None, "runtime": "circuitpython"})
    assert got == [
        "warn  box b1: firmware 0.0.9 (deployed on CircuitPython 10.2.1), this PC has %s: "
        "scorebox deploy --circuitpython DRIVE (its CIRCUITPY drive)" % V
    ]
