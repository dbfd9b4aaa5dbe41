"""Helpers for the journal scripts that run on MicroPython (tests/mpy/journal_*.py*.py).

They also import under CPython (nothing here needs `vfs` until a file system is made),
so the same matches can be built on both sides.
"""

import json

from scorebox_core.games.ttb.rules import NEW_GAME, UNDO, Match, Options, hit, miss, side_name

ROOT = "/flash"

NAMES = ("Annabel", "Benjamin", "Cat", "Dmitri", "Eve", "Farida")


# The Pico's own LittleFS2 settings: rp2's _boot.py formats and mounts its flash with
# VfsLfs2(bdev, progsize=256) (readsize 32, lookahead 32: the defaults).
PROGSIZE = 256


def fresh(root=ROOT, blocks=352, block_size=4096):
    """A formatted RAM flash with the Pico's geometry, mounted at root as the Pico does."""
    import vfs

    from vpico.blockdev import RamBlockDev

    dev = RamBlockDev(blocks=blocks, block_size=block_size)
    vfs.VfsLfs2.mkfs(dev, progsize=PROGSIZE)
    mount(dev, root)
    return dev


def mount(dev, root=ROOT):
    import vfs

    vfs.mount(vfs.VfsLfs2(dev, progsize=PROGSIZE), root)


def umount(root=ROOT):
    import vfs

    vfs.umount(root)


class Lcg:
    """The same pseudo-random numbers on both interpreters."""

    def __init__(self, seed):
        self.x = seed & 0x7FFFFFFF

    def next(self):
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return self.x >> 8


def header(seed=1, games=1, face_games=2):
    o = Options()
    o.games = games
    r = Lcg(seed)
    a = NAMES[r.next() % len(NAMES)]
    b = NAMES[r.next() % len(NAMES)]
    return {
        "options": o.to_dict(),
        "archers": [[a], [b]],
        "distance": [20, 18],
        "unit": "yd",
        "shaft_mm": [7.0, 7.5],
        "face": {"games": face_games, "arrows": [3, 4, 5, 6, 7, 8, 9, 10, 11]},
        "clock": 1780000000 + seed,
    }


def play(seed, arrows=30, games=1, undo=True, face=True):
    """A legal match of about `arrows` arrows: (events, match). Mostly hits of 1-3, some
    misses, an undo and a new face now and then, new games as needed."""
    o = Options()
    o.games = games
    m = Match(o)
    r = Lcg(seed)
    evs = []
    shot = 0
    while shot < arrows and not m.over():
        x = r.next()
        if m.game.over():
            ev = NEW_GAME
        elif undo and x % 19 == 0 and m.events and m.log[-1] != UNDO:
            ev = UNDO
        elif face and x % 37 == 0:
            ev = 258  # NEW_FACE
        elif x % 11 == 0:
            ev = miss()
        else:
            ev = hit(x % 9 + 1, 1 + (x >> 5) % 3)
        if m.why_not(ev) is None:
            m.apply(ev)
            evs.append(ev)
            if ev < 256:
                shot += 1
    return evs, m


def result(m):
    games = []
    for g in m.games:
        games.append({"winner": side_name(g.winner), "reason": g.reason, "arrows": len(g.arrows)})
    return {"winner": side_name(m.result()), "wins": [m.wins[0], m.wins[1]], "draws": m.draws, "games": games}


def typical(seed):
    """A typical match: header, events (30 arrows), result."""
    evs, m = play(seed)
    return header(seed), evs, result(m)


def write(j, h, evs, res):
    """A whole match into journal j: header, events, result, both confirmations."""
    j.start_match(h)
    for ev in evs:
        j.append(ev)
    j.finish(res)
    j.confirm(0)
    j.confirm(1)


def view(j, after=0):
    """Everything the journal tells about itself (matches <= after left out), for comparing
    two journals."""
    ms = []
    for n, h, evs, x in j.iter_matches(after):
        ms.append([n, h, evs, x["result"], x["confirmed"], x["notes"], x["face"], x["damaged"], x["stray"], x["acked"]])
    last = j.last()
    return {
        "matches": ms,
        "open": j.open_match(),
        "unconfirmed": j.unconfirmed(),
        "face": j.face(),
        "last": last,
        "acked": [j.acked(n) for n in range(1, last + 1)],
        "listed": j.list_matches(after),
    }


def canon(v):
    """A string that is the same for equal values on both interpreters (dict keys sorted,
    tuples as lists)."""
    if isinstance(v, dict):
        keys = sorted(v, key=lambda k: repr(k))
        return "{" + ",".join(canon(k) + ":" + canon(v[k]) for k in keys) + "}"
    if isinstance(v, (list, tuple)):
        return "[" + ",".join(canon(x) for x in v) + "]"
    if isinstance(v, float):
        return "%.3f" % v
    if isinstance(v, bytes):
        return "b" + repr(list(v))
    return repr(v)


def emit(obj):
    print("RESULT " + json.dumps(obj))
