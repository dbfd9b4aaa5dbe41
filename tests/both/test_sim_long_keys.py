"""`scorebox sim --keys` with a long key script (issue 21 item 5: past about 350 keys it died
with a MemoryError traceback, the whole script parsed inside the box's heap). The script is
read in pieces on the MicroPython side (vpico/keyscript.py), so its length does not count
against the box's heap: thousands of keys of both games play on the sim's Pico-sized heap
and the journal holds exactly the matches keyed."""

import hashlib
import json
import os
import subprocess
import sys

import mpy
import pytest

from scorebox.sim import run as sim
from scorebox_core.games.ttb.rules import NEW_FACE, UNDO
from scorebox_core.games.ttt.rules import END, MISS, NEXT_MATCH

pytestmark = pytest.mark.micropython

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCOREBOX = os.path.join(os.path.dirname(sys.executable), "scorebox")
DEMO_KEYS = os.path.join(ROOT, "docs", "demo.keys")

# Try-Tac-Toe's two matches (TTT-6): triangles 1-74, 0 a miss (D), -1 an undo (*); each
# ended by agreement (C #, TTT-5) before a shape is complete.
TTT_1 = (1, 10, 0, 20, 30, -1, 31, 40, 50, 0, 60, 70)
TTT_2 = (5, 15, 25, 0, 35, -1, 36, 45, 55, 65, 0, 74)


def demo_tokens():
    keys = []
    with open(DEMO_KEYS) as f:
        for line in f:
            keys += line.split(";")[0].split()
    return keys


def ttb_match(i):
    """docs/demo.keys as match i+1 (a Tic Tac BOW match, A wins), then * from history to
    home. The face has had 4 games before every 5th match: the box asks (TTB-16), # puts
    up a new one."""
    keys = demo_tokens()
    setup, play = keys[:11], keys[11:]  # New match, the sides, to Start, start
    if i and i % 4 == 0:
        setup.append("#")
    return " ".join(setup) + "\n" + " ".join(play) + " *\n"


def ttt_moves(moves):
    return " ".join("D" if t == 0 else "*" if t < 0 else " ".join(str(t)) + " #" for t in moves)


def ttt_game():
    """A Try-Tac-Toe game: New match, rules left to TryTacToe, start; both matches, each
    ended by agreement; X and O confirm; * from history to home."""
    return "# 4 # #\n%s\nC #\n#\n%s\nC #\n# # *\n" % (ttt_moves(TTT_1), ttt_moves(TTT_2))


def ttt_log():
    """The journal's events for ttt_game()."""
    log = []
    for moves in (TTT_1, TTT_2):
        log += [MISS if t == 0 else UNDO if t < 0 else t for t in moves]
        log.append(END)
        if moves is TTT_1:
            log.append(NEXT_MATCH)
    return log


def scorebox(*args):
    return subprocess.run([SCOREBOX, *args], capture_output=True, text=True, timeout=600)


def synced(state, db, out):
    """The box's matches synced into a new store, as exported: {number: match}."""
    p = scorebox("sync", "--sim", state, "--db", db)
    assert p.returncode == 0, p.stdout + p.stderr
    p = scorebox("export", "--format", "json", "--db", db, "--out", out)
    assert p.returncode == 0, p.stdout + p.stderr
    with open(os.path.join(out, "matches.json")) as f:
        return {m["number"]: m for m in json.load(f)["matches"]}


def test_thousands_of_keys_of_both_games_play_on_the_sims_heap(tmp_path):
    assert sim.HEAP == mpy.PICO_HEAP  # the sim's default: the Pico's heap on the unix port
    # What docs/demo.keys alone keys (a short script, which never ran out of heap).
    one = str(tmp_path / "one.flash")
    p = scorebox("sim", "--keys", DEMO_KEYS, "--state", one)
    assert p.returncode == 0, p.stderr
    demo_log = synced(one, str(tmp_path / "one.sqlite"), str(tmp_path / "one"))[1]["log"]

    games = 50
    script = tmp_path / "long.keys"
    script.write_text("".join(ttb_match(i) + ttt_game() for i in range(games)))
    keys = len(script.read_text().split())
    assert keys > 5000

    state = str(tmp_path / "box.flash")
    p = scorebox("sim", "--keys", str(script), "--state", state)
    assert "Traceback" not in p.stdout + p.stderr and "MemoryError" not in p.stdout + p.stderr, p.stderr[-1500:]
    assert p.returncode == 0, p.stderr[-1500:]
    last = p.stdout.splitlines()[-1]
    assert last.startswith("matches 1-%d kept in %s; next: scorebox sync --sim" % (2 * games, state)), last

    got = synced(state, str(tmp_path / "club.sqlite"), str(tmp_path / "out"))
    assert sorted(got) == list(range(1, 2 * games + 1))
    for i in range(games):
        ttb, ttt = got[2 * i + 1], got[2 * i + 2]
        assert ttb["game"] == "tictacbow" and ttb["winner"] == "A" and ttb["finished"], ttb
        assert ttb["log"] == ([NEW_FACE] if i and i % 4 == 0 else []) + demo_log, ttb["number"]
        assert ttt["game"] == "try-tac-toe" and ttt["winner"] == "draw" and ttt["finished"], ttt
        assert ttt["log"] == ttt_log(), ttt["number"]
        assert ttt["extras"]["result"]["matches"] == [{"moves": 10, "reason": "agreed", "score": [0, 0]}] * 2


def test_a_long_line_is_read_in_pieces_as_the_same_keys(tmp_path):
    """40 demo matches, one key a line, and the same keys all on one line (9 KB) written
    `KEY~80` (held 80 ms, as a bare key is): keys cut where a piece of the line ends are
    carried into the next piece, and the box ends where the same keys a line each leave it."""
    keys = "".join(ttb_match(i) for i in range(40)).split()
    a, b = tmp_path / "lines.keys", tmp_path / "one.keys"
    a.write_text("\n".join(keys) + "\n")
    b.write_text(" ".join(k + "~80" for k in keys) + " ; the end, no new line")
    assert len(b.read_text()) > 9000
    shown = []
    for path in (a, b):
        p = scorebox("sim", "--keys", str(path))
        assert p.returncode == 0, p.stderr[-1500:]
        shown.append(p.stdout)
    assert shown[0] == shown[1]
    assert shown[1].splitlines()[-1].startswith("matches 1-40 on a fresh box")


def test_a_bad_key_at_the_end_of_a_long_script_plays_nothing(tmp_path):
    """The script is checked to its end before a key is played: a --state box is left as it
    was, and the error names the line."""
    state = str(tmp_path / "box.flash")
    p = scorebox("sim", "--keys", DEMO_KEYS, "--state", state)
    assert p.returncode == 0, p.stderr
    with open(state, "rb") as f:
        before = hashlib.sha256(f.read()).hexdigest()
    script = tmp_path / "bad.keys"
    text = "".join(ttb_match(i + 1) for i in range(30))
    script.write_text(text + "5 A nope\n")
    p = scorebox("sim", "--keys", str(script), "--state", state)
    assert p.returncode == 2, p.stdout[-500:] + p.stderr[-1500:]
    assert p.stderr.strip() == "%s: line %d: unknown key 'nope'" % (script, text.count("\n") + 1)
    with open(state, "rb") as f:
        assert hashlib.sha256(f.read()).hexdigest() == before


def test_an_endless_token_is_refused_quoted_shortened(tmp_path):
    script = tmp_path / "junk.keys"
    script.write_text("# #\n5 A " + "x" * 200000 + "\n")
    p = scorebox("sim", "--keys", str(script))
    assert p.returncode == 2, p.stdout[-500:] + p.stderr[-1500:]
    assert p.stderr.strip() == "%s: line 2: unknown key '%s'..." % (script, "x" * 24)
