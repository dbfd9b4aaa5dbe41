"""Match scripts: a match written as text, one turn a line (docs/match-script.md).

    # comment
    options: mode=net claim=5 arrows=3 flips=1 equal_turns=on
    archers: A=Ann,Bob B=Cat
    A: 5:2 5:1 5:1
    B: 5:3 5:2 5:1

The reader is fed line by line so that tests can look at the state between lines; it
runs on MicroPython too, where the rule test vectors are replayed as well.
"""

from scorebox_core import script
from scorebox_core.games.ttb import rules
from scorebox_core.games.ttb.rules import Match, Options, Refused
from scorebox_core.match import result_text
from scorebox_core.script import ScriptError


def parse_token(tok):
    """One arrow token (`5:2`, `M`, `5:X`, `5:-`) or `U` (undo the previous arrow)."""
    if tok == "U":
        return rules.UNDO
    if tok == "M":
        return rules.miss()
    sq, sep, val = tok.partition(":")
    if not sep or len(sq) != 1 or not "1" <= sq <= "9":
        raise ValueError("bad arrow %r: use S:V (S 1-9, V 0-3), M, S:X or S:-" % tok)
    s = int(sq)
    if val == "X":
        return rules.called(s, True)
    if val == "-":
        return rules.called(s, False)
    if len(val) == 1 and "0" <= val <= "3":
        return rules.hit(s, int(val))
    raise ValueError("bad value in %r: a hit is worth 0-3" % tok)


class Reader:
    """Builds a Match from script lines; ScriptError names the line at fault."""

    def __init__(self):
        self.opts = Options()
        self.archers = None
        self.match = None
        self.short_line = 0  # line of a turn left short, which must be the last turn line

    def feed(self, lineno, text):
        parts = script.split(text)
        if parts is None:
            return
        line, head, sep, rest = parts
        try:
            if not sep:
                if line == "new face":
                    self._apply(rules.NEW_FACE)
                    return
                raise ValueError("expected `A:`, `B:`, `options:`, `archers:` or `new face`")
            if head == "options":
                self._before_play("options")
                script.set_options(self.opts, rest.split())
            elif head == "archers":
                self._before_play("archers")
                self.archers = script.names(rest.split(), "AB")
            elif head in ("A", "B"):
                self._turn(lineno, rules.SIDES.index(head), rest.split())
            else:
                raise ValueError("unknown line %r" % head)
        except (ValueError, Refused) as e:
            raise ScriptError(lineno, str(e))

    def finish(self):
        """The match the script describes (an empty one if it has no turn line)."""
        self._start()
        return self.match

    def _before_play(self, what):
        if self.match is not None:
            raise ValueError("%s must come before the first turn" % what)

    def _start(self):
        if self.match is None:
            self.match = Match(self.opts, self.archers)

    def _apply(self, ev):
        self._start()
        self.match.apply(ev)

    def _turn(self, lineno, side, tokens):
        self._start()
        m = self.match
        g = m.game
        if self.short_line and not g.over():
            raise ValueError("the turn on line %d is short: only the last turn may be" % self.short_line)
        if g.over():
            if m.result() is not None:
                raise ValueError("the match is over (%s)" % result_text(rules.side_name(m.result())))
            m.apply(rules.NEW_GAME)
            g = m.game
        if g.shooter() != side:
            raise ValueError("%s shoots this turn, not %s" % (rules.SIDES[g.shooter()], rules.SIDES[side]))
        if not tokens:
            raise ValueError("a turn needs at least one arrow")
        start = len(m.events)
        for tok in tokens:
            ev = parse_token(tok)
            if ev == rules.UNDO and len(m.events) <= start:
                raise ValueError("U undoes an arrow of its own line only")
            g = m.game  # an undo replays the match into new Game objects
            if ev != rules.UNDO and (g.over() or (g.in_turn == 0 and len(m.events) > start)):
                raise ValueError(
                    "too many arrows: %s"
                    % ("the game is over" if g.over() else "the turn has %d" % m.opts.arrows(side))
                )
            reason = m.why_not(ev)
            if reason:
                raise ValueError("%s refused: %s" % (tok, reason))
            m.apply(ev)
        g = m.game
        self.short_line = lineno if g.in_turn and not g.over() else 0


def is_script(lines):
    """Any script another game does not claim is Tic Tac BOW's (the registry asks it last)."""
    return True


def read_lines(lines):
    """Parse an iterable of lines into a Match."""
    return script.read_lines(Reader(), lines)
