"""`scorebox sim --keys` with letters beyond ASCII in a key script (issue 21 item 5's fix).

The box reads a script PIECE (256) bytes at a time (vpico/keyscript.py). It read it in text
mode, where MicroPython counts bytes too: a letter of two to four bytes across a piece's end
raised UnicodeError, and the sim said "the firmware stopped (1): Traceback ..." (exit 2).
Now it reads bytes and decodes only the tokens: accented comments play as the same keys
without them, on both games, and a key with such a letter is refused in one line that names
its line."""

import hashlib
import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.micropython

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCOREBOX = os.path.join(os.path.dirname(sys.executable), "scorebox")
PIECE = 256  # vpico/keyscript.py's

# Tic Tac BOW: docs/demo.keys, a match A wins. Try-Tac-Toe (TTT-6): New match, the rules left
# to TryTacToe, start; two matches of a few triangles and a miss (D), an undo (*), each ended
# by agreement (C #, TTT-5); X and O confirm; * from history to home.
with open(os.path.join(ROOT, "docs", "demo.keys")) as _f:
    TTB = [line.split(";")[0].split() for line in _f]
TTT = [["#", "4", "#", "#"], ["1", "#", "1", "0", "#", "D", "3", "0", "#", "*"], ["C", "#"], ["#"]]
TTT += [["5", "#", "2", "5", "#", "D"], ["C", "#"], ["#", "#", "*"]]

LETTERS = ("é", "—", "🎯")  # two, three and four bytes in UTF-8


def comment(i):
    """A comment line longer than a piece: its letters fall across the piece's end at every
    offset as i goes round (ASCII before them shifts them a byte at a time)."""
    ch = LETTERS[i % len(LETTERS)]
    return ";" + "x" * (i % 4) + " tir réussi " + ch * (2 * PIECE // len(ch.encode()))


def scripts(lines):
    """The keys a line, and the same keys with long accented comments after and between them."""
    plain = "".join(" ".join(keys) + "\n" for keys in lines)
    noted = "".join(" ".join(keys) + " " + comment(i) + "\n" + comment(i + 1) + "\n" for i, keys in enumerate(lines))
    return plain, noted


def sim(*args):
    return subprocess.run([SCOREBOX, "sim", *args], capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize("game,lines", [("tictacbow", TTB), ("try-tac-toe", TTT)])
def test_accented_comments_play_as_the_same_keys(tmp_path, game, lines):
    plain, noted = scripts(lines)
    raw = noted.encode()
    # Some letter lies across a piece's end (every line is read from its start).
    cut = [line for line in raw.split(b"\n") if len(line) > PIECE and line[PIECE] & 0xC0 == 0x80]
    assert len(cut) >= 3
    shown = []
    for name, text in (("plain.keys", plain), ("noted.keys", noted)):
        path = tmp_path / name
        path.write_bytes(text.encode())
        p = sim("--keys", str(path))
        assert "Traceback" not in p.stdout + p.stderr, p.stderr[-1500:]
        assert p.returncode == 0, p.stderr[-1500:]
        shown.append(p.stdout)
    assert shown[1] == shown[0]
    assert shown[0].splitlines()[-1].startswith("match 1 on a fresh box,"), shown[0].splitlines()[-1]  # ended


@pytest.mark.parametrize("game,lines", [("tictacbow", TTB), ("try-tac-toe", TTT)])
def test_a_key_beyond_ascii_is_refused_naming_its_line(tmp_path, game, lines):
    """A key 'é' (a typo's accent), and one cut at a piece's end: refused, its line named, in
    one line of ASCII; a --state box is left as it was (nothing is played)."""
    plain, noted = scripts(lines)
    state = tmp_path / "box.flash"
    (tmp_path / "plain.keys").write_text(plain)
    assert sim("--keys", str(tmp_path / "plain.keys"), "--state", str(state)).returncode == 0
    before = hashlib.sha256(state.read_bytes()).digest()
    for bad, quoted in (("5é", r"'5\xc3\xa9'"), ("x" * (PIECE - 1) + "é", "'%s'..." % ("x" * 24))):
        path = tmp_path / "bad.keys"
        path.write_bytes((noted + "A %s B\n" % bad).encode())
        p = sim("--keys", str(path), "--state", str(state))
        assert p.returncode == 2, p.stdout[-500:] + p.stderr[-1500:]
        line = noted.count("\n") + 1
        assert p.stderr.strip() == "%s: line %d: unknown key %s" % (path, line, quoted)
        assert hashlib.sha256(state.read_bytes()).digest() == before
