"""Rule test vectors: match scripts with `expect:` lines, checked on CPython and MicroPython.

Each file in tests/vectors/ is a match script (docs/match-script.md) in which lines of the
form `expect: WHAT ...` check the state reached so far (grammar in tests/vectors/README.md).
This module runs unchanged under both interpreters:

    micropython tests/mpy/rules_vectors.py tests/vectors/*.ttb     (prints PASS/FAIL per file)
"""

import path_setup  # noqa: F401  (sys.path, so that the script runs alone)

# isort: split

import sys

from scorebox_core.games.ttb import rules
from scorebox_core.games.ttb.script import Reader, ScriptError, parse_token

_SIDE = {"A": rules.A, "B": rules.B, "draw": rules.DRAW, "none": None}


class Mismatch(Exception):
    pass


def _want(cond, text):
    if not cond:
        raise Mismatch(text)


def _side(word):
    if word not in _SIDE:
        raise Mismatch("bad side %r in expect line" % word)
    return _SIDE[word]


def _kv(words):
    d = {}
    for w in words:
        k, _, v = w.partition("=")
        d[k] = v
    return d


def check(m, words):
    """Check one expect line (split into words) against Match m."""
    what, args = words[0], words[1:]
    g = m.game
    if what == "square":
        i = int(args[0]) - 1
        if args[1] == "open":
            _want(g.owner[i] is None, "square %d is owned by %s" % (i + 1, rules.side_name(g.owner[i])))
            need = _kv(args[2:])
            for s in ("A", "B"):
                if s in need:
                    got = g.need(_SIDE[s], i)
                    _want(got == int(need[s]), "square %d: %s needs %s, expected %s" % (i + 1, s, got, need[s]))
        else:
            want = _side(args[1])
            _want(g.owner[i] == want, "square %d owner %s, expected %s" % (i + 1, rules.side_name(g.owner[i]), args[1]))
            flags = args[2:]
            _want((g.flips[i] > 0) == ("flipped" in flags), "square %d flipped is %s" % (i + 1, bool(g.flips[i])))
            _want(g.locked(i) == ("locked" in flags), "square %d locked is %s" % (i + 1, g.locked(i)))
    elif what == "winner":
        _want(g.winner == _side(args[0]), "game winner %s, expected %s" % (rules.side_name(g.winner), args[0]))
        if len(args) > 1:
            reason = " ".join(args[1:])
            _want(g.reason == reason, "reason %r, expected %r" % (g.reason, reason))
    elif what == "next":
        side = m.shooter()
        if args[0] == "none":
            _want(side is None, "someone still shoots: %s" % rules.side_name(side))
            return
        k, n = m.arrow_no() if side is not None else (0, 0)
        got = "%s %d" % (rules.side_name(side), k)
        _want(got == "%s %s" % (args[0], args[1]), "next is %s, expected %s %s" % (got, args[0], args[1]))
        if len(args) > 2:
            _want(m.archer() == args[2], "archer %s, expected %s" % (m.archer(), args[2]))
    elif what == "match":
        r = m.result()
        _want(r == _side(args[0]), "match result %s, expected %s" % (rules.side_name(r), args[0]))
        _want(m.over() == (r is not None), "match over is %s" % m.over())
    elif what == "wins":
        d = _kv(args)
        got = "A=%d B=%d draws=%d" % (m.wins[0], m.wins[1], m.draws)
        want = "A=%s B=%s draws=%s" % (d.get("A"), d.get("B"), d.get("draws"))
        _want(got == want, "wins %s, expected %s" % (got, want))
    elif what == "game":
        _want(len(m.games) == int(args[0]), "game %d, expected %s" % (len(m.games), args[0]))
    elif what == "face":
        d = _kv(args)
        _want(m.face.games == int(d["games"]), "face games %d, expected %s" % (m.face.games, d["games"]))
        worn = "yes" if m.face.worn(m.opts) else "no"
        _want(worn == d["worn"], "face worn %s, expected %s" % (worn, d["worn"]))
    elif what == "refuse":
        ev = parse_token(args[0])
        before = len(m.log)
        reason = m.why_not(ev)
        _want(reason is not None, "%s was accepted" % args[0])
        try:
            m.apply(ev)
            raise Mismatch("%s applied although refused" % args[0])
        except rules.Refused:
            pass
        _want(len(m.log) == before, "a refused event changed the log")
        if len(args) > 1:
            part = " ".join(args[1:])
            _want(part in reason, "reason %r lacks %r" % (reason, part))
    else:
        raise Mismatch("unknown expect %r" % what)


def run(path):
    """Run one vector file; returns (number of checks, None) or (checks, failure text).

    `expect: error TEXT` follows the line that must fail; the vector ends there."""
    with open(path) as f:
        lines = f.read().split("\n")
    r = Reader()
    checks = 0
    for n, text in enumerate(lines, 1):
        s = text.strip()
        if s.startswith("expect:"):
            words = s[7:].split()
            checks += 1
            if words[0] == "error":
                return checks, "line %d: the line before did not fail" % n
            try:
                check(r.finish(), words)
            except Mismatch as e:
                return checks, "line %d: %s" % (n, e)
            continue
        try:
            r.feed(n, text)
        except ScriptError as e:
            want = _next_expect(lines, n)
            if want and want[0] == "error" and " ".join(want[1:]) in e.message:
                return checks + 1, None
            return checks, "line %d: unexpected error: %s" % (n, e.message)
    return checks, None


def _next_expect(lines, n):
    """Words of the expect line right after line n (1-based), if there is one."""
    for text in lines[n:]:
        s = text.strip()
        if s:
            return s[7:].split() if s.startswith("expect:") else None
    return None


def main(paths):
    failed = 0
    for p in paths:
        checks, err = run(p)
        if err:
            failed += 1
            print("FAIL %s %d %s" % (p, checks, err))
        else:
            print("PASS %s %d" % (p, checks))
    return failed


if __name__ == "__main__":
    sys.exit(1 if main(sys.argv[1:]) else 0)
