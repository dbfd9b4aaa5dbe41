"""Key scripts, for `scorebox sim --keys FILE` and bug reports.

Key names separated by spaces or new lines; `;` starts a comment. A name is one of
box.keys.NAMES (1-9, 0, A-D, *, #, up, down, left, right, ok, back); `NAME~` holds the key
for a long press (1 s), `NAME~MS` for MS ms; `wait:MS` lets MS ms pass with no key (for
the dim and sleep timers). Example, a turn of three arrows in square 5: `5 A A B`.

A script is read PIECE bytes at a time, never whole: the box's heap (the Pico's,
about 190 KB, most of it the app's) held a parsed list of every key and ran out past
a few hundred keys. The heap it needs does not grow with its length.
It is read as bytes and only its tokens are decoded (as ASCII): in text mode MicroPython
cuts a piece by bytes, and a letter of two bytes across a piece's end raised UnicodeError
(an accent in a comment). Key names are ASCII, and no byte of a UTF-8 letter is `;` or
white space, so comments and tokens are found in the bytes as they are.
"""

from box.keys import NAMES, NONE, code
from vpico.drive import HOLD_MS, LONG_MS

PIECE = 256  # bytes read at a time
TOKEN_MAX = 24  # longer than any key (`right~60000`, `wait:3600000`): quoted shortened


class ScriptError(Exception):
    pass


def step(raw, lineno):
    """One token (bytes) as (key code, hold ms) or (NONE, wait ms)."""
    if len(raw) > TOKEN_MAX:
        raise ScriptError("line %d: unknown key %s..." % (lineno, quoted(raw[:TOKEN_MAX])))
    if max(raw) > 127:  # no key name has a letter beyond ASCII
        raise ScriptError("line %d: unknown key %s" % (lineno, quoted(raw)))
    tok = raw.decode()
    if tok.startswith("wait:"):
        try:
            return NONE, int(tok[5:])
        except ValueError:
            raise ScriptError("line %d: bad wait %r" % (lineno, tok))
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
    return code(name), ms


def quoted(raw):
    """A token in quotes, its bytes beyond ASCII written \\xNN (the line stays ASCII)."""
    return repr(raw)[1:]


def steps(f):
    """The steps of the key script open as f (binary), one at a time: (key code, hold ms)
    and (NONE, wait ms). A token cut at a piece's end is carried into the next piece."""
    lineno = 1
    carry = b""  # the start of a token the last piece cut
    comment = False  # the rest of this line is a comment
    while True:
        piece = f.readline(PIECE)
        if not piece:
            break
        eol = piece[-1:] == b"\n"
        if not comment:
            text, semi, _ = piece.partition(b";")
            comment = bool(semi)
            text = carry + text
            carry = b""
            toks = text.split()
            if toks and not (eol or semi or text[-1:].isspace()):
                carry = toks.pop()  # the line goes on in the next piece
                if len(carry) > TOKEN_MAX:
                    step(carry, lineno)  # refused, quoted shortened
            for tok in toks:
                yield step(tok, lineno)
        if eol:
            lineno += 1
            comment = False
    if carry:
        yield step(carry, lineno)


def play(path, drv):
    """Play the key script at path on drv (vpico.drive.Driver). It is checked to its end
    first, so a bad line plays nothing (a --state box is left as it was)."""
    with open(path, "rb") as f:
        for _ in steps(f):
            pass
        f.seek(0)
        drv.play(steps(f))
