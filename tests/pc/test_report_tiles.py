"""The report's tiles count every game's play: on a store of both games (bothstore.py), the
arrows tile counts Try-Tac-Toe's moves beside Tic Tac BOW's arrows (at the range a move is an
arrow, TTT-2) and the archers tile every archer who played either game, once."""

import re

from bothstore import both_games
from ttt_history import full_game

from scorebox.report import html
from scorebox.store.access import open_store
from scorebox.store.roster import PLACEHOLDERS


def tiles(page):
    return {k: int(v.replace(",", "")) for v, k in re.findall(r'<div class="kpi"><b>([\d,]+)</b>(\w+)</div>', page)}


def test_the_tiles_count_both_games_arrows_and_archers(tmp_path):
    s = open_store(both_games(str(tmp_path / "club.sqlite")))
    try:
        got = tiles(html.render(html.build(s)))
        matches = [s.load_match(m["id"]) for m in s.matches()]
        ttb_arrows = s.totals()["arrows"]
    finally:
        s.close()
    moves = sum(len(m.moves) for seed in (3, 11) for m in full_game(seed).matches)  # bothstore's two games
    names = {n for m in matches for side in m["names"] for n in side} - set(PLACEHOLDERS)
    assert moves > 0 and ttb_arrows > 0
    assert got["arrows"] == ttb_arrows + moves
    assert got["archers"] == len(names) == 5  # Ann, Ben, Cat (Tic Tac BOW); Ann, Bo, Cy (Try-Tac-Toe)
    assert got["matches"] == len(matches)
