"""The emulated CircuitPython Pico (docs/circuitpython.md)."""
