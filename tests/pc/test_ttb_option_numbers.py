"""Tic Tac BOW's whole-number options (docs/match-script.md, Options) read from text: what
is not a whole number is refused in one line naming the option and the text, at every
option (a range's ends are pinned in test_mutation_ttb.py)."""

import pytest

from scorebox_core.games.ttb.rules import Options

NAMES = ["claim", "claim_a", "claim_b", "arrows", "arrows_a", "arrows_b", "flips", "rounds", "games", "face_games"]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("text", ["x", "1.5", "", "3 arrows"])
def test_an_option_that_is_not_a_whole_number_is_refused(name, text):
    o = Options()
    before = o.to_dict()
    with pytest.raises(ValueError) as e:
        o.set(name, text)
    first = name + "_a" if name in ("claim", "arrows") else name
    assert str(e.value) == "%s must be a whole number, not %r" % (first, text)
    assert o.to_dict() == before
