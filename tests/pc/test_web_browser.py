"""The club's desk in a real browser (issue 24): Playwright for Python drives the system's
Chromium through each page's forms, against a real server (`scorebox serve`'s listen()) on
a free port over a real SQLite store of both games (tests/support/bothstore.py).

Each page's screenshot is taken; with SCOREBOX_WEB_SHOTS=docs/web they are written there
(the README's and docs/web.md's pictures), otherwise into the test's folder.
"""

import os
import subprocess
import sys
import threading

import pytest
from bothstore import both_games

from scorebox.store.sqlite import Store
from scorebox.web.serve import listen

playwright = pytest.importorskip("playwright.sync_api")
CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="no system Chromium (make test installs it)")


@pytest.fixture(scope="module")
def browser():
    with playwright.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


class Desk:
    """A server on a free port over a store of both games, serving in a thread."""

    def __init__(self, folder, sim_state=None):
        self.db = both_games(str(folder / "club.sqlite"))
        self.server, self.url = listen(self.db, port=0, sim_state=sim_state)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def store(self):
        return Store(self.db, create=False)

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def desk(tmp_path):
    d = Desk(tmp_path)
    yield d
    d.close()


@pytest.fixture
def page(browser, desk):
    ctx = browser.new_context(viewport={"width": 960, "height": 640}, accept_downloads=True)
    pg = ctx.new_page()
    pg.set_default_timeout(20000)
    yield pg
    ctx.close()


def shot(page, name, tmp_path):
    folder = os.environ.get("SCOREBOX_WEB_SHOTS") or str(tmp_path)
    path = (
        os.path.join(ROOT, folder, name + ".png") if not os.path.isabs(folder) else os.path.join(folder, name + ".png")
    )
    page.bring_to_front()  # a tab behind another paints nothing: its screenshot would wait
    page.screenshot(path=path)
    assert os.path.getsize(path) > 1000


def submit(page, selector):
    """Click a form's button and wait for the page it leads to."""
    with page.expect_navigation():
        page.click(selector)


def message(page):
    return page.locator("p.msg").first.inner_text()


def test_matches_filtered_and_a_match_of_each_game(page, desk, tmp_path):
    page.goto(desk.url)
    assert page.locator("tbody tr").count() == 5
    shot(page, "matches", tmp_path)
    page.select_option("select[name=game]", "try-tac-toe")
    submit(page, "text=Show")
    assert page.locator("tbody tr").count() == 2
    page.fill("input[name=archer]", "cat")
    page.select_option("select[name=game]", "")
    with page.expect_navigation():
        page.keyboard.press("Enter")  # the keyboard submits the filters
    assert [t.strip() for t in page.locator("tbody tr td:first-child").all_inner_texts()] == ["3", "2"]
    submit(page, "a[href='/matches/2']")
    assert "Turn by turn" in page.content() and "Game 1, round 1" in page.inner_text("pre.board")
    shot(page, "match", tmp_path)
    page.goto(desk.url + "matches/4")  # Try-Tac-Toe (TTT-6): its own board, by its game's show
    assert page.locator("pre.board").inner_text().strip()


def test_archers_add_rename_retire_and_a_hostile_name(page, desk, tmp_path):
    page.goto(desk.url + "archers")
    hostile = "<b>Bo</b>"
    for name in ("Zed", hostile):
        page.fill("form[action='/archers/add'] input[name=name]", name)
        submit(page, "form[action='/archers/add'] button")
        assert message(page) == "added %s" % name
    assert page.locator("td", has_text=hostile).count() == 1  # shown as text, not as markup
    assert page.locator("td b").count() == 0
    page.fill("input[name=old]", "zed")
    page.fill("input[name=new]", "Zedd")
    submit(page, "button:text('Rename')")
    assert "renamed Zed to Zedd" in message(page)
    page.fill("form[action='/archers/retire'] input[name=name]", "Zedd")
    submit(page, "button:text('Retire')")
    assert "retired Zedd" in message(page)
    page.fill("form[action='/archers/retire'] input[name=name]", "Nobody")
    submit(page, "button:text('Retire')")
    assert "no archer called" in page.locator("p.msg.error").inner_text()
    s = desk.store()
    assert {r[0]: r[1] for r in s.archers(retired=True)}["Zedd"] == 1
    s.close()
    shot(page, "archers", tmp_path)


def test_import_a_member_list_with_its_preview(page, desk, tmp_path):
    csv = tmp_path / "members.csv"
    csv.write_text("First name,Last name\nAnnabel,Featherstonehaugh\nZoe,Li\nZoe,Li\n")
    page.goto(desk.url + "archers")
    page.set_input_files("input[name=members]", str(csv))
    submit(page, "text=Preview import")
    assert "Nothing saved yet" in page.content()
    assert page.locator("tr.made").count() == 1  # the 12-character box name made from a longer one
    s = desk.store()
    assert "Zoe Li" not in [r[0] for r in s.archers()]
    s.close()
    shot(page, "import", tmp_path)
    submit(page, "text=Save these archers")
    assert page.locator("p.msg.ok").inner_text() == "Saved."
    s = desk.store()
    assert "Zoe Li" in [r[0] for r in s.archers()]
    s.close()


def test_name_a_box(page, desk, tmp_path):
    page.goto(desk.url + "boxes")
    page.fill("input[aria-label='new name for hand']", "Range 1")
    submit(page, "tr:has-text('hand') >> text=Name")
    assert message(page) == "box hand is now Range 1"
    assert "Range 1" in page.inner_text("tbody")
    shot(page, "boxes", tmp_path)


def test_backup_then_restore(page, desk, tmp_path):
    page.goto(desk.url + "safety")
    with page.expect_download() as got:
        page.click("text=Download a backup")
    saved = tmp_path / got.value.suggested_filename
    got.value.save_as(str(saved))
    assert saved.read_bytes().startswith(b"SQLite format 3")
    page.select_option("select[name=format]", "json")
    with page.expect_download() as export:
        page.click("text=Download the export")
    assert export.value.suggested_filename == "scorebox-export-json.zip"
    page.goto(desk.url + "archers")
    page.fill("form[action='/archers/add'] input[name=name]", "Later")
    submit(page, "form[action='/archers/add'] button")
    page.goto(desk.url + "safety")
    page.set_input_files("input[name=backup]", str(saved))
    submit(page, "button:text('Restore')")
    assert "restored the store" in message(page) and "kept as" in message(page)
    shot(page, "safety", tmp_path)
    s = desk.store()
    assert "Later" not in [r[0] for r in s.archers()] and s.count() == 5
    s.close()


def test_the_report(page, desk, tmp_path):
    page.goto(desk.url + "report")
    shot(page, "report", tmp_path)
    with page.expect_popup() as popup:
        page.click("text=View the report")
    report = popup.value
    report.wait_for_load_state()
    assert "Scorebox" in report.title()
    with page.expect_download() as got:
        page.click("text=Download it")
    assert got.value.suggested_filename == "scorebox-report.html"


def test_statistics_pages(page, desk, tmp_path):
    page.goto(desk.url + "archers")
    submit(page, "a:text-is('Ann')")  # an archer's name leads to their page
    assert page.inner_text("h1") == "Ann" and "Head to head" in page.content()
    shot(page, "archer", tmp_path)
    submit(page, "text=Every archer")
    assert page.locator("tbody tr").count() >= 3
    shot(page, "stats", tmp_path)


def test_a_face_as_a_pdf(page, desk, tmp_path):
    page.goto(desk.url + "faces")
    page.select_option("select[name=face]", "trytactoe")
    page.fill("input[name=size]", "300")
    shot(page, "faces", tmp_path)
    with page.expect_download(timeout=120000) as got:
        page.click("text=Download the PDF")
    assert got.value.suggested_filename == "trytactoe-300mm-a4.pdf"
    saved = tmp_path / "face.pdf"
    got.value.save_as(str(saved))
    assert saved.read_bytes().startswith(b"%PDF")


def test_a_sync_with_no_simulated_box_says_so(page, desk, tmp_path, monkeypatch):
    desk.server.app.config["SIM_STATE"] = str(tmp_path / "none.flash")
    page.goto(desk.url + "sync")
    page.check("input[value=sim]")
    submit(page, "text=Sync now")
    page.wait_for_selector("text=Not synced")
    assert "no simulator box here yet" in page.inner_text("ul.lines")


@pytest.mark.micropython
def test_sync_the_simulated_box_and_a_second_sync_is_refused(browser, tmp_path):
    """A match keyed on the virtual Pico (docs/demo.keys) comes in through the Sync page; a
    second sync started meanwhile from another tab is refused in words."""
    state = str(tmp_path / "sim.flash")
    scorebox = os.path.join(os.path.dirname(sys.executable), "scorebox")
    keyed = subprocess.run(
        [scorebox, "sim", "--keys", os.path.join(ROOT, "docs", "demo.keys"), "--state", state],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert keyed.returncode == 0, keyed.stderr
    desk = Desk(tmp_path, sim_state=state)
    try:
        ctx = browser.new_context(viewport={"width": 960, "height": 640})
        one, two = ctx.new_page(), ctx.new_page()
        for pg in (one, two):
            pg.set_default_timeout(120000)
            pg.goto(desk.url + "sync")
            pg.check("input[value=sim]")
        submit(one, "text=Sync now")
        submit(two, "text=Sync now")
        assert "a sync is running already" in two.locator("p.msg.error").inner_text()
        one.wait_for_selector("h2:text('Done')")
        assert "1 new match" in one.inner_text("ul.lines")
        shot(one, "sync", tmp_path)
        s = desk.store()
        assert s.count() == 6
        s.close()
        ctx.close()
    finally:
        desk.close()


def test_every_page_fits_a_phone_and_works_with_the_keyboard(browser, desk):
    """On a phone's 360 px the page itself never scrolls sideways (a wide table or board
    scrolls in its own box); Tab reaches the navigation's links in order."""
    ctx = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True)
    pg = ctx.new_page()
    try:
        for path in ("matches", "matches/1", "matches/4", "archers", "boxes", "stats", "stats?archer=Ann", "sync"):
            pg.goto(desk.url + path)
            wide = pg.evaluate("document.documentElement.scrollWidth")
            assert wide <= 360, (path, wide)
        for path in ("push", "report", "faces", "safety", "events"):
            pg.goto(desk.url + path)
            assert pg.evaluate("document.documentElement.scrollWidth") <= 360, path
        pg.goto(desk.url + "matches")
        seen = []
        want = ["Scorebox", "Matches", "Archers", "Events", "Boxes", "Statistics", "Sync", "Push", "Report"]
        want += ["Faces", "Safety"]
        for _ in want:
            pg.keyboard.press("Tab")
            seen.append(pg.evaluate("document.activeElement.textContent.trim()"))
        assert seen == want
        pg.keyboard.press("Shift+Tab")  # back from Safety to Faces
        with pg.expect_navigation():
            pg.keyboard.press("Enter")  # on Faces
        assert pg.url.endswith("/faces")
    finally:
        ctx.close()
