"""A stored Tic Tac BOW match turn by turn, with its rules core: what `scorebox show` prints
(show_lines) and the report's replays draw."""

from scorebox.games.ttb import board
from scorebox.text import date_text, plural, printable  # noqa: F401 (date_text: the reports take it from here)
from scorebox_core.games.ttb import rules
from scorebox_core.games.ttb.rules import NEW_FACE, NEW_GAME, UNDO, Match, token
from scorebox_core.match import from_header, result_text


def turns(header, log):
    """Replay a match; yield (match, turn) after each turn, the match as it stands then.
    turn: game, round, side, archer, start (index in game.arrows), face (a new face went up
    just before it), arrows and outcomes of the turn."""
    opts, archers, face = from_header(header)
    done = Match.replay(log, opts, archers, face)  # the events in effect, checked
    m = Match(opts, archers, face)
    turn, new_face = None, False
    for ev in done.events:
        if ev == NEW_GAME:
            m.apply(ev)
            continue
        if ev == NEW_FACE:
            m.apply(ev)
            new_face = True
            continue
        g = m.game
        if turn is None:
            turn = {
                "game": len(m.games),
                "round": g.round(),
                "side": g.shooter(),
                "archer": m.archer(),
                "start": len(g.arrows),
                "face": new_face,
            }
            new_face = False
        m.apply(ev)
        if g.in_turn == 0 or g.over():
            turn["arrows"] = g.arrows[turn["start"] :]
            turn["outcomes"] = g.outcomes[turn["start"] :]
            yield m, turn
            turn = None
    if turn is not None:  # a match stopped mid-turn
        g = m.game
        turn["arrows"] = g.arrows[turn["start"] :]
        turn["outcomes"] = g.outcomes[turn["start"] :]
        yield m, turn


def options_text(o):
    parts = [o.mode, "claim %d" % o.claim_a if o.claim_a == o.claim_b else "claim A%d/B%d" % (o.claim_a, o.claim_b)]
    parts.append(
        plural(o.arrows_a, "arrow") if o.arrows_a == o.arrows_b else "arrows A%d/B%d" % (o.arrows_a, o.arrows_b)
    )
    # TTB-8: how often a square may change hands ("1 flip a square" read as an order)
    parts.append("no flips" if not o.flips else "%s per square" % plural(o.flips, "flip"))
    parts.append("equal turns" if o.equal_turns else "first line wins")
    if o.rounds:
        parts.append(plural(o.rounds, "round"))
    parts.append("best of %d" % o.games if o.games > 1 else "1 game")
    return ", ".join(parts)


def show_lines(match, h):
    """`scorebox show` of a Tic Tac BOW match: each turn, the board after it."""
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
