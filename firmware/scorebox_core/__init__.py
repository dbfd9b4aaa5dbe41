"""The code the box and the PC share: the games' rules, the match header and result, the
journal's records and reader, and the sync frames. Pure: no `machine`, no files opened
here, no PC-only module. It runs unchanged on MicroPython and CPython.

Tic Tac BOW lives in ttb/, Try-Tac-Toe in ttt/; what both games need sits beside them.
"""

VERSION = "1.0.0"  # the one version string: firmware (box/device.py adds "+frozen"), package.json, the PC package
