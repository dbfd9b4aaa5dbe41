"""`scorebox show MATCH`: a stored match turn by turn in the terminal, the board after each turn."""

from scorebox.report import board
from scorebox.report.turns import date_text, options_text, turns
from scorebox.store.db import open_store
from scorebox.store.queries import load_match
from scorebox_core.match import from_header, result_text
from scorebox_core.ttb import rules
from scorebox_core.ttb.rules import UNDO, token


def show_lines(match):
    h = match["header"]
    opts, archers, _ = from_header(h)
    log = match["log"]
    out = [
        "Match %s (store id %d), %s" % (match["key"], match["id"], date_text(match["started"])),
        "A: %s   B: %s" % (", ".join(archers[0]), ", ".join(archers[1])),
        options_text(opts),
    ]
    if h.get("distance"):
        out.append(
            "distance %s %s, shafts %s mm"
            % ("/".join(map(str, h["distance"])), h.get("unit", ""), "/".join(map(str, h.get("shaft_mm") or [])))
        )
    undos = log.count(UNDO)
    out.append("%d events keyed%s" % (len(log), ", %d undone" % undos if undos else ""))
    m = None
    for m, t in turns(h, log):
        g = m.games[t["game"] - 1]
        if t["face"]:
            out.append("")
            out.append("-- a new face is put up --")
        shot = "  ".join("%s %s" % (token(e), rules.OUTCOMES[o]) for e, o in zip(t["arrows"], t["outcomes"]))
        out.append("")
        out.append(
            "Game %d, round %d, %s (%s): %s" % (t["game"], t["round"], rules.SIDES[t["side"]], t["archer"], shot)
        )
        out.append(board.draw(g))
        if g.over() and t["start"] + len(t["arrows"]) == len(g.arrows):
            out.append("Game %d over: %s" % (t["game"], result_text(g.winner, reason=g.reason)))
    if m is not None:
        r = m.result()
        out.append("")
        if m.over():
            out.append("Match: %s, games A %d - B %d, draws %d" % (result_text(r), m.wins[0], m.wins[1], m.draws))
        else:
            out.append("Match not finished: games A %d - B %d, draws %d" % (m.wins[0], m.wins[1], m.draws))
    return out


def cmd_show(args):
    store = open_store(args.db)
    match = load_match(store.db, args.match)
    print("\n".join(show_lines(match)))
    return 0


def add_parser(sub):
    s = sub.add_parser("show", help="a stored match turn by turn, with the board after each turn")
    s.add_argument("match", help="the match's id (scorebox matches) or DEVICE/NUMBER")
    s.add_argument("--db", help="store file (default: in your user data folder)")
    s.set_defaults(run=cmd_show)
