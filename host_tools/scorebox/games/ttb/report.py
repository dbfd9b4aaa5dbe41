"""Tic Tac BOW in the HTML report (report/html.py asks its surface's REPORT): a match's
entry with its replay, a frame per turn (docs/reports.md)."""

from scorebox.games.listing import entry as listed
from scorebox.games.ttb.show import options_text, turns
from scorebox_core.games.ttb import rules
from scorebox_core.games.ttb.game import CODE
from scorebox_core.games.ttb.rules import side_name, token
from scorebox_core.match import from_header

RENDER = {"sides": rules.SIDES, "outcomes": rules.OUTCOMES, "side_name": side_name}  # the template's names
SCRIPT = "ttb_replay.js.j2"  # its replay on the page: draw and describe a frame (templates/)
CARD = None  # no card of its own: its archers' figures are the page's (report/stats.py)
DATA = None  # its script reads only the matches


def frame(m, turn):
    """One turn for the report's replay: short keys, board after the turn (docs/reports.md)."""
    g = m.games[turn["game"] - 1]
    owners, flags, needs = [], [], []
    for i in range(9):
        o = g.owner[i]
        owners.append("." if o is None else rules.SIDES[o])
        if o is None:
            flags.append("-")
        elif g.flips[i]:
            flags.append("L" if g.locked(i) else "f")
        else:
            flags.append("l" if g.locked(i) else "-")
    for side in (0, 1):
        needs.extend(g.need(side, i) for i in range(9))
    f = {
        "g": turn["game"],
        "r": turn["round"],
        "s": turn["side"],
        "a": turn["archer"],
        "t": [token(e) for e in turn["arrows"]],
        "o": turn["outcomes"],
        "b": "".join(owners),
        "f": "".join(flags),
        "n": needs,
    }
    if turn["face"]:
        f["nf"] = 1
    if g.over() and turn["start"] + len(turn["arrows"]) == len(g.arrows):
        lines = [] if g.winner == rules.DRAW else g.lines_of(g.winner)
        if g.winner == rules.DRAW:
            lines = g.lines_of(rules.A) + g.lines_of(rules.B)
        f["e"] = [g.winner, g.reason, sorted({i + 1 for ln in lines for i in ln})]
        f["w"] = [m.wins[0], m.wins[1], m.draws]
    return f


def entry(m, h):
    """A stored match for the report's list and replay."""
    opts, archers, _ = from_header(h)
    e = listed(m, CODE.lower(), archers, rules.SIDES)
    e.update(
        opt=options_text(opts),
        claim=[opts.claim_a, opts.claim_b],
        fr=[frame(mm, t) for mm, t in turns(h, m["log"])],
    )
    return e


def page(store, recent):
    """Its figures on the report's page: its archers' are the page's own (report/stats.py)."""
    return {}
