"""A match script's file (docs/match-script.md) read and replayed by its game's rules: `scorebox
replay` and a result entered from a paper card (`scorebox event paper`)."""

from scorebox.errors import ScoreboxError


def load_script(path):
    """(the game's surface, its match replayed) of the script at path; ScoreboxError in one
    line, with the line's number, when it cannot be read or a line breaks the rules."""
    return replay_lines(path, script_lines(path))


def script_lines(path):
    """The lines of the script at path."""
    from scorebox_core.script import MAX_CHARS

    try:
        # utf-8-sig: a BOM as some editors write it; lines end at newlines only, not at the
        # form feeds and Unicode separators str.splitlines() also takes
        with open(path, encoding="utf-8-sig") as f:
            lines = f.read(MAX_CHARS + 1).split("\n")  # one more than a script may have: the reader refuses it
        if lines[-1] == "":
            lines.pop()
    except OSError as e:
        raise ScoreboxError("%s: cannot read: %s" % (path, e.strerror or e))
    except UnicodeDecodeError:
        raise ScoreboxError("%s: not a text file (UTF-8 expected)" % path)
    return lines


def replay_lines(path, lines, first=1):
    """load_script's replay of lines read from path; first: the file's line number of lines[0]
    (0 when a line was put before the file's first)."""
    from scorebox_core import games
    from scorebox_core.script import ScriptError
    from scorebox_core.script import game_of as script_game

    game = script_game(lines)  # the registry tells the game (docs/match-script.md says how)
    try:
        return game, games.part(game, "SCRIPT").read_lines(lines)
    except ScriptError as e:
        raise ScoreboxError("%s:%d: %s" % (path, e.line - 1 + first, e.message))
