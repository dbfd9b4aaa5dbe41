"""The games installed beside the built-in ones (scorebox_core/games installed()): the
`scorebox_game_*` packages in the import path's folders, looked for once and then let go (a
box keeps only the answer). The current folder is not looked in: on a Pico it is the file
system's root, which holds the journal's files (a game goes in /lib, where mip installs)."""

import os
import sys


def _names(d):
    """A folder's names, one at a time where the VM can (MicroPython's ilistdir: the box's root
    holds the journal's files too)."""
    if hasattr(os, "ilistdir"):
        return (e[0] for e in os.ilistdir(d))
    return os.listdir(d)


def scan(prefix):
    names = set()  # type: set
    for d in sys.path:
        if d in ("", "."):
            continue
        try:
            names.update(n for n in _names(d) if n.startswith(prefix) and "." not in n)
        except (OSError, TypeError):  # '.frozen', a zip, a folder gone
            pass
    return [(__import__(n + ".core.game", None, None, ("ID",)).ID, n + ".core.game") for n in sorted(names)]
