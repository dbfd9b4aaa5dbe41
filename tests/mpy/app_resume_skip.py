"""A match whose journal holds an event today's rules refuse is resumed without it, and
the box says so (run by micropython; prints one JSON line).

    micropython tests/mpy/app_resume_skip.py FLASH_FILE
"""

import path_setup  # noqa: F401  (sys.path, so that the script runs alone)

# isort: split

import json
import sys

from box.app import App
from box.journal import Journal
from box.session import header
from scorebox_core.games.ttb.rules import Face, Options, called, hit
from vpico.board import Board, unmount


def main(path):
    b = Board(path=path)
    j = Journal(b.root)
    j.recover()
    j.start_match(header(Options(), (("Ann",), ("Ben",)), (20, 20), "yd", (70, 70), Face()))
    for ev in (hit(5, 3), called(5, True), hit(5, 2)):  # the called shot at A's own open square: refused
        j.append(ev)
    j.close()
    unmount(b.root)
    b = Board(path=path)  # power back on
    app = App(b, strict=True)
    m = app.session.match
    n, h, events = app.journal.open_match()
    print(
        json.dumps(
            {
                "skipped": app.session.skipped,
                "screen": type(app.screen).__name__,
                "text": app.screen.text,
                "owner5": m.game.owner[4],
                "events": list(m.events),
                "journal": events,
                "notes": app.journal.read_match(n)[2]["notes"],
            }
        )
    )


main(sys.argv[1])
