"""The journal's behaviour on MicroPython and LittleFS2 (run by tests/both/test_journal_mpy.py).

    micropython -X heapsize=64M tests/mpy/journal_functional.py [CASE ...]

Each case runs on a fresh RAM flash with the Pico's geometry and prints `PASS name` or
`FAIL name: why`.
"""

import path_setup  # noqa: F401  (sys.path, so that the script runs alone)

# isort: split

import gc
import os
import sys

import jt

from box.journal import Journal, JournalFull
from scorebox_core.games.ttb.rules import Match, Options
from scorebox_core.games.ttb.snapshot import snapshot
from scorebox_core.journal import JournalError, Reader, group_first

ROOT = jt.ROOT


class Fail(Exception):
    pass


def want(cond, text):
    if not cond:
        raise Fail(text)


def raises(exc, fn, *args):
    try:
        fn(*args)
    except exc as e:
        return e
    raise Fail("%s did not raise %s" % (fn.__name__, exc.__name__))


def play_into(j, seed, arrows=30, games=1, finish=True, confirm=True):
    evs, m = jt.play(seed, arrows, games)
    n = j.start_match(jt.header(seed, games))
    for ev in evs:
        j.append(ev)
    if finish:
        j.finish(jt.result(m))
        if confirm:
            j.confirm(0)
            j.confirm(1)
    return n, evs, m


def reboot(**kw):
    """A new Journal on the same flash, as after a power cut (the old one is dropped)."""
    j = Journal(ROOT, **kw)
    return j, j.recover()


def fill_junk(root=ROOT, name="junk"):
    """Fill the file system with another file until it is full; returns bytes written."""
    n = 0
    chunk = b"\0" * 512
    f = open(root + "/" + name, "ab")
    try:
        while True:
            f.write(chunk)
            f.flush()
            n += 512
    except OSError:
        pass
    try:
        f.close()
    except OSError:
        pass
    return n


# --- cases ------------------------------------------------------------------------------
def case_resume_to_the_arrow():
    j, rep = reboot()
    want(rep["open"] is None and rep["matches"] == 0, "fresh journal: %r" % rep)
    evs, m = jt.play(3, 30)
    n = j.start_match(jt.header(3))
    for i in range(len(evs)):
        j.append(evs[i])
        if i in (0, 9, len(evs) - 1):
            j2, rep2 = reboot()
            got = j2.open_match()
            want(got is not None and got[0] == n, "open match after %d events: %r" % (i + 1, got))
            want(got[2] == evs[: i + 1], "events after a reboot at %d" % (i + 1))
            want(rep2["open"] == n and rep2["arrows"] == i + 1, "report: %r" % rep2)
            want(got[1] == j.open_match()[1], "header back")
    j.finish(jt.result(m))
    j2, rep2 = reboot()
    want(j2.open_match() is None, "a finished match is not open")
    want(j2.unconfirmed() == (n, jt.result(m), [False, False]), "unconfirmed: %r" % (j2.unconfirmed(),))
    want(rep2["unconfirmed"] == n, "report unconfirmed")
    j2.confirm("B")
    j3, rep3 = reboot()
    want(j3.unconfirmed()[2] == [False, True], "B's confirmation kept")
    j3.confirm(0)
    j3.confirm(0)  # twice is once
    j4, rep4 = reboot()
    want(j4.unconfirmed() is None and rep4["unconfirmed"] is None, "both confirmed")
    h, events, x = j4.read_match(n)
    want(events == evs and x["confirmed"] == [True, True] and x["result"] == jt.result(m), "read back")
    want(not x["open"] and not x["acked"] and x["damaged"] == 0, "extras: %r" % x)


def case_replay_gives_the_same_state():
    j, _ = reboot()
    for seed in (21, 22, 23):
        n, evs, m = play_into(j, seed, 60, games=3)
        h, events, x = j.read_match(n)
        again = Match.replay(events, Options.from_dict(h["options"]))
        want(snapshot(again) == snapshot(m), "match %d replays to another state" % n)
        want(again.log == m.log, "log differs")


def case_api_errors():
    j, _ = reboot()
    raises(JournalError, j.append, 4)
    raises(JournalError, j.finish, {})
    raises(JournalError, j.confirm, 0)
    raises(ValueError, j.start_match, [1, 2])
    n = j.start_match(jt.header(1))
    raises(JournalError, j.start_match, jt.header(2))
    for bad in (-1, 65536, "4", 2.5, None, True):
        raises(ValueError, j.append, bad)
    raises(ValueError, j.confirm, 2)
    raises(ValueError, j.finish, "A won")
    raises(ValueError, j.ack, n)  # still open
    raises(ValueError, j.ack, n + 1)  # no such match
    j.append(256)
    j.append(257)
    j.append(258)
    j.append(65535)
    j.finish({"abandoned": True})
    raises(JournalError, j.read_match, 99)
    h, events, x = j.read_match(n)
    want(events == [256, 257, 258, 65535], "events: %r" % events)
    want(x["result"] == {"abandoned": True}, "abandoned result")


def case_numbers_and_listing():
    j, _ = reboot(group_bytes=1000)
    nums = [play_into(j, s)[0] for s in range(5)]
    want(nums == [1, 2, 3, 4, 5], "numbers %r" % nums)
    n = j.start_match(jt.header(9))
    j.append(4)
    want(j.list_matches() == [1, 2, 3, 4, 5], "open match not listed: %r" % j.list_matches())
    want(j.list_matches(3) == [4, 5], "after 3")
    want(j.last() == 6 and n == 6, "last")
    want([m[0] for m in j.iter_matches(2)] == [3, 4, 5], "iter after 2")
    want(len([f for f in os.listdir(ROOT) if f.endswith(".tbj")]) >= 2, "several group files")
    j2, rep = reboot(group_bytes=1000)
    want(rep["next"] == 7 and rep["matches"] == 6 and rep["open"] == 6, "report %r" % rep)
    for k in (5, 1, 3, 2, 4):  # any order, across files
        want(j2.read_match(k)[1] == j.read_match(k)[1], "match %d" % k)


def case_face_is_kept():
    j, _ = reboot()
    play_into(j, 1)
    f = j.face()
    want(f == (jt.header(1)["face"], 1, True), "face from the header: %r" % (f,))
    j.set_face({"games": 0, "arrows": [0] * 9})
    j2, _ = reboot()
    want(j2.face() == ({"games": 0, "arrows": [0] * 9}, 1, False), "face record: %r" % (j2.face(),))
    h, evs, x = j2.read_match(1)
    want(x["face"] == {"games": 0, "arrows": [0] * 9}, "face with the match")
    j3 = Journal(ROOT + "/other")
    j3.recover()
    j3.set_face({"games": 1})  # before any match
    j4 = Journal(ROOT + "/other")
    j4.recover()
    want(j4.face() == ({"games": 1}, 0, False), "face before any match: %r" % (j4.face(),))
    n = j4.start_match(jt.header(1))
    want(n == 1 and j4.list_matches() == [], "first match after a face record")


def case_notes():
    j, _ = reboot()
    j.start_match(jt.header(1))
    j.note({"time": 12})
    j.append(4)
    j.note("wind")
    h, evs, x = j.read_match(1)
    want(x["notes"] == [{"time": 12}, "wind"] and evs == [4], "notes %r" % x["notes"])


def case_ack_frees_only_acknowledged():
    j, _ = reboot(group_bytes=1200)
    for s in range(12):
        play_into(j, s)
    files = sorted(n for n in os.listdir(ROOT) if n.endswith(".tbj"))
    want(len(files) >= 3, "groups: %r" % files)
    free0 = os.statvfs(ROOT)[3]
    left0 = j.space()["matches_left"]
    second = group_first(files[1])
    freed = j.ack(list(range(1, second - 1)))  # all but the last match of the first group
    want(freed == [] and files[0] in os.listdir(ROOT), "nothing freed yet")
    want(j.acked(1) and not j.acked(second - 1), "acked")
    freed = j.ack(second - 1)
    # issue 13, item 20: kept until the room is needed, so a take-over can still copy it
    want(freed == [] and files[0] in os.listdir(ROOT), "first group kept while there is room: %r" % freed)
    want(j.list_matches()[0] == 1 and j.space()["matches_left"] > left0, "kept, and counted as room")
    j2, rep = reboot(group_bytes=1200)
    want(rep["freed"] == [] and j2.acked(1) and j2.acked(second - 1) and not j2.acked(second), "acks kept")
    j2.ack(range(1, 13))
    want(sorted(n for n in os.listdir(ROOT) if n.endswith(".tbj")) == files, "all kept while there is room")
    want(j2.space()["unacked"] == 0, "nothing unacked")
    junk = fill_junk()  # now a new match needs the room: acknowledged groups go, oldest first, the newest kept
    n = j2.start_match(jt.header(5))
    want(n == 13, "numbers go on: %d" % n)
    left = sorted(n for n in os.listdir(ROOT) if n.endswith(".tbj"))
    want(files[0] not in left and files[-1] in left, "freed when needed: %r" % left)
    raises(JournalError, j2.read_match, 1)
    os.remove(ROOT + "/junk")
    want(junk > 0 and os.statvfs(ROOT)[3] > free0 - 4, "space freed")
    j3, rep3 = reboot(group_bytes=1200)
    want(rep3["next"] == 14 and j3.open_match()[0] == 13, "after freeing: %r" % rep3)


def case_ack_survives_everything_freed():
    j, _ = reboot(group_bytes=600)
    for s in range(6):
        play_into(j, s)
    j.ack(range(1, 7))
    play_into(j, 7)  # a new group: the old newest may now go
    j.ack(7)
    j2, rep = reboot(group_bytes=600)
    want(rep["next"] == 8, "numbering kept by the ack file: %r" % rep)
    want(j2.start_match(jt.header(1)) == 8, "next number")


def case_interrupted_replacements():
    j, _ = reboot()
    play_into(j, 1)
    j.ack(1)
    j.close()
    for name in ("g000001.tbj.tmp", "journal.ack.tmp", "settings.json.tmp", "journal.rsv.tmp"):
        with open(ROOT + "/" + name, "wb") as f:
            f.write(b"half")
    with open(ROOT + "/g000002.tbj", "wb"):
        pass  # created, then the power went before its first record
    j2, rep = reboot()
    names = os.listdir(ROOT)
    want("settings.json.tmp" in names, "another module's temporary file is not the journal's")
    for gone in ("g000001.tbj.tmp", "journal.ack.tmp", "journal.rsv.tmp", "g000002.tbj"):
        want(gone not in names, "%s left" % gone)
    want(sorted(rep["removed"]) == ["g000001.tbj.tmp", "g000002.tbj", "journal.ack.tmp", "journal.rsv.tmp"], "%r" % rep)
    want(j2.acked(1) and j2.read_match(1)[1] == jt.play(1)[0], "data intact")


def case_corrupt_ack_file():
    j, _ = reboot(group_bytes=600)
    for s in range(4):
        play_into(j, s)
    j.ack(range(1, 4))
    with open(ROOT + "/journal.ack", "rb") as f:
        data = bytearray(f.read())
    data[3] ^= 0x10
    with open(ROOT + "/journal.ack", "wb") as f:
        f.write(data)
    j2, rep = reboot(group_bytes=600)
    want(rep["damage"] and rep["damage"][0]["file"] == "journal.ack", "ack damage reported: %r" % rep)
    want(rep["quarantined"] == len(data) and "journal.qtn" in os.listdir(ROOT), "ack bytes kept: %r" % rep)
    want(not j2.acked(4) and j2.list_matches()[-1] == 4, "nothing lost")
    want(j2.start_match(jt.header(1)) == 5, "numbering from the files")


def case_space_and_warning():
    j, _ = reboot()
    sp = j.space()
    for k in ("free", "matches_left", "percent_full", "warn", "full", "per_match", "stored", "unacked"):
        want(k in sp, "space() has %s" % k)
    want(sp["matches_left"] >= 5000 and not sp["warn"] and not sp["full"], "empty: %r" % sp)
    for s in range(10):
        play_into(j, s)
    sp2 = j.space()
    want(sp2["stored"] == 10 and sp2["unacked"] == 10, "counts %r" % sp2)
    want(150 <= sp2["per_match"] <= 256, "per match %r" % sp2)
    # fill with something else to ~92%: the journal warns but still starts matches
    total = sp2["blocks"]
    with open(ROOT + "/junk", "wb") as f:
        while (total - os.statvfs(ROOT)[3]) * 100 < 92 * total:
            f.write(b"\0" * 4096)
            f.flush()
    sp3 = j.space()
    want(sp3["warn"] and not sp3["full"] and sp3["percent_full"] >= 90, "warn at 90%%: %r" % sp3)
    play_into(j, 11)


def case_full_refuses_a_new_match():
    j, _ = reboot()
    for s in range(3):
        play_into(j, s)
    fill_junk()
    e = raises(JournalFull, j.start_match, jt.header(1))
    want("storage full" in str(e) and "3 matches" in str(e), "reason: %s" % e)
    sp = j.space()
    want(sp["full"] and sp["warn"] and sp["matches_left"] == 0 and sp["percent_full"] == 100, "%r" % sp)
    j2, rep = reboot()
    want(j2.list_matches() == [1, 2, 3], "matches intact")
    os.remove(ROOT + "/junk")
    want(j2.start_match(jt.header(4)) == 4, "room again")


def case_full_never_loses_the_match():
    j, _ = reboot()
    play_into(j, 1)
    n = j.start_match(jt.header(2))
    evs, m = jt.play(2, 30)
    for ev in evs[:5]:
        j.append(ev)
    fill_junk()  # another part of the firmware fills the flash behind the journal's back
    for ev in evs[5:]:
        j.append(ev)
    extra = []
    for i in range(1500):  # a very long match: 1500 more arrows, past a block's end
        ev = ((i % 9) + 1) << 2
        j.append(ev)
        extra.append(ev)
    j.finish(jt.result(m))
    j.confirm(0)
    j.confirm(1)
    want("journal.rsv" not in os.listdir(ROOT), "the ballast was used")
    j2, rep = reboot()
    h, got, x = j2.read_match(n)
    want(got == evs + extra and x["confirmed"] == [True, True], "the match is whole")
    e = raises(JournalFull, j2.start_match, jt.header(3))
    want("storage full" in str(e), "reason %s" % e)
    os.remove(ROOT + "/junk")
    want(j2.start_match(jt.header(3)) == 3, "starts once there is room")
    want("journal.rsv" in os.listdir(ROOT), "ballast made again")


def case_fill_with_matches_then_ack():
    # a small flash (48 blocks) filled with matches only
    jt.umount()
    jt.fresh(blocks=48)
    j, _ = reboot()
    n = 0
    warned_at = None
    while True:
        try:
            play_into(j, n)
        except JournalFull as e:
            reason = str(e)
            break
        n += 1
        if n == 20:  # by now the journal knows what a match takes here
            predicted = n + j.space()["matches_left"]
        if warned_at is None and j.space()["warn"]:
            warned_at = n
        want(n < 2000, "never full")
    want(warned_at is not None and warned_at < n, "warned before full (%r of %d)" % (warned_at, n))
    # The prediction counts 256 bytes a match unless the box's own average is larger
    # (docs/journal.md "Capacity"): never above what fits, and no more than a fifth below it
    # with these matches (about 213 bytes each: 628 predicted, 721 fit on 48 blocks).
    want(predicted <= n and predicted * 5 >= n * 4, "predicted %d matches, %d fit" % (predicted, n))
    want(("%d matches" % n) in reason, reason)
    for k, _h, evs, _x in j.iter_matches():
        want(evs == jt.play(k - 1)[0], "match %d" % k)
    j.ack(range(1, n + 1))
    want(j.space()["matches_left"] > 0, "room after the PC took them")
    play_into(j, 1)
    j2, rep = reboot()
    want(rep["next"] == n + 2, "report %r" % rep)


def case_readonly_writes_nothing():
    j, _ = reboot(group_bytes=800)
    for s in range(4):
        play_into(j, s)
    j.start_match(jt.header(5))
    j.append(4)
    j.close()
    before = dev.writes + dev.erases
    r = Reader(ROOT)
    rep = r.recover()
    want(rep["open"] == 5, "%r" % rep)
    want([m[0] for m in r.iter_matches()] == [1, 2, 3, 4], "reads")
    r.read_match(2)
    r.verify()
    want(not hasattr(r, "append") and not hasattr(r, "ack"), "the reader has no writing calls")
    want(dev.writes + dev.erases == before, "read-only wrote to the flash")


CASES = [name for name in sorted(globals()) if name.startswith("case_")]
dev = None


def main(names):
    global dev
    for name in names or CASES:
        dev = jt.fresh()
        try:
            globals()[name]()
            print("PASS %s" % name[5:])
        except Exception as e:
            print("FAIL %s: %s %s" % (name[5:], type(e).__name__, e))
        try:
            jt.umount()
        except OSError:
            pass
        dev = None
        gc.collect()


main(["case_" + a for a in sys.argv[1:]])
