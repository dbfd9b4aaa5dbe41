"""Keying Try-Tac-Toe on the virtual Pico: which keys enter a move, on the keypad or with the
six buttons, and a whole two-match game played through the app (MicroPython and CPython).

The moves are dealt by a tiny LCG, the same on both interpreters: a random empty triangle
(arrows land all over the face), now and then a miss or an undo. The buttons' keys are the
shortest way for box/games/ttt/play.py's cursor (step()) from where it is to the move's triangle.
Nothing is imported at the top: the game's modules load as the box loads them.
"""

N = 74
MISS = 128  # scorebox_core.games.ttt.rules.MISS: the rules load with the game, not with this module


class Rand:
    def __init__(self, seed):
        self.x = seed

    def below(self, n):
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.x >> 8) % n


def pick(match, rnd, misses=8):
    """A move for the match: MISS one time in `misses`, else a random empty triangle."""
    if misses and rnd.below(misses) == 0:
        return MISS
    empty = [i for i in range(N) if not match.marks[i]]
    return empty[rnd.below(len(empty))] + 1


def until_dead(game, seed=7):
    """Moves that take game's match (not changed) on to no shape possible for either side
    with triangles still empty (TTT-5): each marks the empty triangle in the most placements
    still open to a side (random play stays open until the grid is full)."""
    from scorebox_core.games.ttt.board import through

    g = type(game).replay(game.events, game.opts, game.archers)
    rnd = Rand(seed)
    out = []
    while not g.match.dead() and not g.match.over():
        m = g.match
        x, o = m.count
        best = bs = -1
        for i in range(N):
            if not m.marks[i]:
                sc = 8 * sum(1 for p in through(i) if not x[p] or not o[p]) + rnd.below(8)
                if sc > bs:
                    best, bs = i, sc
        g.apply(best + 1)
        out.append(best + 1)
    return out


def keypad_keys(ev):
    """A move on the keypad: its number then #, or D for a miss."""
    return ["D"] if ev == MISS else list(str(ev)) + ["#"]


def button_keys(sel, last, ev):
    """The buttons from cursor sel (last: the cell it left the face from) to ev's triangle
    (or the miss off the face), then ok: the fewest presses."""
    from box.games.ttt.play import MISS_POS, step
    from box.keys import DOWN, LEFT, RIGHT, UP

    goal = MISS_POS if ev == MISS else ev - 1
    names = {UP: "up", DOWN: "down", LEFT: "left", RIGHT: "right"}
    start = (sel, last if sel >= N else sel)
    seen = {start: None}
    todo = [start]
    while todo:
        nxt = []
        for st in todo:
            if st[0] == goal:
                path = ["ok"]
                while seen[st] is not None:
                    st, k = seen[st]
                    path.append(names[k])
                path.reverse()
                return path
            for k in (UP, DOWN, LEFT, RIGHT):
                p = step(st[0], k, st[1])
                # on the face the cursor's last cell is its own; leaving it, the one it left
                s2 = (p, p if p < N else (st[0] if st[0] < N else st[1]))
                if s2 not in seen:
                    seen[s2] = (st, k)
                    nxt.append(s2)
        todo = nxt
    raise RuntimeError("no way to %d" % ev)


class Tally:
    def __init__(self):
        self.moves = 0  # moves keyed (marks and misses)
        self.keys = 0  # the keys that entered them
        self.undos = 0
        self.games = 0


def play_game(drv, app, layout, rnd, tally, press=None):
    """A whole game from the home screen to both confirmations, keyed in `layout`
    ("keypad" or "buttons"); back home after. press(keys) may be given (measuring).
    Returns the game's number in the journal and its log as the box kept it."""
    from box.keys import code

    pad = layout == "keypad"

    def keys(names):
        if press is not None:
            press(names)
        else:
            for name in names:
                drv.press(code(name))

    keys(["#", "4", "#", "#"] if pad else ["ok", "left", "ok", "ok"])  # New match, Try-Tac-Toe, Start
    ok = "#" if pad else "ok"
    while True:
        g = app.session.match
        scr = app.screen
        if scr is app.play.over:
            break
        if scr is app.play.end:
            keys([ok])  # match 2
            continue
        play = app.play
        if play.offer:
            keys([ok])  # TTT-5: end the match that can score no more
            continue
        if g.events and rnd.below(30) == 0:
            keys(["*" if pad else "back"])
            tally.undos += 1
            continue
        ev = pick(g.match, rnd)
        ks = keypad_keys(ev) if pad else button_keys(play.sel, play.last, ev)
        keys(ks)
        tally.moves += 1
        tally.keys += len(ks)
    n, log = app.session.number, list(app.session.match.log)
    keys([ok, ok, "*" if pad else "back"])  # X, O confirm; history -> home
    tally.games += 1
    return n, log
