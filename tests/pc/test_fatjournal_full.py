"""box/journal.py's room on FAT, under CPython with its FAT flag set (docs/journal.md "On FAT"):
a group closes after the same match whether the box rebooted in it or not, the space figure's
matches per group and in the newest group are never more than fit, and a match that runs past
its copy's room is refused in a sentence, the match kept. A full drive (statvfs, which the PC's
folder cannot fake) is tests/cp/test_cp_journal_full.py's, on the emulated CircuitPython."""

import pytest

from box.fat import group
from scorebox_core import fatlayout
from scorebox_core.journal import JournalError

pytest_plugins = ("fatdrive",)  # on_fat: the journal's FAT flag set

HEADER = {"options": {"games": 3}, "archers": ["Ann", "Bob"], "distance": 18, "unit": "m"}
EVENTS = [5, 70, 9, 137, 14, 256, 14, 200, 33, 258, 7, 96]


@pytest.fixture
def ring_slots():
    """A drive with no room for the journal's ring of slots (box/fat/ring.py's Ring; its own
    tests are tests/pc/test_fatjournal_slots.py): its groups as files, each in two copies."""
    return 0


def _match(j, events=EVENTS):
    j.start_match(HEADER)
    for e in events:
        j.append(e)
    j.finish({"winner": "A", "games": [2, 1]})
    j.confirm(0)
    j.confirm(1)


# Groups of 6 KiB (about 70 of these matches; 16 KiB on the box): 4 KiB short would show as
# well, and the test makes a third of the matches (it made 380, 49 s in the full suite)
GROUP = 6144


def _first_of_second_group(journal, folder, reboot):
    """The number of the match that opened the second group (reboot: a boot after each match)."""
    j = journal.Journal(str(folder), group_bytes=GROUP)
    j.recover()
    while len(j._groups) < 2:
        _match(j)
        if reboot:
            j.close()
            j = journal.Journal(str(folder), group_bytes=GROUP)
            j.recover()
    j.close()
    return j._groups[1]


def test_a_group_closes_after_the_same_match_with_or_without_a_reboot(tmp_path, on_fat):
    # After a boot the newest group's size is its records' end in the copy, after its 4 KiB pad:
    # counted from there, as while it was written, not 4 KiB short.
    straight = _first_of_second_group(on_fat, tmp_path / "a", False)
    rebooted = _first_of_second_group(on_fat, tmp_path / "b", True)
    assert rebooted == straight > 50


def test_the_space_figure_never_promises_more_matches_than_fit(tmp_path, on_fat):
    j = on_fat.Journal(str(tmp_path))
    j.recover()
    for _ in range(10):
        _match(j)
    per = j.space()["per_match"]
    bs = 512
    need = group.need(bs)
    assert need == 2 * fatlayout.COPY // bs + fatlayout.SPARE // bs
    in_group = group.matches_left(j, bs, need - 1, per)  # no room for a new group's copies
    one_more = group.matches_left(j, bs, need, per) - in_group  # room for one
    assert group.matches_left(j, bs, need + 2 * fatlayout.COPY // bs, per) == in_group + 2 * one_more
    fit = _first_of_second_group(on_fat, tmp_path, False) - 11  # the matches this group still took
    assert 0 < in_group <= fit, (in_group, fit)
    per_group = _first_of_second_group(on_fat, tmp_path / "c", False) - 1
    assert 0 < one_more <= per_group and one_more * 4 >= per_group, (one_more, per_group)  # low, not far


def test_a_match_past_its_copys_room_is_refused_in_a_sentence_and_kept(tmp_path, on_fat):
    j = on_fat.Journal(str(tmp_path))
    j.recover()
    j.start_match(HEADER)
    n = 0
    with pytest.raises(JournalError) as e:
        while True:
            j.append(5)
            n += 1
    why = str(e.value)
    assert why == "match too long: its file is full; the last entry was not saved"
    assert n > fatlayout.ROOM // 3 - 100
    from box.ui import wrap  # what box/app.py shows: "error: " and the sentence, on home.Message's 5 lines

    assert len(wrap("error: " + why)) <= 5
    with pytest.raises(JournalError):  # again, not a crash: nothing written
        j.append(5)
    assert len(j.open_match()[2]) == n
    j.close()
    j = on_fat.Journal(str(tmp_path))
    rep = j.recover()
    assert rep["damage"] == [] and rep["open"] == 1 and rep["arrows"] == n
    a, b = (tmp_path / "g000001.tbj").read_bytes(), (tmp_path / fatlayout.MIRROR / "g000001.tbj").read_bytes()
    assert a == b and len(a) == fatlayout.COPY
