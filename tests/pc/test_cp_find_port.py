"""`scorebox sync` and `doctor` find a CircuitPython box by its data port (usb_cdc.data), not
its console: pyserial's list of ports as Linux gives it (each port's USB interface named) and
as a system that names no interface gives it (the box's later port). The ports are pyserial's
own ListPortInfo, filled as list_ports fills them; no USB here to list real ones."""

import pytest
from serial.tools import list_ports
from serial.tools.list_ports_common import ListPortInfo

from scorebox.device import doctor, link


def port(device, vid, pid, itf, name=None, serial="DE6185100F4F2F2A"):
    p = ListPortInfo(device)
    p.vid, p.pid, p.serial_number, p.location, p.interface = vid, pid, serial, "1-1:1.%d" % itf, name
    return p


CP = (link.ADAFRUIT_VID, link.CIRCUITPYTHON_PICO_PID)


@pytest.fixture
def plugged(monkeypatch):
    def plug(*ports):
        monkeypatch.setattr(list_ports, "comports", lambda: list(ports))

    return plug


def test_the_data_port_by_its_interface_name(plugged):
    plugged(
        port("/dev/ttyACM0", *CP, 0, "CircuitPython CDC control"),
        port("/dev/ttyACM1", *CP, 2, "CircuitPython CDC2 control"),
    )
    assert link.find_port() == "/dev/ttyACM1"


def test_the_later_port_where_no_interface_is_named(plugged):
    plugged(port("COM7", *CP, 2), port("COM6", *CP, 0))
    assert link.find_port() == "COM7"


def test_a_circuitpython_pico_without_its_data_port_is_no_box(plugged):
    """boot.py did not enable usb_cdc.data: its console is the REPL's, never a sync's."""
    plugged(port("/dev/ttyACM0", *CP, 0, "CircuitPython CDC control"))
    with pytest.raises(link.DeviceError, match="no Scorebox found"):
        link.find_port()
    plugged(port("COM6", *CP, 0))
    with pytest.raises(link.DeviceError, match="no Scorebox found"):
        link.find_port()


def test_two_boxes_one_on_each_runtime(plugged):
    plugged(
        port("/dev/ttyACM0", link.RPI_VID, link.MICROPYTHON_PID, 0, "Board CDC"),
        port("/dev/ttyACM1", *CP, 0, "CircuitPython CDC control", serial="B"),
        port("/dev/ttyACM2", *CP, 2, "CircuitPython CDC2 control", serial="B"),
    )
    with pytest.raises(link.DeviceError, match="several boxes.*ttyACM0, /dev/ttyACM2"):
        link.find_port()


def test_doctor_says_which_runtime_it_found(plugged, tmp_path):
    plugged(port(str(tmp_path / "ttyACM9"), *CP, 2, "CircuitPython CDC2 control"))
    lines = []
    doctor.check_port(lambda level, text: lines.append((level, text)), None)
    assert lines[0] == ("ok", "box found on %s (CircuitPython, USB 239a:80f4, its data port)" % (tmp_path / "ttyACM9"))
