"""`scorebox sim`: the firmware on the virtual Pico (run.py), behind a pty as a USB box (vpico.py)."""
