"""`scorebox archers`: the club's roster (store/roster.py, store/rosterdb.py), which sync merges with the box's."""

import argparse
import time

from scorebox.store import roster
from scorebox.store.access import open_store
from scorebox.text import club_said, plural, printable


def cmd_list(store, args):
    rows = store.archers(retired=args.retired)
    if not rows:
        print("no archers in %s: add them with `scorebox archers add NAME` or `import FILE.csv`" % store.path)
        return 0
    print(("%-14s %7s  %-10s %-7s  %-24s %s" % ("archer", "matches", "last", "", "full name", "club")).rstrip())
    for name, retired, matches, last, full, club in rows:
        when = time.strftime("%Y-%m-%d", time.localtime(last)) if last else "-"
        line = "%-14s %7d  %-10s %-7s  %-24s %s" % (
            name,
            matches,
            when,
            "retired" if retired else "",
            full or "",
            club or "",
        )
        print(printable(line.rstrip()))  # names from a box's matches may hold anything
    print("%d archer%s" % (len(rows), "" if len(rows) == 1 else "s"))
    return 0


def cmd_add(store, args):
    for name in args.names:  # all checked before any is added
        roster.clean(name)
    for name in args.names:
        got = store.add_archer(name)
        if got == "added":
            print("added %s" % name.strip())
        elif got == "back":
            print("%s is back on the roster" % name.strip())
        else:
            print("%s is on the roster already (as %s): nothing added" % (name.strip(), got[8:]))
    return 0


def cmd_rename(store, args):
    was, now = store.rename_archer(args.old, args.new)
    print(printable("renamed %s to %s: their matches and statistics follow" % (was, now)))
    return 0


def cmd_retire(store, args):
    name = store.retire_archer(args.name)
    print(printable("retired %s: off the box's list at the next sync; matches and statistics kept" % name))
    return 0


def cmd_club(store, args):
    print(printable(club_said(*store.set_club(args.name, args.club))))
    return 0


def cmd_import(store, args):
    """A member list: what it adds shown, then saved; when a box name had to be made from a
    longer name, only with --save (docs/sync.md, "A member list")."""
    got = store.import_members(args.file, confirmed=args.save)
    for full, box in got.new:
        print(printable("  %s -> %s" % (full, box) if full != box else "  %s" % full))
    for _, name in got.back:
        print(printable("  %s (retired: back on the roster)" % name))
    for line, why in got.refused:
        print(printable("  line %d refused: %s" % (line, why)))
    if got.refused_count > len(got.refused):
        print("  ... and %d more lines refused" % (got.refused_count - len(got.refused)))
    counts = [
        (len(got.back), "back on the roster"),
        (got.known, "on the roster already"),
        (got.repeated, "repeated in the file"),
        (got.refused_count, "refused"),
    ]
    print(
        "%d %s" % (len(got.new), "added" if got.saved else "to add")
        + "".join(", %d %s" % (n, what) for n, what in counts if n)
    )
    if not got.saved:
        print(
            "nothing saved: %s made from longer names (shown with ->); check them, then run again with --save"
            % plural(got.made(), "box name")
        )
    return 0


def cmd_archers(args):
    # adding makes the store (a club may list its archers before its first sync); the rest need one
    store = open_store(args.db, create=args.action in (cmd_add, cmd_import))
    try:
        return args.action(store, args)
    finally:
        store.discard_if_empty()  # a refused name or file, an unsaved import: no store is made for it


def add_parser(sub):
    p = sub.add_parser("archers", help="the club's roster: list, add, rename, retire, club, import (sync sends it)")
    acts = p.add_subparsers(dest="archers_command")
    db_help = "store file (default: in your user data folder)"
    retired_help = "list retired archers too"
    # Bare `scorebox archers [--db F] [--retired]` lists. The actions' own options are SUPPRESS
    # by default, so that an action's parser does not reset what was given before its name.
    p.add_argument("--db", help=db_help)
    p.add_argument("--retired", action="store_true", help=retired_help)
    p.set_defaults(action=cmd_list)
    a = acts.add_parser("list", help="the archers, with their matches (what bare `scorebox archers` does)")
    a.add_argument("--retired", action="store_true", default=argparse.SUPPRESS, help=retired_help)
    a.set_defaults(action=cmd_list)
    a = acts.add_parser("add", help="add archers (names as typed, at most %d characters)" % roster.MAX_NAME)
    a.add_argument("names", nargs="+", metavar="NAME", help="an archer's name (quote one with a space)")
    a.set_defaults(action=cmd_add)
    a = acts.add_parser("rename", help="rename an archer; their matches follow")
    a.add_argument("old", metavar="OLD", help="the archer's name now (any case)")
    a.add_argument("new", metavar="NEW", help="the name they take")
    a.set_defaults(action=cmd_rename)
    a = acts.add_parser("retire", help="leave an archer off the box's list; their history stays")
    a.add_argument("name", metavar="NAME", help="the archer's name (any case)")
    a.set_defaults(action=cmd_retire)
    a = acts.add_parser("club", help="a guest archer's home club, as the league names it (docs/league.md)")
    a.add_argument("name", metavar="NAME", help="the archer's name (any case)")
    a.add_argument("club", metavar="CLUB", nargs="?", default="", help="their league club's name (none: this club)")
    a.set_defaults(action=cmd_club)
    a = acts.add_parser("import", help="add the names of a club's member list (a CSV file)")
    a.add_argument("file", metavar="FILE", help="a CSV file with a name column, or first and last name columns")
    a.add_argument(
        "--save",
        action="store_true",
        help="save what is shown when the box's names were made from longer names",
    )
    a.set_defaults(action=cmd_import)
    for a in acts.choices.values():
        a.add_argument("--db", default=argparse.SUPPRESS, help=db_help)
    p.set_defaults(run=cmd_archers)
