"""The report at a smaller window (issue #12): at 900 px nothing scrolls sideways (the match
list stacks above the board), and a square's tag ("flipped, locked") is clear of its number
(it read "1flipped, locked")."""

import pytest
from browser import Chromium, find
from handmatches import fill

from scorebox import cli
from scorebox.store.sqlite import Store

# [tags on the board, tags whose box meets a square number's box]
OVERLAPS = """(function () {
  var n = 0, bad = 0, nums = document.querySelectorAll('#board .num');
  document.querySelectorAll('#board .tag').forEach(function (t) {
    var a = t.getBBox();
    n++;
    nums.forEach(function (u) {
      var b = u.getBBox();
      if (a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height) bad++;
    });
  });
  return [n, bad];
})()"""


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    folder = tmp_path_factory.mktemp("layout")
    path = str(folder / "club.sqlite")
    fill(Store(path)).close()
    out = str(folder / "report.html")
    assert cli.main(["report", "--db", path, "--out", out]) == 0
    return out


def test_900_px_and_the_tags(page):
    if not find():
        pytest.fail("chromium is not installed: `apt-get install -y chromium` (the Makefile's setup does it)")
    with Chromium(900, 800) as c:
        c.open("file://" + page)
        c.settle(0.5)
        assert c.eval("document.documentElement.scrollWidth") <= 900
        assert c.eval("(function (l) { return l.scrollWidth <= l.clientWidth; })(document.querySelector('.list'))")
        tags = 0
        for m in range(3):  # every turn of every hand match: no tag touches a square's number
            c.eval("scorebox.pick(%d); scorebox.go(0)" % m)
            for _ in range(12):
                got = c.eval(OVERLAPS)
                assert got[1] == 0, (m, got)
                tags += got[0]
                c.eval("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight'}))")
        assert tags > 0 and c.problems == []


def test_a_phone_scrolls_no_page_of_the_report_sideways(page):
    """At 360 px every page of the report fits: its wide tables and charts scroll inside
    their card (before: 702-957 px wide, the header stopping at 360)."""
    if not find():
        pytest.fail("chromium is not installed: `apt-get install -y chromium` (the Makefile's setup does it)")
    with Chromium(360, 800) as c:
        c.open("file://" + page)
        c.settle(0.5)
        for name in ("matches", "archers", "h2h", "faces", "about"):
            c.eval("document.querySelector('#nav a[data-page=%s]').click()" % name)
            c.settle(0.2)
            assert c.eval("document.documentElement.scrollWidth") <= 360, name
        assert c.problems == []
