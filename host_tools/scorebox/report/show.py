"""`scorebox show MATCH`: a stored match turn by turn in the terminal, the board after each turn."""

from scorebox.games import registry as pcgames
from scorebox.store import roster
from scorebox.store.access import open_store
from scorebox.store.errors import StoreError
from scorebox.store.queries import named
from scorebox.text import printable, said
from scorebox_core import games


def show_lines(match):
    """`scorebox show`'s lines of a stored match, by its game's module (its surface's SHOW)."""
    h = named(match)
    lines = pcgames.part(games.of(h), "SHOW").show_lines(match, h)
    return lines + ["", "Result: " + said(match["winner"], match["score"], match["abandoned"])]


# Names that say nobody was named: the box's (a match shot as A v B, a game as X v O) and
# those a match whose header was lost is stored with (sync/storing.py lost_header).
UNNAMED = roster.PLACEHOLDERS + ("A?", "B?", "X?", "O?")


def replaced(have, names):
    """Whether names (side A's then B's, as --names gives them) would replace a name the match
    has: only placeholders (UNNAMED) are named without --force."""
    have = have[0] + have[1]
    return len(have) == len(names) and any(
        old not in UNNAMED and old.casefold() != new.casefold() for old, new in zip(have, names)
    )


def cmd_show(args):
    store = open_store(args.db)
    match = store.load_match(args.match)
    if args.names is not None:
        names = [n.strip() for n in args.names.split(",")]
        a, b = games.of(match["header"]).SIDES
        if not args.force and replaced(match["names"], names):
            raise StoreError(
                printable(
                    "match %s has its archers' names already (%s %s, %s %s): --force replaces them"
                    % (match["key"], a, ", ".join(match["names"][0]), b, ", ".join(match["names"][1]))
                )
            )
        got = store.name_match(match["id"], names, add=args.add)
        print(printable("match %s: %s %s, %s %s" % (match["key"], a, ", ".join(got[0]), b, ", ".join(got[1]))))
        match = store.load_match(args.match)
    print(printable("\n".join(show_lines(match)), keep_newlines=True))  # the header's other texts too
    return 0


def add_parser(sub):
    s = sub.add_parser("show", help="a stored match turn by turn, with the board after each turn")
    s.add_argument("match", help="the match's id (scorebox matches) or DEVICE/NUMBER")
    s.add_argument("--db", help="store file (default: in your user data folder)")
    s.add_argument(
        "--names",
        metavar="A,B",
        help="set who shot: side A's (X's) archers then side B's (O's), comma-separated (a match shot as A v B)",
    )
    s.add_argument("--force", action="store_true", help="with --names: replace the names a match has already")
    s.add_argument("--add", action="store_true", help="with --names: add names not on the roster as new archers")
    s.set_defaults(run=cmd_show)
