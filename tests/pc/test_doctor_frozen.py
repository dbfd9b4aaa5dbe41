"""`scorebox doctor` on the box's firmware as HELLO reports it: the version, frozen into the
image (`make uf2`) or deployed as files, the MicroPython version, and whether the parts agree
(deployed files shadowing the frozen modules quietly undo the image)."""

from scorebox.device import deploy, doctor

V = deploy.firmware_version()


def lines(info):
    out = []
    doctor.check_firmware(lambda level, text: out.append("%-5s %s" % (level, text)), info, "box b1")
    return out


def test_frozen_box_whose_parts_agree():
    got = lines({"firmware": V + "+frozen", "micropython": "1.28.0", "image": V})
    assert got == [
        "ok    box b1: firmware %s+frozen (frozen into its MicroPython 1.28.0)" % V,
        "ok    the box's parts agree: main.py and pins.py on its flash, the rest frozen in its image",
    ]


def test_deployed_files_shadowing_the_image_fail():
    got = lines({"firmware": V, "micropython": "1.28.0", "image": V})
    assert got[0] == "ok    box b1: firmware %s (deployed on MicroPython 1.28.0)" % V
    assert got[1].startswith("FAIL  the box's image holds scorebox %s frozen in, but files on its flash shadow it" % V)


def test_deployed_on_a_stock_image_and_an_older_firmware():
    assert lines({"firmware": V, "micropython": "1.28.0", "image": None}) == [
        "ok    box b1: firmware %s (deployed on MicroPython 1.28.0)" % V
    ]
    assert lines({"firmware": "0.0.9"}) == ["warn  box b1: firmware 0.0.9, this PC has %s: scorebox deploy" % V]
    old = lines({"firmware": "0.0.9+frozen", "micropython": "1.28.0", "image": "0.0.9"})
    assert old[0].endswith("this PC has %s: flash scorebox-%s-RPI_PICO.uf2 (make uf2)" % (V, V)), old
