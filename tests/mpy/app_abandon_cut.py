"""A power cut inside Abandon match (run by tests/both/test_app_abandon.py):

    micropython tests/mpy/app_abandon_cut.py FLASH

box/home.py writes the abandoned result, then each side's confirmation: the power goes
after the result. The box must boot to Home, write the confirmations it lacks, and start a
new match; before, it came back on the play screen of a match that was no longer open.
Prints `{json}`.
"""

import path_setup  # noqa: F401  (sys.path, so that the script runs alone)

# isort: split

import json
import sys

from flashbox import FlashBox


def main(path):
    box = FlashBox(path)
    box.keys("# # #")  # New match, to Start, start: match 1, nothing keyed
    box.app.journal.finish({"abandoned": True})  # what Abandon writes first ...
    box.boot()  # ... and the power goes before the confirmations
    app = box.app
    got = {"booted": [type(app.screen).__name__, app.journal.unconfirmed()]}
    got["m1"] = app.journal.read_match(1)[2]["confirmed"]
    box.keys("# # #")
    got["next"] = [type(app.screen).__name__, app.journal.open_match()[0]]
    print(json.dumps(got))


main(sys.argv[1])
