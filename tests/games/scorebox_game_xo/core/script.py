"""Noughts and Crosses match scripts: a game as text, one arrow a line (as docs/match-script.md
writes the built-in games'). Its `options:` line must name the game: `X:` and `O:` lines
alone are Try-Tac-Toe's.

    options: game=noughts
    archers: X=Ann O=Bob
    X: 5
    O: -            a miss
    undo            takes back the arrow before
"""

from scorebox_core import script
from scorebox_core.script import ScriptError
from scorebox_game_xo.core.rules import GAME, MISS, SIDES, UNDO, Game, Options, Refused

GAME_OPTION = "game=" + GAME


def is_script(lines):
    """True when an `options:` line says game=noughts."""
    for text in lines:
        parts = script.split(text)
        if parts and parts[2] and parts[1] == "options" and GAME_OPTION in parts[3].split():
            return True
    return False


def parse_shot(text):
    """The event of an arrow's text: a square 1-9 or `-` (a miss)."""
    if text == "-":
        return MISS
    if len(text) == 1 and "1" <= text <= "9":
        return int(text)
    raise ValueError("bad arrow %r: a square 1-9, or - for a miss" % text)


class Reader:
    """Builds a Game from script lines; ScriptError names the line at fault."""

    def __init__(self):
        self.archers = None
        self.game = None

    def feed(self, lineno, text):
        parts = script.split(text)
        if parts is None:
            return
        line, head, sep, rest = parts
        try:
            if not sep and line == "undo":
                self._apply(UNDO)
            elif head == "options" and sep:
                self._before_play("options")
                for w in rest.split():
                    if w != GAME_OPTION:
                        raise ValueError(
                            "unknown option %r: a Noughts and Crosses script says only %s" % (w, GAME_OPTION)
                        )
            elif head == "archers" and sep:
                self._before_play("archers")
                self.archers = script.names(rest.split(), SIDES)
            elif head in ("X", "O") and sep:
                g = self.finish()
                side = SIDES.index(head)
                if g.mover() is not None and g.mover() != side:
                    raise ValueError("%s shoots now, not %s" % (SIDES[g.mover()], head))
                self._apply(parse_shot(rest.strip()))
            else:
                raise ValueError("expected `X: N`, `O: N`, `options:`, `archers:` or `undo`")
        except (ValueError, Refused) as e:
            raise ScriptError(lineno, str(e))

    def finish(self):
        """The game the script describes (an empty one if it has no arrow)."""
        if self.game is None:
            self.game = Game(Options(), self.archers)
        return self.game

    def _before_play(self, what):
        if self.game is not None:
            raise ValueError("%s must come before the first arrow" % what)

    def _apply(self, ev):
        g = self.finish()
        why = g.why_not(ev)
        if why:
            raise ValueError(why)
        g.apply(ev)


def read_lines(lines):
    """Parse an iterable of lines into a Game."""
    return script.read_lines(Reader(), lines)
