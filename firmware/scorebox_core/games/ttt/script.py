"""Try-Tac-Toe match scripts: a game written as text, one move a line (docs/match-script.md).

    # comment
    options: game=try-tac-toe triangle=3 bar=1 chevron=1 moves=0
    archers: X=Ann,Bob O=Cat,Dan
    X: 37
    O: 12
    X: -            a miss: marks nothing
    undo            takes back the move before
    end             the match ends by agreement (TTT-5)
    match 2         before the second match's moves (O starts it, TTT-6)

Fed line by line like ttb's Reader, and run on MicroPython too by the tests.
"""

from scorebox_core import script
from scorebox_core.games.ttt import rules
from scorebox_core.games.ttt.board import N
from scorebox_core.games.ttt.rules import Game, Options, Refused
from scorebox_core.script import ScriptError

GAME_OPTION = "game=" + rules.GAME


def parse_move(text):
    """The event of a move's text: a triangle number 1-74 or `-` (a miss)."""
    if text == "-":
        return rules.MISS
    if text.isdigit() and len(text) < 5 and 1 <= int(text) <= N:  # int() of a long line: slow or refused
        return int(text)
    raise ValueError("bad move %r: a triangle number 1-74, or - for a miss" % text)


def is_script(lines):
    """True when a script is Try-Tac-Toe's: an `options:` line with game=try-tac-toe, or
    the first move-like line is `X:`, `O:` or `match 2` (Tic Tac BOW's turns are `A:`/`B:`)
    in a script whose options name no other game."""
    for text in lines:
        parts = script.split(text)
        if parts is None:
            continue
        line, head, sep, rest = parts
        if sep and head == "options":
            words = rest.split()
            if GAME_OPTION in words:
                return True
            if [w for w in words if w.startswith("game=")]:
                return False  # another game's, whose moves may look like these
            continue
        if sep and head == "archers":
            continue
        return (sep and head in ("X", "O")) or line in ("match 1", "match 2", "undo", "end")
    return False


class Reader:
    """Builds a Game from script lines; ScriptError names the line at fault."""

    def __init__(self):
        self.opts = Options()
        self.archers = None  # type: tuple | None
        self.game = None  # type: Game | None

    def feed(self, lineno, text):
        parts = script.split(text)
        if parts is None:
            return
        line, head, sep, rest = parts
        try:
            if not sep:
                self._word(line)
            elif head == "options":
                self._before_play("options")
                self._options(rest.split())
            elif head == "archers":
                self._before_play("archers")
                self.archers = script.names(rest.split(), "XO")
            elif head in ("X", "O"):
                self._move(rules.SIDES.index(head), rest.strip())
            else:
                raise ValueError("unknown line %r: expected `X:`, `O:`, `options:`, `archers:` or `match 2`" % head)
        except (ValueError, Refused) as e:
            raise ScriptError(lineno, str(e))

    def finish(self):
        """The game the script describes (an empty one if it has no move)."""
        return self._start()

    def _before_play(self, what):
        if self.game is not None:
            raise ValueError("%s must come before the first move" % what)

    def _options(self, words):
        for w in words:
            if w.startswith("game="):  # which game the script is (is_script): only this one
                if w != GAME_OPTION:
                    raise ValueError("game must be %s in a Try-Tac-Toe script, not %r" % (rules.GAME, w[5:]))
        script.set_options(self.opts, [w for w in words if not w.startswith("game=")])

    def _start(self):
        if self.game is None:
            self.game = Game(self.opts, self.archers)
        return self.game

    def _apply(self, ev):
        g = self._start()
        reason = g.why_not(ev)
        if reason:
            raise ValueError(reason)
        g.apply(ev)

    def _word(self, line):
        if line == "match 1":
            if self.game is not None and self.game.events:
                raise ValueError("`match 1` may only come before the first move")
            self._start()
        elif line == "match 2":
            self._apply(rules.NEXT_MATCH)
        elif line == "undo":
            self._apply(rules.UNDO)
        elif line == "end":
            self._apply(rules.END)
        else:
            raise ValueError("expected `X: N`, `O: N`, `options:`, `archers:`, `match 2`, `undo` or `end`")

    def _move(self, side, text):
        g = self._start()
        mover = g.mover()
        if mover is not None and mover != side:
            raise ValueError("%s moves now, not %s" % (rules.SIDES[mover], rules.SIDES[side]))
        ev = parse_move(text)
        reason = g.why_not(ev)
        if reason:
            raise ValueError("%s: %s refused: %s" % (rules.SIDES[side], text, reason))
        g.apply(ev)


def read_lines(lines):
    """Parse an iterable of lines into a Game."""
    return script.read_lines(Reader(), lines)
