"""Replays matches on MicroPython for the cross-interpreter tests.

Reads one JSON object a line from stdin: {"options": {...}, "events": [...]} and writes
one line back: the snapshot of the match after every event, as a JSON list.
"""

import path_setup  # noqa: F401  (sys.path, so that the script runs alone)

# isort: split

import json
import sys

from scorebox_core.games.ttb.rules import Match, Options
from scorebox_core.games.ttb.snapshot import snapshot

while True:
    line = sys.stdin.readline()
    if not line:
        break
    req = json.loads(line)
    m = Match(Options.from_dict(req["options"]))
    states = []
    for ev in req["events"]:
        m.apply(ev)
        states.append(snapshot(m))
    sys.stdout.write(json.dumps(states) + "\n")
