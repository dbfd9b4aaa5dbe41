"""A stored match turn by turn, with the rules core: what `scorebox show` prints and the
report's replays draw."""

from scorebox.text import date_text, plural  # noqa: F401 (date_text: the reports take it from here)
from scorebox_core.match import from_header
from scorebox_core.ttb.rules import NEW_FACE, NEW_GAME, Match


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
