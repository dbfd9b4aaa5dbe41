"""A stored Try-Tac-Toe game move by move, with its rules core: what `scorebox show` prints,
what the report's replays draw and what the archer pages count (shapes made and blocked)."""

from scorebox.games.ttt import board as ttt_board
from scorebox.text import date_text, plural, printable
from scorebox_core.games.ttt import board
from scorebox_core.games.ttt.rules import END, MISS, NEXT_MATCH, SHAPES, SIDES, UNDO, Game, token
from scorebox_core.match import from_header


def replay(header, log):
    """(the game replayed from its events in effect, lenient as the store took it)."""
    opts, players, _ = from_header(header)
    return Game.replay(log, opts, players, lenient=True)


def moves(header, log):
    """Replay a game; yield (game, move) after each move, the game as it stands then. move:
    match (1 or 2), number (in the match), side, player, event, made (placements completed,
    TTT-3) and blocked (placements of the other side's this mark killed while that side
    could still have completed them: it had a mark there and nothing of ours, TTT-5)."""
    done = replay(header, log)
    g = Game(done.opts, done.archers)
    for ev in done.events:
        if ev in (NEXT_MATCH, END):
            g.apply(ev)
            continue
        m = g.match
        side, player = m.mover(), g.archer()
        blocked = 0
        if ev != MISS:
            mine, theirs = m.count[side], m.count[1 - side]
            blocked = sum(1 for p in board.through(ev - 1) if theirs[p] and not mine[p])
        g.apply(ev)
        yield (
            g,
            {
                "match": len(g.matches),
                "number": len(m.moves),
                "side": side,
                "player": player,
                "event": ev,
                "made": m.made[-1],
                "blocked": blocked,
            },
        )


def values_text(opts):
    values = ", ".join("%s %d" % (SHAPES[k], opts.values[k]) for k in range(len(SHAPES)))
    return "Try-Tac-Toe, values %s%s" % (values, ", move limit %d" % opts.moves if opts.moves else "")


def show_lines(match, h):
    """`scorebox show` of a Try-Tac-Toe game: each move, the board at the end of each match."""
    log = match["log"]
    opts, players, _ = from_header(h)
    players = tuple(tuple(printable(n) for n in side) for side in players)
    out = [
        "Game %s (store id %d), %s" % (match["key"], match["id"], date_text(match["started"])),
        "X: %s   O: %s" % (", ".join(players[0]), ", ".join(players[1])),
        values_text(opts),
    ]
    undos = log.count(UNDO)
    out.append("%s keyed%s" % (plural(len(log), "event"), ", %d undone" % undos if undos else ""))
    per = []  # each match's move lines
    for _, mv in moves(h, log):
        if mv["number"] == 1:
            per.append([])
        made = ", ".join(SHAPES[board.shape_of(p)] for p in mv["made"])
        per[-1].append(
            "%3d. %s (%s): %s%s"
            % (
                mv["number"],
                SIDES[mv["side"]],
                printable(mv["player"]),
                token(mv["event"]),
                "  made " + made if made else "",
            )
        )
    g = replay(h, log)
    for k, m in enumerate(g.matches):
        out += ["", "-- match %d: %s starts --" % (k + 1, SIDES[m.first])] + (per[k] if k < len(per) else [])
        out += ["", ttt_board.draw(m)]
        if m.over():
            out.append("Match %d over (%s): X %d - O %d" % (k + 1, m.reason, m.score(0), m.score(1)))
    out += ["", ttt_board.status(g)]
    return out
