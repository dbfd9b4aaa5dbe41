"""`scorebox sync`: bring the box's new matches into the store, then tidy the box.

Order matters for "nothing lost, nothing doubled": a match is acknowledged to the box
(which may then free its space) only after the store has committed it, and the store
refuses a second copy of (device, number). A cable pulled at any point leaves either the
match on the box, or in the store and on the box (acknowledged at the next sync).

The parts: protocol.py (the session with the box), plan.py (the journal's plan),
storing.py (storing and acknowledging), summary.py (what the sync says).
"""

import time

from scorebox.device import space
from scorebox.sync import protocol
from scorebox.sync.plan import Plan
from scorebox.sync.storing import Acker, box_digests, quarantined, store_files
from scorebox.sync.summary import Progress, Summary
from scorebox_core.journal import QUARANTINE_FILE


def sync(client, store, roster=True, clock=True, progress_stream=None, take_over=False):
    """Pull every match the store lacks, store it, acknowledge it; import the quarantine
    file; set the clock and push the roster. Returns a Summary. A box that belongs to
    another store (HELLO's store), unless take_over, gives every match it holds,
    acknowledged by its store or not (LIST's "all"): copied, none acknowledged, its roster
    read and left as it is."""
    t0 = time.monotonic()
    s = Summary()
    hello = protocol.start(client, clock)
    uid = s.heard(hello)
    store.device(uid, s.firmware)
    owner = _owner(store.identity(), hello.get("store"), take_over, s)
    # The box learns its store before it lists (an ACK without a run): taken over, it lists
    # again what the store before acknowledged and it has kept (box/link.py).
    claim = owner if owner is not None and hello.get("store") != owner["store"] else None
    numbers, files, names = protocol.listing(client, claim, roster, owner is None)
    p = Plan(files, numbers)
    p.settle(store, uid, box_digests(p, lambda name, size: protocol.read_file(client, name, size)), s)
    bar = Progress(len(p.new), progress_stream)
    acks = Acker(s, owner)
    store_files(client, store, uid, p, s, acks, bar)
    s.roster, s.space = protocol.finish(client, store, acks, roster, names, owner is not None)
    bar.end()
    s.unsettled(p.new, p.held, acks.given)
    for name, size in files:
        if name == QUARANTINE_FILE and size:
            s.quarantined += store.add_quarantine(uid, quarantined(protocol.read_file(client, name, size)))
    if s.space is None:
        s.space = protocol.space_of(hello)
    if s.space:  # the Boxes page's capacity
        store.keep_space(uid, *space.kept(s.space))
    s.seconds = time.monotonic() - t0
    return s


def _owner(sid, mine, take_over, s):
    """What the sync's ACKs say of the store (sid: this store's id; mine: the one the box
    belongs to, None: none yet), or None when it acknowledges nothing: the box is another
    store's and not taken over (s says which)."""
    owner = {"store": sid}
    if mine is not None and mine != sid:
        if not take_over:
            s.foreign = str(mine)[:32]
            return None
        owner["take_over"] = True
        s.taken_from = str(mine)[:32]
    return owner
