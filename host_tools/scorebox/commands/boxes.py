"""`scorebox boxes`: the boxes a store has met, and the names a club gives them (store/boxes.py)."""

import argparse

from scorebox.store import boxes
from scorebox.store.access import open_store
from scorebox.text import date_text, plural, printable


def cmd_list(store, args):
    rows = store.boxes()
    if not rows:
        print("no boxes in %s: `scorebox sync` a box first" % store.path)
        return 0
    spaces = store.box_spaces()
    print("%-24s %-24s %7s  %-16s  %s" % ("box", "name", "matches", "last synced", "capacity"))
    for uid, name, matches, last in rows:
        when, room = date_text(last), boxes.capacity(spaces.get(uid))
        print("%-24s %-24s %7d  %-16s  %s" % (printable(uid), printable(name or "-"), matches, when, room))
    print(plural(len(rows), "box", "boxes"))
    return 0


def cmd_name(store, args):
    name = boxes.clean(args.name)
    store.name_box(args.box, name)
    print("box %s is now %s" % (printable(args.box), printable(name)))
    return 0


def cmd_boxes(args):
    # naming needs the store that met the box: a store made now would have none
    return args.action(open_store(args.db), args)


def add_parser(sub):
    p = sub.add_parser("boxes", help="the boxes the store has met; name one")
    acts = p.add_subparsers(dest="boxes_command")
    db_help = "store file (default: in your user data folder)"
    # Bare `scorebox boxes [--db F]` lists; an action's --db is SUPPRESS by default so that
    # its parser does not reset a --db given before the action's name.
    p.add_argument("--db", help=db_help)
    p.set_defaults(action=cmd_list)
    a = acts.add_parser("list", help="the boxes, with their names and matches (what bare `scorebox boxes` does)")
    a.set_defaults(action=cmd_list)
    a = acts.add_parser("name", help="give a box a name (at most %d characters)" % boxes.MAX_NAME)
    a.add_argument("box", metavar="ID", help="the box's id, as `scorebox boxes list` shows it")
    a.add_argument("name", metavar="NAME", help="the club's name for it, e.g. 'Range 1' (quoted with a space)")
    a.set_defaults(action=cmd_name)
    for a in acts.choices.values():
        a.add_argument("--db", default=argparse.SUPPRESS, help=db_help)
    p.set_defaults(run=cmd_boxes)
