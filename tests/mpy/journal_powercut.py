"""Power cut at every block write of a full match, on LittleFS2 (run by tests/both/test_journal_powercut.py).

    micropython -X heapsize=64M tests/mpy/journal_powercut.py [group_bytes [prefill [progsize]]]

1. Record: a fresh LittleFS2 on the RAM flash; the journal starts, a typical match is
   played, a best-of-3 match follows, results are confirmed, the face recorded, matches
   acknowledged (deleting a group file), and a new match begins. With PREFILL, the
   journal already holds that many matches (its newest group file spans several blocks). Every erase and program
   the file system does is recorded, and after each journal call returns, the journal's
   whole view of itself (what iter_matches, open_match ... say) is noted.
2. Replay: for every operation k, the flash as it was just before it (and again with the
   operation half done) is mounted, recovered, and its view must equal the view after the
   calls that had returned (or after the call in flight too): every committed arrow is
   there and nothing else changed. No byte may need setting aside. Then the recovered
   journal must take one more write (an arrow, or a new match) and read it back.

Prints one line `RESULT {json}`.
"""

import path_setup  # noqa: F401  (sys.path, so that the script runs alone)

# isort: split

import binascii
import os
import sys
import time

import jt
import vfs

from box.journal import Journal
from vpico.blockdev import RamBlockDev

GROUP_BYTES = int(sys.argv[1]) if len(sys.argv) > 1 else 700
PREFILL = int(sys.argv[2]) if len(sys.argv) > 2 else 0  # matches already kept (not cut)
if len(sys.argv) > 3:
    jt.PROGSIZE = int(sys.argv[3])  # 256 as on the Pico; 32 (the default) programs smaller pieces
CUT = "/cut"


def scenario():
    """The journal calls, as (name, argument)."""
    calls = [("recover", None)]
    h, evs, res = jt.typical(7)
    calls.append(("start_match", h))
    for ev in evs:
        calls.append(("append", ev))
    calls += [("finish", res), ("confirm", 0), ("confirm", 1), ("set_face", {"games": 3, "arrows": [1] * 9})]
    evs, m = jt.play(11, arrows=45, games=3)
    calls.append(("start_match", jt.header(11, games=3)))
    for ev in evs:
        calls.append(("append", ev))
    calls += [("finish", jt.result(m)), ("confirm", 1), ("confirm", 0), ("ack", 1), ("ack", PREFILL + 2)]
    h, evs, res = jt.typical(12)
    calls.append(("start_match", h))
    for ev in evs[:3]:
        calls.append(("append", ev))
    return calls


def call(j, name, arg):
    if name == "recover":
        j.recover()
    else:
        getattr(j, name)(arg)


def prefill():
    j = Journal(jt.ROOT, group_bytes=GROUP_BYTES)
    j.recover()
    for i in range(PREFILL):
        jt.write(j, *jt.typical(1000 + i))
    j.close()


def record(dev):
    ops = []

    def hook(d, block, offset, data):
        ops.append((block, offset, None if data is None else bytes(data)))

    j = Journal(jt.ROOT, group_bytes=GROUP_BYTES)
    views = [None]  # views[0]: before the journal was ever opened (an empty directory)
    done = []  # done[i]: operations recorded when call i returned
    dev.on_write = hook
    for name, arg in scenario():
        call(j, name, arg)
        done.append(len(ops))
        dev.on_write = None
        views.append(state(j))
        dev.on_write = hook
    dev.on_write = None
    j.close()
    return ops, done, views


def prefix_crcs(root):
    """{file name: (size, crc32)} of every file in root: what the prefilled journal was."""
    out = {}
    for name in os.listdir(root):
        with open(root + "/" + name, "rb") as f:
            data = f.read()
        out[name] = (len(data), binascii.crc32(data))
    return out


def prefix_changed(root, before):
    """Names of the files whose first bytes (as long as they were) changed."""
    bad = []
    for name in before:
        size, crc = before[name]
        try:
            with open(root + "/" + name, "rb") as f:
                data = f.read(size)
        except OSError:
            continue  # deleted: the views say whether that was right
        if name != "journal.ack" and binascii.crc32(data) != crc:
            bad.append(name)
    return bad


def state(j):
    """(canonical text of the journal's view, events it holds)."""
    v = jt.view(j, PREFILL)
    n = 0
    for m in v["matches"]:
        n += len(m[2])
    if v["open"]:
        n += len(v["open"][2])
    return jt.canon(v), n


def main():
    t0 = time.ticks_ms()
    dev = jt.fresh()
    prefill()
    before = prefix_crcs(jt.ROOT)
    base = dev.snapshot()
    ops, done, views = record(dev)
    jt.umount()
    views[0] = views[1]  # recovering an empty directory = the journal just opened
    cur = RamBlockDev(data=base)
    scratch = RamBlockDev(data=base)
    failures = []
    cuts = 0
    lost = 0
    continued = 0
    calls_done = 0
    for k in range(len(ops) + 1):
        while calls_done < len(done) and done[calls_done] <= k:
            calls_done += 1
        for part in (0, 0.5) if k < len(ops) else (0,):
            scratch.data[:] = cur.data
            if part:
                b, o, d = ops[k]
                scratch.apply(b, o, d, part)
            cuts += 1
            jt.mount(scratch, CUT)
            try:
                j = Journal(CUT, group_bytes=GROUP_BYTES)
                rep = j.recover()
                v, nv = state(j)
                ok = v == views[calls_done][0] or (calls_done + 1 < len(views) and v == views[calls_done + 1][0])
                changed = prefix_changed(CUT, before)
                if not ok or rep["quarantined"] or rep["damage"] or changed:
                    lost += max(0, views[calls_done][1] - nv)
                    if len(failures) < 5:
                        failures.append(
                            {"op": k, "part": part, "calls_done": calls_done, "report": rep, "changed": changed}
                        )
                else:
                    # the recovered journal goes on: one more record, read back
                    o = j.open_match()
                    if o:
                        j.append(4)
                        again = Journal(CUT, group_bytes=GROUP_BYTES)
                        again.recover()
                        if again.open_match()[2] != o[2] + [4]:
                            failures.append({"op": k, "part": part, "continue": "append lost"})
                    elif j.unconfirmed() is None:
                        n = j.start_match(jt.header(99))
                        again = Journal(CUT, group_bytes=GROUP_BYTES)
                        again.recover()
                        if not again.open_match() or again.open_match()[0] != n:
                            failures.append({"op": k, "part": part, "continue": "start lost"})
                    continued += 1
                j.close()
            except Exception as e:
                failures.append({"op": k, "part": part, "error": repr(e)})
            vfs.umount(CUT)
        if k < len(ops):
            b, o, d = ops[k]
            cur.apply(b, o, d)
    progs = len([1 for op in ops if op[2] is not None])
    jt.emit(
        {
            "cuts": cuts,
            "ops": len(ops),
            "programs": progs,
            "erases": len(ops) - progs,
            "calls": len(done),
            "arrows": views[-1][1],
            "failures": failures,
            "lost_arrows": lost,
            "continued": continued,
            "ms": time.ticks_diff(time.ticks_ms(), t0),
        }
    )


main()
