"""A best of 3 Tic Tac BOW match that A wins once and B twice: the result record the journal
keeps (rules.result of rules.replay, docs/journal.md) and `scorebox replay --json` (docs/match-script.md),
each whole, so that neither side's wins can be read as the other's."""

import json
import os
import subprocess
import sys

from scorebox_core.games.ttb.rules import NEW_GAME, Options, hit, miss, replay, result

SCRIPT = """# A takes the top row, then B the middle row and the bottom row
options: claim=1 games=3
A: 1:1 2:1 3:1
B: M M M
B: 4:1 5:1 6:1
A: M M M
A: M M M
B: 7:1 8:1 9:2
"""
GAMES = [
    {"winner": "A", "reason": "line", "arrows": 6},
    {"winner": "B", "reason": "line", "arrows": 6},
    {"winner": "B", "reason": "line", "arrows": 6},
]


def test_the_result_record_counts_each_sides_wins():
    opts = Options()
    opts.set("claim", "1")
    opts.set("games", "3")
    m3 = [miss()] * 3
    ev = [hit(1, 1), hit(2, 1), hit(3, 1), *m3, NEW_GAME, hit(4, 1), hit(5, 1), hit(6, 1), *m3]
    ev += [NEW_GAME, *m3, hit(7, 1), hit(8, 1), hit(9, 2)]
    assert result(replay(ev, opts)) == {"winner": "B", "wins": [1, 2], "draws": 0, "games": GAMES}


def test_replay_json_is_the_whole_state(tmp_path):
    path = tmp_path / "three.ttb"
    path.write_text(SCRIPT)
    exe = os.path.join(os.path.dirname(sys.executable), "scorebox")
    p = subprocess.run([exe, "replay", str(path), "--json"], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    open_square = {"balance": 0, "flipped": False, "locked": False, "need": {"A": 1, "B": 1}, "owner": None}
    b_square = {"flipped": False, "locked": False, "need": None, "owner": "B"}
    assert json.loads(p.stdout) == {
        "winner": "B",
        "reason": "line",
        "squares": [dict(open_square, square=n) for n in range(1, 7)] + [dict(b_square, square=n) for n in (7, 8, 9)],
        "next": None,
        "turn": [
            {"outcome": "claimed", "token": "7:1"},
            {"outcome": "claimed", "token": "8:1"},
            {"outcome": "claimed", "token": "9:2"},
        ],
        "game": 3,
        "games": [dict(g, first=first, rounds=1) for g, first in zip(GAMES, "ABA")],
        "match": {"winner": "B", "over": True, "wins": {"A": 1, "B": 2}, "draws": 0},
        "face": {"games": 3, "arrows": [1] * 9, "worn": False},
        "options": {
            "mode": "net",
            "claim_a": 1,
            "claim_b": 1,
            "arrows_a": 3,
            "arrows_b": 3,
            "flips": 1,
            "equal_turns": True,
            "rounds": 0,
            "games": 3,
            "face_games": 4,
        },
    }
