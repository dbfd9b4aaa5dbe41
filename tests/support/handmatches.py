"""Three small matches written by hand as match scripts (docs/match-script.md), for the
statistics and export tests, whose expected figures are worked out by hand there."""

from scorebox_core.games.ttb.script import read_lines

DEVICE = "hand"
T0 = 1790000000

# Ann (A) v Ben (B): docs/samples/full-game.ttb. Ben flips 1 and 5 and wins on 1 5 9.
MATCH1 = """
options: mode=net claim=5 arrows=3 flips=1 equal_turns=on
archers: A=Ann B=Ben
A: 5:3 5:2 1:2
B: 3:3 3:2 9:1
A: 1:3 2:3 2:2
B: 1:X 9:3 9:1
A: 6:3 6:2 8:3
B: 4:3 4:2 7:1
A: 8:2 7:3 7:3
B: 5:X M M
"""

# Cat (A) v Ann (B), claim 3, two arrows a turn: Ann's 5:2 lands in Cat's square (dead),
# Cat flips Ann's 9 and owns 1 5 9 at the end of round 2; Ann's answer misses the X.
MATCH2 = """
options: mode=net claim=3 arrows=2 flips=1 equal_turns=on
archers: A=Cat B=Ann
A: 5:3 1:3
B: 9:3 5:2
A: 9:X 3:3
B: 5:- M
"""

# Ben (A) v Cat (B), one round agreed: a draw at the round limit (TTB-13). Cat keys a
# slip and undoes it.
MATCH3 = """
options: rounds=1
archers: A=Ben B=Cat
A: 5:1 5:1 5:1
B: 5:1 5:3 U 5:0 M
"""

SCRIPTS = (MATCH1, MATCH2, MATCH3)


def match_of(script):
    return read_lines(script.strip().splitlines())


def item(number, script):
    """(number, header, log, extras) as sync hands them to Store.add_matches."""
    m = match_of(script)
    header = {
        "options": m.opts.to_dict(),
        "archers": [list(m.archers[0]), list(m.archers[1])],
        "clock": T0 + 3600 * number,
    }
    return number, header, list(m.log), {}


def fill(store):
    got = store.add_matches(DEVICE, [item(n, s) for n, s in enumerate(SCRIPTS, 1)])
    assert got == [True, True, True], got
    return store
