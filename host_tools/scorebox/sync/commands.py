"""`scorebox sync` (over the sync link, or --raw with mpremote) and `scorebox matches`."""

import json
import time

from scorebox.device import link
from scorebox.store.db import open_store
from scorebox.sync import pull, rescue


def cmd_sync(args):
    store = open_store(args.db)
    if args.raw:
        s = rescue.sync_raw(args.port or link.find_port(), store)
    else:
        port = args.port or link.find_port()
        ser = link.open_port(port)
        try:
            client = link.Client(ser, timeout=args.timeout)
            s = pull.sync(client, store, roster=not args.no_roster, clock=not args.no_clock)
        finally:
            ser.close()
    for line in s.lines():
        print(line)
    print("store: %s (%d matches)" % (store.path, store.count()))
    return 1 if s.refused else 0


def cmd_matches(args):
    store = open_store(args.db)
    rows = store.matches()
    if args.json:
        print(json.dumps(rows, indent=2, sort_keys=True))
        return 0
    if not rows:
        print("no matches stored in %s" % store.path)
        return 0
    print("%5s  %-16s %5s  %-19s %-16s %-16s %-10s %6s" % ("id", "box", "no.", "started", "A", "B", "result", "arrows"))
    for r in rows:
        started = time.strftime("%Y-%m-%d %H:%M", time.localtime(r["started"])) if r["started"] else "-"
        if r["winner"] in ("A", "B", "draw"):
            res = "%s %d-%d" % (r["winner"], r["wins_a"], r["wins_b"])
        else:
            res = "open"
        print(
            "%5d  %-16s %5d  %-19s %-16s %-16s %-10s %6d"
            % (r["id"], r["device"][:16], r["number"], started, r["side_a"], r["side_b"], res, r["arrows"])
        )
    return 0


def add_parser(sub):
    p = sub.add_parser("sync", help="pull new matches from the box into the store")
    p.add_argument("--port", help="serial port of the box (found by its USB id when left out)")
    p.add_argument("--db", help="store file (default: in your user data folder)")
    p.add_argument("--raw", action="store_true", help="rescue: copy the journal files with mpremote and import them")
    p.add_argument("--no-roster", action="store_true", help="do not push the archer names to the box")
    p.add_argument("--no-clock", action="store_true", help="do not set the box's clock")
    p.add_argument("--timeout", type=float, default=3.0, help="seconds to wait for each answer (default 3)")
    p.set_defaults(run=cmd_sync)
    m = sub.add_parser("matches", help="list the matches in the store")
    m.add_argument("--db", help="store file (default: in your user data folder)")
    m.add_argument("--json", action="store_true", help="print them as JSON")
    m.set_defaults(run=cmd_matches)
