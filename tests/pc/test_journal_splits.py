"""The journal's reader (firmware/scorebox_core/journal.py, docs/journal.md) where damage
ran matches together: the match cut off keeps its events before the damage, its result and
confirmations going to the part after, its bytes ending where the damage began; damage after
a sound result followed by a match that lost its header does not count against that match's
own split; a Reader asked for every match first reads the journal itself; a group file's
name is `g` and digits only."""

from journalfold import fold

from scorebox_core import records as R
from scorebox_core.journal import EXTRAS, Reader, group_first

RESULT = R.value_record(R.RESULT, {"winner": "B"})


class File:
    def __init__(self, first):
        self.data = bytearray(R.group_record(first))
        self.at = {}

    def add(self, rec, name=None):
        if name:
            self.at[name] = len(self.data)
        self.data += rec
        return self


def base(**kw):
    x = {"result": None, "confirmed": [False, False], "notes": [], "face": None, "damaged": 0, "stray": 0}
    x["header_lost"] = False
    x.update(kw)
    return x


def test_a_match_run_into_the_next_gives_it_its_result_confirmations_and_bytes():
    """Damage took match 1's result and match 2's header; match 2 was confirmed by both."""
    f = File(1).add(R.match_record(1, {"n": 1}), "m1").add(R.event_record(1)).add(R.event_record(2))
    f.add(b"\x00" * 40, "bad").add(R.event_record(3), "e3").add(R.event_record(4)).add(RESULT)
    f.add(R.confirm_record(0)).add(R.confirm_record(1)).add(R.match_record(3, {"n": 3}), "m3")
    out = fold(f.data, 1)[0]
    assert [m[:3] for m in out] == [[1, {"n": 1}, [1, 2]], [2, {}, [3, 4]], [3, {"n": 3}, []]]
    assert out[0][EXTRAS] == base(damaged=1, offset=f.at["m1"], end=f.at["bad"])
    assert out[1][EXTRAS] == base(
        result={"winner": "B"}, confirmed=[True, True], damaged=1, header_lost=True, offset=f.at["bad"], end=f.at["m3"]
    )


def test_two_matches_lost_between_headers_end_the_first_at_the_first_damage():
    f = File(1).add(R.match_record(1, {"n": 1}), "m1").add(R.event_record(1))
    f.add(b"\x00" * 40, "bad1").add(R.event_record(2), "e2").add(b"\x00" * 50, "bad2").add(R.event_record(3))
    f.add(RESULT).add(R.match_record(4, {"n": 4}), "m4")
    out = fold(f.data, 1)[0]
    assert [(m[0], m[2]) for m in out] == [(1, [1]), (2, [2]), (3, [3]), (4, [])]
    assert [(m[EXTRAS]["offset"], m[EXTRAS]["end"]) for m in out[:3]] == [
        (f.at["m1"], f.at["bad1"]),
        (f.at["bad1"], f.at["bad2"]),
        (f.at["bad2"], f.at["m4"]),
    ]


def test_damage_after_a_sound_result_does_not_shorten_the_next_matchs_split():
    """Match 1 ends soundly; damage takes match 2's header (match 2 is read header-lost), then
    damage inside match 2 takes its result and match 3's header: 2 and 3 are still told apart."""
    f = File(1).add(R.match_record(1, {"n": 1})).add(R.event_record(1)).add(RESULT)
    f.add(b"\x00" * 30).add(R.event_record(2), "e2").add(R.event_record(3))
    f.add(b"\x00" * 40, "bad").add(R.event_record(4)).add(R.event_record(5)).add(RESULT)
    f.add(R.match_record(4, {"n": 4}), "m4")
    out = fold(f.data, 1)[0]
    assert [(m[0], m[2], m[EXTRAS]["result"], m[EXTRAS]["header_lost"]) for m in out] == [
        (1, [1], {"winner": "B"}, False),
        (2, [2, 3], None, True),
        (3, [4, 5], {"winner": "B"}, True),
        (4, [], None, False),
    ]
    assert (out[1][EXTRAS]["offset"], out[1][EXTRAS]["end"]) == (f.at["e2"], f.at["bad"])


def test_every_match_is_read_by_a_reader_not_yet_asked_anything(tmp_path):
    f = File(1)
    for n in (1, 2):
        f.add(R.match_record(n, {"n": n})).add(R.event_record(n)).add(RESULT)
    f.add(R.match_record(3, {"n": 3})).add(R.event_record(3))
    (tmp_path / "g000001.tbj").write_bytes(bytes(f.data))
    got = [(n, h, ev) for n, h, ev, _ in Reader(str(tmp_path) + "/").iter_matches()]
    assert got == [(1, {"n": 1}, [1]), (2, {"n": 2}, [2])]  # 3 is open: not a kept match yet


def test_a_group_file_name_is_g_and_digits_only():
    assert group_first("g000012.tbj") == 12 and group_first("g1000012.tbj") == 1000012
    for name in ("gx00012.tbj", "g-00012.tbj", "g+00012.tbj", "gg00012.tbj", "g 000012.tbj"):
        assert group_first(name) is None, name
