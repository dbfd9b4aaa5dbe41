"""Try-Tac-Toe's placement tables (firmware/scorebox_core/games/ttt/tables.py) are what
tools/ttt_tables.py works out from the board: the committed file must match the generator.
tests/mpy/ttt_checks.py checks the tables themselves against a brute force."""

import ttt_tables


def test_the_committed_tables_are_the_generators():
    with open(ttt_tables.PATH) as f:
        assert f.read() == ttt_tables.source(), "run `python tools/ttt_tables.py write`"


def test_each_cell_lists_the_placements_it_is_in():
    table, first = ttt_tables.placements()
    at, ids = ttt_tables.through(table)
    assert first == (0, 52, 208, 372) and len(table) == 4 * 372 and at[-1] == len(ids) == 4 * 372
    for c in range(74):
        assert ids[at[c] : at[c + 1]] == [p for p in range(372) if c in table[4 * p : 4 * p + 4]]
