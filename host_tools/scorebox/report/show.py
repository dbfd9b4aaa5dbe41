"""`scorebox show MATCH`: a stored match turn by turn in the terminal, the board after each turn."""

from scorebox.report import board, ttt_moves
from scorebox.report.turns import date_text, options_text, turns
from scorebox.store import roster
from scorebox.store.access import open_store
from scorebox.store.errors import StoreError
from scorebox.store.queries import named
from scorebox.text import plural, printable
from scorebox_core.match import TRYTACTOE, from_header, game_of, result_text
from scorebox_core.ttb import rules
from scorebox_core.ttb.rules import UNDO, token


def show_lines(match):
    h = named(match)
    if game_of(h) == TRYTACTOE:
        return ttt_moves.show_lines(match, h)
    opts, archers, _ = from_header(h)
    archers = tuple(tuple(printable(n) for n in side) for side in archers)  # names are data: no escapes run
    log = match["log"]
    out = [
        "Match %s (store id %d), %s" % (match["key"], match["id"], date_text(match["started"]))
        + (", box %s" % printable(match["box_name"]) if match.get("box_name") else ""),
        "A: %s   B: %s" % (", ".join(archers[0]), ", ".join(archers[1])),
        options_text(opts),
    ]
    if h.get("distance"):
        out.append(
            "distance %s %s, shafts %s mm"
            % ("/".join(map(str, h["distance"])), h.get("unit", ""), "/".join(map(str, h.get("shaft_mm") or [])))
        )
    undos = log.count(UNDO)
    out.append("%s keyed%s" % (plural(len(log), "event"), ", %d undone" % undos if undos else ""))
    m = None
    for m, t in turns(h, log):
        g = m.games[t["game"] - 1]
        if t["face"]:
            out.append("")
            out.append("-- a new face is put up --")
        shot = "  ".join("%s %s" % (token(e), rules.OUTCOMES[o]) for e, o in zip(t["arrows"], t["outcomes"]))
        out.append("")
        out.append(
            "Game %d, round %d, %s (%s): %s"
            % (t["game"], t["round"], rules.SIDES[t["side"]], printable(t["archer"]), shot)
        )
        out.append(board.draw(g))
        if g.over() and t["start"] + len(t["arrows"]) == len(g.arrows):
            out.append(
                "Game %d over: %s" % (t["game"], result_text(board.winner_name(g.winner, archers), reason=g.reason))
            )
    if m is not None:
        r = m.result()
        out.append("")
        if m.over():
            out.append(
                "Match: %s, games A %d - B %d, draws %d"
                % (result_text(board.winner_name(r, archers)), m.wins[0], m.wins[1], m.draws)
            )
        else:
            out.append("Match not finished: games A %d - B %d, draws %d" % (m.wins[0], m.wins[1], m.draws))
    return out


# Names that say nobody was named: the box's (a match shot as A v B, a game as X v O) and
# those a match whose header was lost is stored with (sync/pull.py lost_header).
UNNAMED = roster.PLACEHOLDERS + ("A?", "B?", "X?", "O?")


def _replaced(have, names):
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
        a, b = "XO" if game_of(match["header"]) == TRYTACTOE else "AB"
        if not args.force and _replaced(match["names"], names):
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
