"""The journal, settings and roster on CircuitPython's FAT drive (docs/journal.md, "On FAT"):
loaded only there."""
