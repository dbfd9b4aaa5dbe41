"""Key scripts, for `scorebox sim --keys FILE` and bug reports.

Key names separated by spaces or new lines; `;` starts a comment. A name is one of
box.keys.NAMES (1-9, 0, A-D, *, #, up, down, left, right, ok, back); `NAME~` holds the key
for a long press (1 s), `NAME~MS` for MS ms; `wait:MS` lets MS ms pass with no key (for
the dim and sleep timers). Example, a turn of three arrows in square 5: `5 A A B`.
"""

from box.keys import NAMES, NONE, code
from vpico.drive import HOLD_MS, LONG_MS


class ScriptError(Exception):
    pass


def parse(text):
    """A key script as a list of (key code, hold ms) and (NONE, wait ms)."""
    out = []
    lineno = 0
    for line in text.split("\n"):
        lineno += 1
        line = line.split(";", 1)[0]
        for tok in line.split():
            if tok.startswith("wait:"):
                try:
                    out.append((NONE, int(tok[5:])))
                except ValueError:
                    raise ScriptError("line %d: bad wait %r" % (lineno, tok))
                continue
            name, tilde, hold = tok.partition("~")
            if name not in NAMES:
                # A lone "~" is not a key; a name like "ok" stays lower case.
                low = name.lower()
                if low in NAMES:
                    name = low
                elif name.upper() in NAMES:
                    name = name.upper()
                else:
                    raise ScriptError("line %d: unknown key %r" % (lineno, tok))
            ms = HOLD_MS
            if tilde:
                try:
                    ms = int(hold) if hold else LONG_MS
                except ValueError:
                    raise ScriptError("line %d: bad hold time in %r" % (lineno, tok))
            out.append((code(name), ms))
    return out
