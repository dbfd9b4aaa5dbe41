"""scorebox_core/match.py, what box and PC both say about a match: the same answers on
CPython and on MicroPython, and the answers the box's screens and the PC's reports show."""

import json

import pytest
from mpy import run

# Prints one JSON line of everything match.py answers for a few matches; run by both.
SCRIPT = """
import json
from scorebox_core import match
from scorebox_core.games.ttb import rules

m = rules.Match.replay([rules.hit(1, 3), rules.hit(2, 2), rules.UNDO, rules.miss()], rules.Options(),
                       (("Ann", "Cat"), ("Bob",)), rules.Face(2, [1] * 9))
h = match.header(m.opts, m.archers, (20, 18), "yd", (70, 72), m.face)
opts, archers, face = match.from_header(h)
bare = match.from_header({"options": {}, "archers": [[], ["Bob"]], "face": 3})
out = {
    "header": h,
    "back": [opts.to_dict(), [list(a) for a in archers], face.games, face.arrows],
    "bare": [[list(a) for a in bare[1]], bare[2].games, bare[2].arrows],
    "result": match.result(m),
    "texts": [match.result_text(w, wins, reason) for w in (None, "A", "B", 2, "X", "draw")
              for wins in (None, (2, 1)) for reason in (None, "line")],
    "rotation": [rules.rotation(done, 3) for done in range(7)],
    "effective": [match.effective(log) for log in ([1, 2, 256, 3, 256, 256, 4], [256, 5], [257, 256, 9])],
}
print(json.dumps(out))
"""


def answers_here():
    got = {}
    exec(compile(SCRIPT.replace("print(", "got['out'] = ("), "match_script", "exec"), {"got": got})
    return json.loads(got["out"])


def test_answers():
    a = answers_here()
    assert a["back"] == [a["header"]["options"], [["Ann", "Cat"], ["Bob"]], 2, a["header"]["face"]["arrows"]]
    assert a["header"]["distance"] == [20, 18] and a["header"]["shaft_mm"] == [7.0, 7.2]
    assert a["bare"] == [[["A"], ["Bob"]], 0, [0] * 9]  # the defaults: a side named A, a fresh face
    assert a["result"]["winner"] is None and a["result"]["wins"] == [0, 0]
    texts = a["texts"]
    assert texts[:4] == ["open", "open (line)", "open 2-1", "open 2-1 (line)"]
    assert texts[4:8] == ["A wins", "A wins (line)", "A wins 2-1", "A wins 2-1 (line)"]
    assert texts[12:16] == ["draw", "draw (line)", "draw 2-1", "draw 2-1 (line)"]
    assert texts[16] == "X wins" and texts[20:24] == texts[12:16]
    assert a["rotation"] == [0, 1, 2, 0, 1, 2, 0]
    assert a["effective"] == [[4], [5], [9]]


@pytest.mark.micropython
def test_micropython_answers_the_same():
    p = run(["-c", SCRIPT])
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout) == answers_here()
