"""A club's store filled fast: realistic matches (tests/support/corpus.py's archer model, played
with the rules core) written straight into a Store with add_matches in big batches, as
sync would store them, without a box in between. For the report tests and the 100k bench.

The matches come from a few boxes; each box carries the wear of its face from match to
match in the header ("face": {"games", "arrows"}, as box/session.py writes it) and puts up
a new face when the box suggests one (TTB-16). One match in ten is a team match.
"""

import random
import time

from corpus import match_events

from scorebox.store.sqlite import Store
from scorebox_core.games.ttb import rules

ROSTER = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]
DEVICES = ["e6614103e7a1b2c3", "e6614103e7d4e5f6"]
T0 = 1780000000  # the first match's clock (before tests/support/handmatches.py's)


def match_items(count, seed=0, devices=DEVICES, roster=ROSTER):
    """Yield (device uid, (number, header, log, extras)) for `count` matches, in the order the
    boxes played them (clock rising)."""
    rnd = random.Random(seed)
    faces = {uid: rules.Face() for uid in devices}
    numbers = {uid: 0 for uid in devices}
    clock = T0
    for i in range(count):
        uid = devices[i % len(devices)]
        face = faces[uid]
        if face.games >= rules.Options().face_games:
            face = rules.Face()  # a new face put up between matches, at the box's suggestion
        opts, _, m = match_events(seed * 1000003 + i, face.games)
        # match_events starts from a face with these games and no arrows: carry the arrows.
        arrows = list(m.face.arrows)
        if rules.NEW_FACE not in m.events:
            arrows = [a + b for a, b in zip(face.arrows, arrows)]
        if rnd.random() < 0.1:
            names = rnd.sample(roster, 3)
            archers = [names[:2], names[2:]]
        else:
            archers = [[n] for n in rnd.sample(roster, 2)]
        clock += rnd.randrange(600, 5400)
        header = {
            "options": opts.to_dict(),
            "archers": archers,
            "distance": [20, 20],
            "unit": "yd",
            "shaft_mm": [7.0, 7.0],
            "face": {"games": face.games, "arrows": list(face.arrows)},
            "clock": clock,
        }
        faces[uid] = rules.Face(m.face.games, arrows)
        numbers[uid] += 1
        result = {
            "winner": rules.side_name(m.result()),
            "wins": [m.wins[0], m.wins[1]],
            "draws": m.draws,
            "games": [
                {"winner": rules.side_name(g.winner), "reason": g.reason, "arrows": len(g.arrows)} for g in m.games
            ],
        }
        yield uid, (numbers[uid], header, list(m.log), {"result": result, "confirmed": True})


def generate(path, count, seed=0, batch=2000, progress=None, devices=DEVICES):
    """Fill the store at path with `count` matches of the boxes devices; returns the seconds it took."""
    t0 = time.perf_counter()
    store = Store(path)
    pending = {}
    done = 0
    for uid, item in match_items(count, seed, devices=devices):
        pending.setdefault(uid, []).append(item)
        if len(pending[uid]) >= batch:
            done += _flush(store, uid, pending.pop(uid))
            if progress:
                progress(done)
    for uid, items in pending.items():
        done += _flush(store, uid, items)
    store.close()
    return time.perf_counter() - t0


def _flush(store, uid, items):
    got = store.add_matches(uid, items)
    bad = [r for r in got if r is not True]
    if bad:
        raise RuntimeError("the store refused generated matches: %s" % bad[:3])
    return len(items)
