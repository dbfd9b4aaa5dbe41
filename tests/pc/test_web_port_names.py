"""The Sync page offers the PC's serial ports as the port field's choices: a port the system
names nothing is offered bare, not labelled "n/a" (pyserial's word for no name), which a club
secretary took for a message (found walking the desk as a newcomer)."""

from scorebox.web import syncjob


def test_a_port_with_no_name_is_offered_bare():
    assert syncjob.port_label("n/a") == ""
    assert syncjob.port_label(None) == ""
    assert syncjob.port_label("Board CDC") == "Board CDC"
