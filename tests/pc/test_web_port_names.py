"""The Sync page offers the PC's serial ports on USB as the port field's choices: a port the
system names nothing is offered bare, not labelled "n/a" (pyserial's word for no name), which
a club secretary took for a message; the PC's own serial ports, which are never a box, are not
offered (found walking the desk as a newcomer)."""

from serial.tools.list_ports_common import ListPortInfo

from scorebox.web import syncjob


def test_a_port_with_no_name_is_offered_bare():
    assert syncjob.port_label("n/a") == ""
    assert syncjob.port_label(None) == ""
    assert syncjob.port_label("Board CDC") == "Board CDC"


def port(device, vid=None, description="n/a"):
    p = ListPortInfo(device, skip_link_detection=True)
    p.vid, p.description = vid, description
    return p


def test_only_ports_on_usb_are_offered():
    got = syncjob.suggested([port("/dev/ttyS0"), port("/dev/ttyACM0", 0x2E8A, "Board CDC"), port("COM1")])
    assert got == [("/dev/ttyACM0", "Board CDC")]
