"""Make docs/report.png, the README's picture of `scorebox report`:
`.venv/bin/python tools/report_screenshot.py docs/report.png` (needs chromium).

A store of 1,500 generated matches plus the hand-written ones, the report written with its
default settings, opened in headless Chromium, a match replayed to the middle."""

import os
import sys
import tempfile

# the tests' helpers: a browser, the hand-written matches, the store generator
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests", "support"))

from browser import Chromium  # noqa: E402
from handmatches import fill  # noqa: E402
from storegen import generate  # noqa: E402

from scorebox.report import html  # noqa: E402
from scorebox.store.sqlite import Store  # noqa: E402


def main(out):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "club.sqlite")
        generate(path, 1500, seed=2)
        store = fill(Store(path))
        page = os.path.join(d, "report.html")
        html.write(store, page)
        with Chromium(1280, 820) as c:
            c.open("file://" + page)
            c.eval("scorebox.pick(3); scorebox.go(17)")
            c.settle(0.3)
            if c.problems:
                raise SystemExit("the page reported problems: %s" % c.problems)
            c.screenshot(out)
    print(out)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "docs/report.png")
