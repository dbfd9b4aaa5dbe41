"""The desk's pages as a new user meets them (Flask's test client on a store of both games,
bothstore.py): a favicon; a page that is not there, or an error inside a page, said as one
of the desk's pages with a way home, never Flask's bare page or a traceback; no command to
type anywhere (a command's hint in a line said as a link to the page that does it); a
named box's name where its id would show; every column of every table with a heading."""

import io
import re
from html.parser import HTMLParser

import pytest
from bothstore import TTT_BOX, both_games

from scorebox.store.access import open_store
from scorebox.web.app import create_app

# What a page shows that is a command to type: `anything in backticks`, or scorebox's own
# commands and options.
COMMAND = re.compile(r"`|\bscorebox (?:[a-z]+)\b|(?<![\w-])--[a-z][a-z-]+")


@pytest.fixture
def app(tmp_path):
    return create_app(both_games(str(tmp_path / "club.sqlite")), workdir=str(tmp_path / "work"))


class Page(HTMLParser):
    """A page's visible text (not its head, scripts or styles) and its tables: per table,
    its header cells' texts and each body row's number of cells (colspans counted)."""

    def __init__(self, html):
        super().__init__(convert_charrefs=True)
        self.text, self.tables, self.links = [], [], []
        self._hidden = 0
        self._cell = None
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in ("head", "script", "style"):
            self._hidden += 1
        elif tag == "a":
            self.links.append(attrs.get("href"))
        elif tag == "table":
            self.tables.append({"heads": [], "rows": []})
        elif tag == "tr" and self.tables:
            self.tables[-1]["rows"].append(0)
        elif tag in ("th", "td") and self.tables:
            span = int(attrs.get("colspan", 1))
            self.tables[-1]["rows"][-1] += span
            self._cell = [] if tag == "th" else None
            if tag == "th":
                self.tables[-1]["heads"].append(self._cell)
        elif tag in ("input", "select", "button") and self._cell is not None and attrs.get("type") != "hidden":
            self._cell.append(attrs.get("aria-label") or "")

    def handle_endtag(self, tag):
        if tag in ("head", "script", "style"):
            self._hidden -= 1
        elif tag == "th":
            self._cell = None

    def handle_data(self, data):
        if not self._hidden:
            self.text.append(data)
            if self._cell is not None:
                self._cell.append(data)

    def visible(self):
        return " ".join(" ".join(self.text).split())


def pages(client):
    """Every page of the desk a user reaches on a store of both games, as (address, html):
    the menu's, each match's (both games), each archer's, the retired archers', a filtered
    list, a refusal said on its page and a member list's preview."""
    out = []
    for path in ("/matches", "/archers", "/archers?retired=1", "/boxes", "/stats", "/sync", "/push", "/report"):
        out.append((path, client.get(path).get_data(as_text=True)))
    out += [(p, client.get(p).get_data(as_text=True)) for p in ("/faces", "/safety", "/matches?game=try-tac-toe")]
    for mid in re.findall(r'href="/matches/(\d+)"', out[0][1]):
        out.append(("/matches/" + mid, client.get("/matches/" + mid).get_data(as_text=True)))
    for name in sorted(set(re.findall(r'href="/stats\?archer=([^"]+)"', out[1][1]))):
        out.append(("/stats?archer=" + name, client.get("/stats?archer=" + name).get_data(as_text=True)))
    out.append(("/report/view", client.get("/report/view").get_data(as_text=True)))  # the report, as the desk shows it
    for path in ("/matches/999", "/stats?archer=Nobody"):  # refused: said on the page it went back to
        out.append((path, client.get(path, follow_redirects=True).get_data(as_text=True)))
    return out


def test_the_favicon_is_linked_from_every_page_and_served_as_svg(app):
    c = app.test_client()
    r = c.get("/static/favicon.svg")
    assert r.status_code == 200 and r.mimetype == "image/svg+xml"
    assert r.get_data(as_text=True).startswith("<svg ")
    for path, html in pages(c):
        if path != "/report/view":  # the report: one file that fetches nothing, read offline too
            assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in html, path


def test_an_unknown_address_is_the_desks_own_404_with_a_link_home(app):
    c = app.test_client()
    r = c.get("/no/such/page")
    assert r.status_code == 404
    page = Page(r.get_data(as_text=True))
    assert "No such page" in page.visible() and "Not Found" not in page.visible()
    assert "/matches" in page.links  # home: the list of matches
    assert '<link rel="stylesheet" href="/static/desk.css">' in r.get_data(as_text=True)  # the desk's style
    assert "default-src 'self'" in r.headers["Content-Security-Policy"]  # and its headers


def test_a_page_opened_that_only_takes_a_form_is_said_in_words(app):
    r = app.test_client().get("/archers/add")
    assert r.status_code == 405
    assert "This address takes a form" in Page(r.get_data(as_text=True)).visible()


def test_an_error_inside_a_page_is_the_desks_own_500_without_a_traceback(tmp_path):
    app = create_app(both_games(str(tmp_path / "club.sqlite")), workdir=str(tmp_path / "work"))

    @app.route("/broken")
    def broken():
        raise RuntimeError("a secret detail of the desk's code")

    r = app.test_client().get("/broken")
    assert r.status_code == 500
    html = r.get_data(as_text=True)
    page = Page(html)
    assert "Something went wrong" in page.visible() and "/matches" in page.links
    assert "Traceback" not in html and "secret detail" not in html and "RuntimeError" not in html
    assert "Internal Server Error" not in html


def test_no_page_tells_its_user_a_command_to_type(app):
    c = app.test_client()
    for path, html in pages(c):
        text = Page(html).visible()
        assert not COMMAND.search(text), "%s: %r" % (path, COMMAND.search(text).group())


def test_a_refusal_with_a_commands_hint_says_where_to_go_on_the_desk(app):
    c = app.test_client()
    html = c.get("/matches/999", follow_redirects=True).get_data(as_text=True)
    said = re.search(r'<p class="msg error" role="alert">(.*?)</p>', html).group(1)
    assert said == "no match 999 in the store: pick one on this page"  # it is the Matches page: no link to itself
    html = c.get("/matches/999", headers={"Referer": "http://localhost/boxes"}, follow_redirects=True)
    said = re.search(r'<p class="msg error" role="alert">(.*?)</p>', html.get_data(as_text=True)).group(1)
    assert said == 'no match 999 in the store: pick one on <a href="/matches">the Matches page</a>'


def test_a_refusal_on_the_page_its_hint_names_says_this_page(app):
    c = app.test_client()
    form = {"csrf": token(c), "old": "Nobody", "new": "Zed"}
    html = c.post("/archers/rename", data=form, headers={"Referer": "http://localhost/archers"}, follow_redirects=True)
    assert said(html.get_data(as_text=True)) == [
        ("error", "no archer called &#39;Nobody&#39;: this page lists who is there")
    ]


def test_every_column_of_every_table_has_a_heading(app):
    c = app.test_client()
    seen = 0
    for path, html in pages(c):
        for t in Page(html).tables:
            heads = ["".join(h).strip() for h in t["heads"]]
            assert all(heads), "%s: a column without a heading: %r" % (path, heads)
            assert all(n <= len(heads) for n in t["rows"]), "%s: more cells than headings: %r" % (path, heads)
            seen += 1
    assert seen >= 8  # the matches, archers (both ways), boxes, statistics, head to head...


def test_the_retired_archers_status_column_is_there_when_they_are_shown(app):
    c = app.test_client()
    t = re.search(r"<table>.*?</table>", c.get("/archers?retired=1").get_data(as_text=True), re.S).group()
    assert "<th>status</th>" in t
    assert "status" not in c.get("/archers").get_data(as_text=True)  # only those on the roster: no such column


def test_a_named_boxs_name_heads_its_matches(app):
    s = open_store(app.config["STORE"])
    try:
        s.name_box(TTT_BOX, "Range 2")
        mid = next(m["id"] for m in s.matches() if m["device"] == TTT_BOX)
        other = next(m for m in s.matches() if m["device"] != TTT_BOX)
    finally:
        s.close()
    c = app.test_client()
    html = c.get("/matches/%d" % mid).get_data(as_text=True)
    assert re.search(r"<h1>Match Range 2 #\d+ <small>", html)
    assert "<title>Match Range 2 #" in html and TTT_BOX not in html
    unnamed = c.get("/matches/%d" % other["id"]).get_data(as_text=True)
    assert "<h1>Match %s/%d <small>" % (other["device"], other["number"]) in unnamed  # a box with no name: its id


def test_the_faces_page_offers_each_game_by_its_name(app):
    html = app.test_client().get("/faces").get_data(as_text=True)
    options = re.findall(
        r'<option value="(\w+)">([^<]+)</option>', re.search(r'<select name="face">.*?</select>', html).group()
    )
    assert options == [
        ("tictacbow", "Tic Tac BOW"),
        ("trytactoe", "Try-Tac-Toe"),
    ]  # the value the command takes, the name people read


def token(client, page="/archers"):
    return re.search(r'name="csrf" value="([^"]+)"', client.get(page).get_data(as_text=True)).group(1)


def said(html):
    """The page's messages, their markup kept: [(kind, html)]."""
    return re.findall(r'<p class="msg (\w+)" role="\w+">(.*?)</p>', html, re.S)


def test_the_stores_refusals_say_what_to_do_on_the_desk(app):
    c = app.test_client()
    t = token(c)
    got = {}
    for path, form in (
        ("/archers/rename", {"old": "Nobody", "new": "Zed"}),
        ("/boxes/name", {"box": "nobox", "name": "Range 9"}),
        ("/matches/1/names", {"name0": "Anne", "name1": "Ben", "force": "1"}),
    ):
        html = c.post(path, data=dict(form, csrf=t), follow_redirects=True).get_data(as_text=True)
        got[path] = said(html)[0][1]
        assert not COMMAND.search(Page(html).visible()), path
    assert (
        got["/archers/rename"]
        == 'no archer called &#39;Nobody&#39;: <a href="/archers">the Archers page</a> lists who is there'
    )
    assert got["/boxes/name"] == 'no box nobox: <a href="/boxes">the Boxes page</a> lists them'
    assert got["/matches/1/names"].endswith("check the spelling, or tick 'add names not on the roster'")


def test_a_desk_with_no_store_yet_says_to_sync_a_box(tmp_path):
    app = create_app(str(tmp_path / "none.sqlite"), workdir=str(tmp_path / "work"))
    html = app.test_client().get("/stats", follow_redirects=True).get_data(as_text=True)
    assert said(html) == [
        ("error", 'no store at %s: <a href="/sync">sync</a> a box first' % (tmp_path / "none.sqlite"))
    ]


def test_a_member_list_name_the_box_cannot_show_says_to_add_it_on_the_archers_page(app):
    c = app.test_client()
    data = {"csrf": token(c), "members": (io.BytesIO("Name\n\u5f20\u4f1f\nAnn Other\n".encode()), "m.csv")}
    html = c.post("/archers/import", data=data, content_type="multipart/form-data").get_data(as_text=True)
    refused = re.search(r"<h2>Refused</h2><ul><li>(.*?)</li>", html).group(1)
    assert refused.endswith('add the archer with a name the box can show on <a href="/archers">the Archers page</a>')
    assert not COMMAND.search(Page(html).visible())


def test_a_syncs_lines_say_what_to_do_on_the_desk(app):
    """The lines of a sync of another club's box (summary.py's) and of a box listing more
    names than a sync adds (protocol.py's), as the Sync page shows them."""
    from scorebox.sync import summary

    got = summary.Summary()
    got.device, got.foreign = "e6614103dddddddd", "another-store"
    lines = got.lines() + [
        "3 more names from the box NOT added (a sync adds 200 at most): Al, Bo, Cy; `scorebox archers add` adds one"
    ]
    app.extensions["scorebox.sync"].st = {"state": "done", "lines": lines, "facts": {}}
    html = app.test_client().get("/sync").get_data(as_text=True)
    said = re.search(r'<ul class="lines done">(.*?)</ul>', html, re.S).group(1)  # a line each, not terminal text
    assert 'tick "make this store the box\'s own" and sync again' in said
    assert said.endswith('Al, Bo, Cy; <a href="/archers">the Archers page</a> adds one</li>')
    assert not COMMAND.search(Page(html).visible())


def test_the_sync_page_names_the_box_it_synced(app):
    s = open_store(app.config["STORE"])
    try:
        s.name_box(TTT_BOX, "Range 2")
    finally:
        s.close()
    app.extensions["scorebox.sync"].st = {"state": "done", "lines": [], "facts": {"device": TTT_BOX, "new": 0}}
    html = app.test_client().get("/sync").get_data(as_text=True)
    assert "<dt>Box</dt><dd>Range 2 (<code>%s</code>)</dd>" % TTT_BOX in html


def test_every_file_the_pages_serve_is_in_the_wheel():
    """The desk's and the league's templates and static files (the favicon too) match the
    package data pyproject.toml gives the wheel: an install that is not a checkout has them."""
    import fnmatch
    import os

    tomllib = pytest.importorskip("tomllib")
    from mpy import ROOT

    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        data = tomllib.load(f)["tool"]["setuptools"]["package-data"]
    for package in ("scorebox.web.static", "scorebox.web.templates", "scorebox.league.templates"):
        folder = os.path.join(ROOT, "host_tools", *package.split("."))
        for name in os.listdir(folder):
            if not name.endswith(".py") and name != "__pycache__":
                assert any(fnmatch.fnmatch(name, g) for g in data[package]), "%s/%s" % (package, name)
