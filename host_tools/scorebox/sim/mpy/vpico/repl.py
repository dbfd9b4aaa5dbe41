"""The virtual Pico's REPL on its USB port, as MicroPython's shared/runtime/pyexec.c is on a Pico.

The friendly REPL (`>>> `, echo, Ctrl-A raw REPL, Ctrl-B banner, Ctrl-C new line, Ctrl-D soft
reset), the raw REPL (Ctrl-D runs what came since the `>`: "OK", its output, \\x04, its error,
\\x04; Ctrl-D on nothing is a soft reset, Ctrl-B the friendly REPL) and raw-paste mode (\\x05A\\x01
in the raw REPL: window flow control), which mpremote uses. Loaded only while the box sits at
the REPL, and dropped at the soft reset with the firmware's modules (vpico/softreset.py).
"""

import sys

WINDOW = 128  # raw-paste flow control: the Pico's (its stdin buffer's half)
_in = sys.stdin.buffer
_out = sys.stdout.buffer
_one = bytearray(1)
_nl = [0]  # the newline byte that ended the last line: "\r\n" and "\n\r" end one line, as readline.c


def _rd():
    """The next byte from the PC, or None when the port is gone."""
    try:
        n = _in.readinto(_one)
    except OSError:  # EIO: the pty's other side closed
        n = 0
    return _one[0] if n else None


def _wr(b):
    _out.write(b)
    try:
        _out.flush()
    except AttributeError:
        pass


def _run(src, g, mode, eof):
    """Run src (None: Ctrl-C while it came) in g; True when it asked for a soft reset (SystemExit)."""
    try:
        if src is None:
            raise KeyboardInterrupt
        exec(compile(bytes(src), "<stdin>", mode), g)
    except SystemExit:
        if eof:
            _wr(b"\x04\x04")
        return True
    except BaseException as e:  # what the Pico prints: a traceback, and the REPL carries on
        if eof:
            _wr(b"\x04")
        sys.print_exception(e)  # to stdout: the port
        if eof:
            _wr(b"\x04")
        return False
    if eof:
        _wr(b"\x04\x04")
    return False


def _paste(g):
    """Raw-paste mode: the code in windows the box grants, until Ctrl-D; then run it."""
    _wr(b"R\x01" + bytes((WINDOW & 255, WINDOW >> 8, 1)))
    src = bytearray()
    left = WINDOW
    while True:
        c = _rd()
        if c is None:
            return None
        if c in (3, 4):
            _wr(b"\x04")  # the end, acknowledged
            return _run(src if c == 4 else None, g, "exec", True)
        src.append(c)
        left -= 1
        if not left:
            _wr(b"\x01")
            left = WINDOW


def raw(g):
    """The raw REPL: "reset" (a soft reset), "friendly" (Ctrl-B), or None (the port is gone)."""
    _wr(b"raw REPL; CTRL-B to exit\r\n>")
    line = bytearray()
    while True:
        c = _rd()
        if c is None:
            return None
        if c == 1:
            if line == b"\x05A":
                done = _paste(g)
                if done is None:
                    return None
                if done:
                    return "reset"
                _wr(b">")
            else:
                _wr(b"raw REPL; CTRL-B to exit\r\n>")
            line = bytearray()
        elif c == 2:
            _wr(b"\r\n")
            return "friendly"
        elif c == 3:
            line = bytearray()
        elif c == 4:
            _wr(b"OK")
            if not line:
                _wr(b"\r\n")
                return "reset"
            if _run(line, g, "exec", True):
                return "reset"
            line = bytearray()
            _wr(b">")
        else:
            line.append(c)


def banner():
    _wr(
        b'MicroPython %s; virtual Pico (%s)\r\nType "help()" for more information.\r\n'
        % (sys.version.partition("MicroPython ")[2].encode(), sys.implementation._machine.encode())
    )


def _readline(prompt):
    """One line, echoed; an int for a control key at an empty line (Ctrl-C at any), None at the end."""
    _wr(prompt)
    line = bytearray()
    while True:
        c = _rd()
        if c is None or c == 3:
            return c
        if c in (10, 13):
            if _nl[0] in (0, c):
                _nl[0] = c
                _wr(b"\r\n")
                return line
            _nl[0] = 0
            continue
        _nl[0] = 0
        if c in (1, 2, 4) and not line:
            return c
        if c in (8, 127):
            if line:
                line.pop()
                _wr(b"\x08 \x08")
        elif c >= 32:
            line.append(c)
            _wr(bytes((c,)))


def friendly(g):
    """The friendly REPL: "reset" (a soft reset), "raw" (Ctrl-A), or None (the port is gone)."""
    while True:
        line = _readline(b">>> ")
        if line is None:
            return None
        if line == 1:
            _wr(b"\r\n")
            return "raw"
        if line == 2:
            _wr(b"\r\n")
            banner()
        elif line in (3, 4):
            _wr(b"\r\n")
            if line == 4:
                return "reset"
        elif line:
            # a compound statement goes on to an empty line, as MicroPython's REPL does
            more = line.rstrip().endswith(b":")
            while more:
                nxt = _readline(b"... ")
                if nxt is None:
                    return None
                if nxt == 3:
                    _wr(b"\r\n")
                    line = None
                    break
                if not isinstance(nxt, bytearray) or not nxt:
                    break
                line += b"\n" + nxt
            if line is not None and _run(line + b"\n", g, "single", False):
                return "reset"


def repl(mode):
    """The REPL in mode ("friendly" or "raw") until a soft reset: the mode the box then stays in
    (after the raw REPL's reset, the raw REPL again, as the Pico does); None when the port is gone."""
    g = {"__name__": "__main__"}
    if mode == "friendly":
        banner()
    while True:
        got = friendly(g) if mode == "friendly" else raw(g)
        if got in ("friendly", "raw"):
            mode = got
            if mode == "friendly":
                banner()
            continue
        return got and mode
