"""`scorebox sync` (over the sync link, or --raw with mpremote) and `scorebox matches`."""

import json

from scorebox.device import link
from scorebox.errors import ScoreboxError
from scorebox.store.access import open_store
from scorebox.sync import pull, rescue
from scorebox.text import date_text, plural, printable, said
from scorebox_core import games


def cmd_sync(args):
    drive = getattr(args, "drive", None)  # a mounted CIRCUITPY drive: no port
    port = None if drive else args.port or link.find_port()  # no box: no store is made
    store = open_store(args.db, create=True)
    try:
        s = _pull(args, port, store)
    except BaseException as e:
        store.discard_if_empty()  # the box did not answer: a new store is not left behind, empty
        if isinstance(e, ScoreboxError):  # it may quote the box (an ERR's text, mpremote's last line)
            e.args = (printable(str(e)),)
        raise
    for line in s.lines():  # the box's words in them (its store id, a result's winner): escaped
        print(printable(line))
    print("store: %s (%s)" % (store.path, plural(store.count(), "match", "matches")))
    return 1 if s.refused else 0


def _pull(args, port, store):
    if getattr(args, "drive", None):
        return rescue.sync_drive(args.drive, store)
    if args.raw:
        return rescue.sync_raw(port, store)
    ser = link.open_port(port)
    try:
        client = link.Client(ser, timeout=args.timeout)
        return pull.sync(client, store, roster=not args.no_roster, clock=not args.no_clock, take_over=args.take_over)
    finally:
        ser.close()


def cmd_matches(args):
    store = open_store(args.db)
    rows = store.matches()
    if args.json:
        print(json.dumps(rows, indent=2, sort_keys=True))
        return 0
    if not rows:
        print("no matches stored in %s" % store.path)
        return 0
    every = games.every()
    print(
        "%5s  %-16s %7s  %-19s %-16s %-16s %-14s %-4s %6s"
        % (
            "id",
            "box",
            "no.",
            "started",
            *("/".join(g.SIDES[i] for g in every) for i in (0, 1)),
            "result",
            "game",
            "arrows",
        )
    )
    for r in rows:
        started = date_text(r["started"])
        game = games.get(r["game"])  # what it counts is its own (arrows, moves)
        print(
            "%5d  %-16s %7d  %-19s %-16s %-16s %-14s %-4s %6d"
            % (
                r["id"],
                printable(r.get("box_name") or r["device"])[:16],  # the club's name for the box, where it gave one
                r["number"],
                started,
                printable("%s" % r["side_a"]),  # a name from a box or an import: escaped as `stats` does
                printable("%s" % r["side_b"]),
                said(r["winner"], r["score"], r["abandoned"]),
                game.CODE,
                r[game.SHOTS],
            )
        )
    return 0


def add_sync_parser(sub, parents=()):
    p = sub.add_parser("sync", parents=parents, help="pull new matches from the box into the store")
    p.add_argument("--port", help="serial port of the box (found by its USB id when left out)")
    p.add_argument("--db", help="store file (default: in your user data folder)")
    p.add_argument("--raw", action="store_true", help="rescue: copy the journal files with mpremote and import them")
    p.add_argument(
        "--drive",
        metavar="FOLDER",
        help="rescue from a CircuitPython box's CIRCUITPY drive mounted at FOLDER (read only, nothing written to it)",
    )
    p.add_argument("--no-roster", action="store_true", help="leave the roster alone (it is merged with the box's)")
    p.add_argument("--no-clock", action="store_true", help="do not set the box's clock")
    p.add_argument(
        "--take-over",
        action="store_true",
        help="make this store the box's own, when it belongs to another (only its own store acknowledges)",
    )
    p.add_argument("--timeout", type=float, default=3.0, help="seconds to wait for each answer (default 3)")
    p.set_defaults(run=cmd_sync)


def add_matches_parser(sub):
    m = sub.add_parser("matches", help="list the matches in the store")
    m.add_argument("--db", help="store file (default: in your user data folder)")
    m.add_argument("--json", action="store_true", help="print them as JSON")
    m.set_defaults(run=cmd_matches)
