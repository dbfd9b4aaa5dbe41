"""The board drawn as text for a terminal: owners, locks and what each side needs."""

from scorebox.text import plural
from scorebox_core.games.ttb import rules
from scorebox_core.games.ttb.rules import SIDES
from scorebox_core.match import result_text

_CELL = 11


def _pad(text, width=_CELL):
    return text + " " * (width - len(text))


def _center(text, width=_CELL):
    left = (width - len(text)) // 2
    return _pad(" " * left + text, width)


def cell_lines(game, i):
    """Three text lines for square i (0-8)."""
    owner = game.owner[i]
    mark = ""
    if owner is not None:
        mark = "locked" if game.locked(i) else ("flipped" if game.flips[i] else "")
    top = _pad(" %d %s" % (i + 1, mark))
    if owner is None:
        mid = _center(".")
        bot = _center("A%d  B%d" % (game.need(rules.A, i), game.need(rules.B, i)))
    else:
        mid = _center("[%s]" % SIDES[owner])
        bot = _center("")
    return top, mid, bot


def draw(game):
    rule = "+" + "+".join(["-" * _CELL] * 3) + "+"
    out = [rule]
    for r in range(3):
        cells = [cell_lines(game, 3 * r + c) for c in range(3)]
        for k in range(3):
            out.append("|" + "|".join(c[k] for c in cells) + "|")
        out.append(rule)
    return "\n".join(out)


def winner_name(winner, archers):
    """A winning side as "A (Ann)" where its archers are named, else as it is (for result_text)."""
    if winner not in (0, 1):
        return winner
    if tuple(archers[winner]) == (SIDES[winner],):
        return SIDES[winner]
    return "%s (%s)" % (SIDES[winner], ", ".join(archers[winner]))


def status(match):
    """Lines under the board: the game, who shoots, this turn, the match score."""
    g = match.game
    o = match.opts
    lines = [
        "Game %d of %d, %s - mode %s, claim A%d/B%d, %s"
        % (
            len(match.games),
            o.games,
            plural(g.rounds_played(), "round") if g.over() else "round %d" % g.round(),
            o.mode,
            o.claim_a,
            o.claim_b,
            "equal turns" if o.equal_turns else "first line wins",
        )
    ]
    start, end = match.turn_range()
    shot = " ".join(rules.token(g.arrows[j]) for j in range(start, end))
    if g.over():
        lines.append("Game over: " + result_text(winner_name(g.winner, match.archers), reason=g.reason))
        if shot:
            lines.append("Last turn: " + shot)
    else:
        k, n = match.arrow_no()
        side = SIDES[g.shooter()]
        lines.append("Next: %s (%s), arrow %d of %d" % (side, match.archer(), k, n))
        if shot:
            lines.append("This turn: " + shot)
    if o.games > 1:
        lines.append("Match: A %d - B %d, draws %d" % (match.wins[0], match.wins[1], match.draws))
    r = match.result()
    if r is not None and match.over():
        lines.append("Match over: " + result_text(winner_name(r, match.archers)))
    if match.face.worn(o):
        lines.append("The face has had %d games: time for a new face (TTB-16)" % match.face.games)
    return "\n".join(lines)


def replay_text(match):
    """`scorebox replay`: the board of the game under way and the match's status."""
    return draw(match.game) + "\n" + status(match)
