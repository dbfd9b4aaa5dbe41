"""The virtual Pico: the board the simulator and the tests run the firmware on."""
