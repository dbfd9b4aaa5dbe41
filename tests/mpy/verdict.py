"""A MicroPython script's verdict, counted (issue 21, item 16): `assert` is compiled out by
`micropython -O` and `mpy-cross -O`, and a script that relied on it printed ALL OK whatever
happened. Each check calls want(cond, text); done() at the end prints ALL OK, or the number
of checks that failed and exits with status 1, so the test that runs the script fails."""

import sys

failed = 0


def want(cond, text):
    """Count cond's failure (and say it); returns cond, for a check that must stop a loop."""
    global failed
    if not cond:
        failed += 1
        print("FAIL", text)
    return cond


def done(ok="ALL OK"):
    if failed:
        print("%d FAILED" % failed)
        sys.exit(1)
    print(ok)
