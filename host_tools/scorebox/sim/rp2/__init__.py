"""The emulated Pico: MicroPython's own RP2040 image on rp2040js (emu.py drives harness.mjs)."""
