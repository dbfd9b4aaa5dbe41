"""The games installed beside the built-in ones (scorebox_core/games installed()): the
`scorebox_game_*` packages on the import path, looked for once and then let go (a box keeps
only the answer)."""

import os
import sys

from scorebox_core.games import PREFIX


def scan():
    names = set()
    for d in sys.path:
        try:
            names.update(n for n in os.listdir(d or ".") if n.startswith(PREFIX) and "." not in n)
        except (OSError, TypeError):  # '.frozen', a zip, a folder gone
            pass
    return [(__import__(n + ".core.game", None, None, ("ID",)).ID, n + ".core.game") for n in sorted(names)]
