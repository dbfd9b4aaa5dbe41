"""Tic Tac BOW's rules core (firmware/scorebox_core/games/ttb/rules.py) on CPython, where `make
mutate` found behaviour no CPython test pinned (issue 21, item 16): the script tokens, each
option's range at its bounds (docs/match-script.md), the rounds played, the sentence for a
locked square (TTB-8), the arrows of the turn a screen reviews, when a new game may start
(TTB-14), an unknown event's refusal (TTB-4) and the face's wear kept on the box (TTB-16)."""

import pytest

from box.store import Store  # the box's settings file, importable under CPython
from scorebox_core.games.ttb.rules import (
    NEW_FACE,
    NEW_GAME,
    UNDO,
    Match,
    Options,
    Refused,
    called,
    check_event,
    finished,
    hit,
    miss,
    token,
)


def test_tokens_are_the_scripts():
    """docs/match-script.md: each event as a script writes it."""
    assert [token(e) for e in (UNDO, NEW_GAME, NEW_FACE)] == ["U", "new game", "new face"]
    assert [token(e) for e in (hit(1, 0), hit(9, 3), miss(), called(4, True), called(6, False))] == [
        "1:0",
        "9:3",
        "M",
        "4:X",
        "6:-",
    ]


# docs/match-script.md "Options": each whole-number option's range.
RANGES = {
    "claim": (1, 99),
    "claim_a": (1, 99),
    "claim_b": (1, 99),
    "arrows": (1, 9),
    "arrows_a": (1, 9),
    "arrows_b": (1, 9),
    "flips": (0, 9),
    "rounds": (0, 99),
    "games": (1, 9),
    "face_games": (1, 99),
}


@pytest.mark.parametrize("name", sorted(RANGES))
def test_each_option_takes_its_range_and_refuses_past_it(name):
    low, high = RANGES[name]
    fields = [name + "_a", name + "_b"] if name in ("claim", "arrows") else [name]
    for n in (low, high):
        o = Options()
        o.set(name, str(n))
        assert [o.to_dict()[f] for f in fields] == [n] * len(fields)
    for n in (low - 1, high + 1):
        with pytest.raises(ValueError, match="must be %d-%d, not %d" % (low, high, n)):
            Options().set(name, str(n))


def test_games_must_be_odd_and_options_read_back_as_text():
    with pytest.raises(ValueError, match="games must be odd"):
        Options().set("games", "4")
    o = Options()
    assert o.text("equal_turns") == "on" and o.text("claim_a") == "5" and o.text("mode") == "net"
    o.set("equal_turns", "off")
    o.set("rounds", "12")
    assert o.text("equal_turns") == "off" and o.text("rounds") == "12"
    assert Options.from_dict(o.to_dict()).to_dict() == o.to_dict()


def test_rounds_played_counts_a_round_begun():
    m = Match()
    g = m.game
    seen = []
    for ev in [miss()] * 7:  # A's turn, B's turn, one arrow of A's second turn (3 arrows a turn)
        m.apply(ev)
        seen.append((g.round(), g.rounds_played()))
    assert seen == [(1, 1), (1, 1), (1, 1), (1, 1), (1, 1), (2, 1), (2, 2)]


def test_a_flipped_square_is_locked_and_the_refusal_names_it():
    """TTB-8 with one flip a square: A claims 4, B flips it, A may not flip it back."""
    m = Match.replay([hit(4, 3), hit(4, 2), miss(), called(4, True), miss(), miss()])
    g = m.game
    assert g.owner[3] == 1 and g.locked(3)
    assert m.why_not(called(4, True)) == "square 4 is locked: it was flipped"
    assert m.why_not(called(4, False)) == "square 4 is locked: it was flipped"
    assert m.why_not(called(5, True)) == "square 5 is open: call a shot only at a square B owns"


def test_the_turn_range_is_the_turn_under_way_or_the_last_one_once_over():
    m = Match()
    assert m.turn_range() == (0, 0)
    m.apply(hit(1, 3))
    m.apply(hit(1, 2))
    assert m.turn_range() == (0, 2)  # two arrows of A's turn
    m.apply(miss())
    assert m.turn_range() == (3, 3)  # between turns: empty
    # A takes the top row with 5s (claim 5) while B misses; equal turns: B shoots its last
    # turn, then the game (and the best-of-1 match) is over, and the range is B's last turn.
    for ev in [miss()] * 3 + [hit(2, 3), hit(2, 2), hit(3, 3)] + [miss()] * 3 + [hit(3, 2), miss(), miss()]:
        m.apply(ev)
    assert not m.over()
    for ev in [miss()] * 3:
        m.apply(ev)
    assert m.over() and m.turn_range() == (15, 18)


# A game won by A at the top row with 5s (claim 5) while B misses, equal turns (TTB-11)
# letting B shoot its last turn: 18 arrows.
TOP_ROW = (
    [hit(1, 3), hit(1, 2), miss()]
    + [miss()] * 3
    + [hit(2, 3), hit(2, 2), hit(3, 3)]
    + [miss()] * 3
    + [hit(3, 2), miss(), miss()]
    + [miss()] * 3
)


def test_a_new_game_only_once_the_game_is_over_and_the_match_undecided():
    """TTB-14: "A new game starts only once the previous one has ended and the match is still
    undecided"; TTB-15: nothing after the end. Best of 3: refused during game 1, taken after
    it; best of 1: refused once the match is won."""
    o = Options()
    o.set("games", "3")
    m = Match(o)
    for ev in TOP_ROW[:-1]:
        m.apply(ev)
        assert m.why_not(NEW_GAME) == "the game is still on"
    with pytest.raises(Refused, match="the game is still on"):
        m.apply(NEW_GAME)
    m.apply(TOP_ROW[-1])
    assert m.game.over() and m.result() is None and m.why_not(NEW_GAME) is None
    m.apply(NEW_GAME)
    assert len(m.games) == 2 and m.why_not(NEW_GAME) == "the game is still on"

    m = Match.replay(TOP_ROW)  # best of 1: the match is A's
    assert m.result() is not None
    assert m.why_not(NEW_GAME) == "the match is over"
    with pytest.raises(Refused, match="the match is over"):
        m.apply(NEW_GAME)
    assert len(m.games) == 1


def test_an_event_out_of_range_is_named_unknown():
    """TTB-4: an event is an arrow (below 256) or one of the few others; the refusal says
    which number it was, not an arrow kind."""
    assert [check_event(ev) for ev in (-1, 259, 300, 1 << 20)] == [
        "unknown event -1",
        "unknown event 259",
        "unknown event 300",
        "unknown event 1048576",
    ]
    assert check_event(miss() | 1) == "a miss has no square or value" and check_event(UNDO) is None


def test_a_closed_match_leaves_the_faces_wear_saved_on_the_box(tmp_path):
    """TTB-16: the box keeps the face's wear across matches: finished() writes it to the
    box's settings file (box/store.py), which a reboot (a new Store) reads back."""
    store = Store(str(tmp_path))
    finished(store, Match.replay(TOP_ROW))
    again = Store(str(tmp_path))
    assert again.get("face_games") == 1
    assert again.get("face_arrows") == [2, 2, 2, 0, 0, 0, 0, 0, 0]
