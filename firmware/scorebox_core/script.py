"""What the games' match scripts share (docs/match-script.md): comments, the `options:`
and `archers:` lines, feeding a reader line by line, and errors that name their line.
Each game's reader (its surface's SCRIPT, scorebox_core/games) reads its own move lines."""

# A script's size, newlines counted: over 100 times a long real match (a best of 9 of 30
# rounds a game is about 8,000 characters). Reading takes time in proportion to the size;
# this stops a file that is not a match (a runaway generator, a device) being read for ever.
MAX_CHARS = 1000000
SHORT = 150  # at most this many characters of an error are quoted


def shorten(text):
    """text, or its start and end round the number of characters left out (an error quotes
    the bad part of a line, which may be a whole 600 KB line)."""
    if len(text) <= SHORT:
        return text
    head, tail = 50, 70
    return "%s[... %d characters ...]%s" % (text[:head], len(text) - head - tail, text[-tail:])


class ScriptError(Exception):
    def __init__(self, line, message):
        message = shorten(message)
        super().__init__(message)
        self.line = line
        self.message = message


def split(text):
    """(line, head, sep, rest) of a script line without its comment, or None when blank."""
    line = text.split("#", 1)[0].strip()
    if not line:
        return None
    head, sep, rest = line.partition(":")
    return line, head.strip(), sep, rest


def set_options(opts, words):
    """An `options:` line's name=value words, set on opts (ValueError says what is wrong)."""
    for w in words:
        name, eq, val = w.partition("=")
        if not eq:
            raise ValueError("option %r needs a value: name=value" % w)
        opts.set(name, val)


def names(words, sides):
    """The two teams of an `archers:` line (S=name,name for each side letter in sides), a
    side not named keeping its letter."""
    got = [None, None]  # type: list
    for w in words:
        side, eq, val = w.partition("=")
        if not eq or side not in sides or not val:
            raise ValueError("archers: write %s=name,name %s=name,name" % (sides[0], sides[1]))
        got[sides.index(side)] = tuple(n for n in val.split(",") if n)
    return (got[0] or (sides[0],), got[1] or (sides[1],))


def read_lines(reader, lines):
    """Feed an iterable of lines to reader (numbered from 1); what reader.finish() gives.
    ScriptError once the lines pass MAX_CHARS, without reading further."""
    n = size = 0
    for text in lines:
        n += 1
        size += len(text) + 1
        if size > MAX_CHARS:
            raise ScriptError(n, "the script is longer than %d characters: not a match script" % MAX_CHARS)
        reader.feed(n, text)
    return reader.finish()


def game_of(lines):
    """The game (its surface) a match script is written for: the first game after the
    registry's first whose script module claims it (is_script), else the first."""
    from scorebox_core import games

    every = games.every()
    for g in every[1:]:
        if games.part(g, "SCRIPT").is_script(lines):
            return g
    return every[0]
