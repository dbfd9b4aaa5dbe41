"""The club's desk (`scorebox serve`, host_tools/scorebox/web) through Flask's test client,
on a real SQLite store of both games (tests/support/bothstore.py): the CSRF token, another
origin or Host refused, archer names escaped, uploads kept in their folder, and each page's
form doing what its command does (issue 24)."""

import os
import re
import sqlite3

import pytest
from bothstore import both_games
from handmatches import MATCH1, item
from test_hostile_names import ESCAPES, HOSTILE

from scorebox.store.sqlite import Store
from scorebox.web import serve
from scorebox.web.app import create_app

HTML_HOSTILE = ["<script>alert(1)</script>", '"><img src=x onerror=alert(1)>', "Ann & <b>Bo</b>"]


@pytest.fixture
def app(tmp_path):
    return create_app(both_games(str(tmp_path / "club.sqlite")), workdir=str(tmp_path / "work"))


def token(client, page="/archers"):
    return re.search(r'name="csrf" value="([^"]+)"', client.get(page).get_data(as_text=True)).group(1)


def archers(app):
    s = Store(app.config["STORE"], create=False)
    try:
        return {r[0]: r for r in s.archers(retired=True)}
    finally:
        s.close()


def test_every_page_renders_on_a_store_of_both_games(app):
    c = app.test_client()
    for page in ("/matches", "/matches/1", "/matches/4", "/archers", "/boxes", "/sync", "/report", "/safety"):
        r = c.get(page)
        assert r.status_code == 200, page
        assert "default-src 'self'" in r.headers["Content-Security-Policy"]
    assert "Turn by turn" in c.get("/matches/4").get_data(as_text=True)  # a Try-Tac-Toe game's replay (TTT-6)
    assert c.get("/matches/999").status_code == 302  # no such match: said on the list page


def test_a_post_without_the_token_changes_nothing(app):
    c = app.test_client()
    token(c)
    r = c.post("/archers/add", data={"name": "Zed"})
    assert r.status_code == 403
    r = c.post("/archers/add", data={"name": "Zed", "csrf": "forged"})
    assert r.status_code == 403
    r = c.post("/archers/add", data={"name": "Zed", "csrf": "f\u00f6rged"})  # beyond ASCII: refused, no 500
    assert r.status_code == 403
    assert "Zed" not in archers(app)
    r = c.post("/archers/add", data={"name": "Zed", "csrf": token(c)})
    assert r.status_code == 302 and "Zed" in archers(app)


def test_a_token_from_another_session_is_refused(app):
    other = token(app.test_client())
    c = app.test_client()
    token(c)
    assert c.post("/archers/add", data={"name": "Zed", "csrf": other}).status_code == 403
    assert "Zed" not in archers(app)


def test_another_origin_is_refused_even_with_the_token(app):
    c = app.test_client()
    t = token(c)
    for head in ({"Origin": "http://evil.example"}, {"Referer": "http://evil.example/x"}):
        assert c.post("/archers/add", data={"name": "Zed", "csrf": t}, headers=head).status_code == 403
    assert "Zed" not in archers(app)
    ok = c.post("/archers/add", data={"name": "Zed", "csrf": t}, headers={"Origin": "http://localhost"})
    assert ok.status_code == 302


def test_another_host_is_refused(tmp_path):
    """A page asked for under another name (DNS rebinding: evil.example resolving to 127.0.0.1)."""
    app = create_app(both_games(str(tmp_path / "c.sqlite")), port=8024, workdir=str(tmp_path / "w"))
    c = app.test_client()
    assert c.get("/matches", headers={"Host": "evil.example:8024"}).status_code == 400
    assert c.get("/matches", headers={"Host": "127.0.0.1:8024"}).status_code == 200
    assert c.get("/matches", headers={"Host": "127.0.0.1:9999"}).status_code == 400


@pytest.mark.parametrize("name", HTML_HOSTILE + HOSTILE + ESCAPES)
def test_archer_names_are_escaped_on_every_page(tmp_path, name):
    from test_hostile_names import store_with

    store_with(tmp_path, name, "Ben").close()
    app = create_app(str(tmp_path / "club.sqlite"), workdir=str(tmp_path / "w"))
    c = app.test_client()
    from markupsafe import escape

    for page in ("/matches", "/matches/1", "/archers", "/matches?archer=Ben"):
        body = c.get(page).get_data(as_text=True)
        assert str(escape(name)) in body, page
        if name != str(escape(name)):
            assert name not in body, page


def test_an_upload_never_leaves_its_folder(app, tmp_path):
    c = app.test_client()
    t = token(c)
    data = {"csrf": t, "members": (open_bytes(b"Name\nAnnabel Featherstonehaugh\n"), "../../../escape.csv")}
    r = c.post("/archers/import", data=data, content_type="multipart/form-data")
    assert r.status_code == 200
    uploads = app.config["UPLOADS"]
    assert [len(n) for n in os.listdir(uploads)] == [32]  # kept under the app's name, waiting for Save
    assert not any(p.name == "escape.csv" for p in tmp_path.rglob("escape.csv"))
    for bad in ("../club.sqlite", "..%2fclub.sqlite", "/etc/passwd", "a" * 32):
        r = c.post("/archers/import", data={"csrf": t, "file": bad})
        assert r.status_code == 302, bad  # refused in words on the page it came from
    assert "Annabel Featherstonehaugh" not in str(archers(app))


def open_bytes(b):
    import io

    return io.BytesIO(b)


def test_import_shows_the_box_names_and_saves_them_only_when_told(app):
    c = app.test_client()
    t = token(c)
    data = {"csrf": t, "members": (open_bytes(b"First name,Last name\nAnnabel,Featherstonehaugh\nZoe,Li\n"), "m.csv")}
    page = c.post("/archers/import", data=data, content_type="multipart/form-data").get_data(as_text=True)
    assert "Nothing saved yet" in page and "Save these archers" in page
    assert "Zoe Li" not in str(archers(app))
    file = re.search(r'name="file" value="([0-9a-f]{32})"', page).group(1)
    page = c.post("/archers/import", data={"csrf": t, "file": file}).get_data(as_text=True)
    assert "Saved." in page
    got = archers(app)
    assert "Zoe Li" in got and any(r[4] == "Annabel Featherstonehaugh" for r in got.values())
    assert os.listdir(app.config["UPLOADS"]) == []  # the list is gone once saved


def test_a_list_with_no_one_new_offers_nothing_to_save(app):
    c = app.test_client()
    t = token(c)
    listed = b"Name\nZoe Li\nZoe Li\n"
    data = {"csrf": t, "members": (open_bytes(listed), "m.csv")}
    file = re.search(r'name="file" value="([0-9a-f]{32})"', c.post("/archers/import", data=data).get_data(as_text=True))
    assert "Saved." in c.post("/archers/import", data={"csrf": t, "file": file.group(1)}).get_data(as_text=True)
    data = {"csrf": t, "members": (open_bytes(listed), "again.csv")}
    page = c.post("/archers/import", data=data, content_type="multipart/form-data").get_data(as_text=True)
    assert "Nothing to add: every name in the file is on the roster already, repeated or refused." in page
    assert "Save these archers" not in page and "Nothing saved yet" not in page and "Saved." not in page


def test_rename_and_retire_as_the_commands_do(app):
    c = app.test_client()
    t = token(c)
    assert c.post("/archers/rename", data={"csrf": t, "old": "ann", "new": "Anne"}).status_code == 302
    assert "Anne" in c.get("/matches/1").get_data(as_text=True)  # her matches follow
    c.post("/archers/retire", data={"csrf": t, "old": "", "name": "Anne"})
    assert archers(app)["Anne"][1] == 1
    back = {"Referer": "http://localhost/archers"}
    r = c.post("/archers/rename", data={"csrf": t, "old": "Nobody", "new": "X1"}, headers=back)
    assert r.headers["Location"] == "http://localhost/archers"
    assert "no archer called" in c.get("/archers").get_data(as_text=True)


def test_a_refusal_is_said_on_the_page(app):
    c = app.test_client()
    t = token(c)
    c.post("/archers/add", data={"csrf": t, "name": "A"})  # a side's letter is no archer's name
    page = c.get("/archers").get_data(as_text=True)
    assert 'class="msg error"' in page
    assert "A" not in archers(app)


def test_naming_an_a_v_b_match_checks_the_roster(tmp_path):
    s = Store(str(tmp_path / "club.sqlite"))
    n, header, log, extras = item(1, MATCH1)
    header["archers"] = [["A"], ["B"]]
    assert s.add_matches("hand", [(n, header, log, extras)]) == [True]
    s.add_archer("Ann")
    s.add_archer("Bob")
    s.close()
    app = create_app(str(tmp_path / "club.sqlite"), workdir=str(tmp_path / "w"))
    c = app.test_client()
    page = c.get("/matches/1").get_data(as_text=True)
    assert "shot as A v B" in page
    t = token(c, "/matches/1")
    c.post("/matches/1/names", data={"csrf": t, "name0": "Ann", "name1": "Bbo"})  # a typo: refused, nearest named
    assert "Bob" in c.get("/matches/1").get_data(as_text=True)
    assert Store(str(tmp_path / "club.sqlite")).load_match(1)["names"] == [["A"], ["B"]]
    c.post("/matches/1/names", data={"csrf": t, "name0": "Ann", "name1": "Bob"})
    assert Store(str(tmp_path / "club.sqlite")).load_match(1)["names"] == [["Ann"], ["Bob"]]
    c.post("/matches/1/names", data={"csrf": t, "name0": "Bob", "name1": "Ann"})  # named already: needs replace
    assert Store(str(tmp_path / "club.sqlite")).load_match(1)["names"] == [["Ann"], ["Bob"]]
    c.post("/matches/1/names", data={"csrf": t, "name0": "Bob", "name1": "Ann", "force": "1"})
    assert Store(str(tmp_path / "club.sqlite")).load_match(1)["names"] == [["Bob"], ["Ann"]]


def test_filters(app):
    c = app.test_client()

    def ids(q):
        return re.findall(r'href="/matches/(\d+)"', c.get("/matches?" + q).get_data(as_text=True))

    assert ids("") == ["5", "4", "3", "2", "1"]
    assert ids("game=try-tac-toe") == ["5", "4"]
    assert ids("archer=cat") == ["3", "2"]
    assert ids("box=hand&archer=ann") == ["2", "1"]
    assert ids("date=1999-01-01") == []


def test_name_a_box(app):
    c = app.test_client()
    t = token(c, "/boxes")
    c.post("/boxes/name", data={"csrf": t, "box": "hand", "name": "Range 1"})
    assert "Range 1" in c.get("/matches").get_data(as_text=True)


def test_backup_then_restore_keeps_the_old_store(app, tmp_path):
    c = app.test_client()
    t = token(c, "/safety")
    r = c.post("/safety/backup", data={"csrf": t})
    assert r.status_code == 200 and r.data.startswith(b"SQLite format 3")
    assert "attachment" in r.headers["Content-Disposition"]
    c.post("/archers/add", data={"csrf": t, "name": "Later"})
    data = {"csrf": t, "backup": (open_bytes(r.data), "../../club.sqlite")}
    assert c.post("/safety/restore", data=data, content_type="multipart/form-data").status_code == 302
    page = c.get("/safety").get_data(as_text=True)
    assert "restored the store" in page and "5 matches" in page and "kept as" in page
    assert "Later" not in archers(app)
    kept = [p for p in os.listdir(tmp_path) if p != "club.sqlite" and p.startswith("club")]
    assert kept and "Later" in str(
        sqlite3.connect(str(tmp_path / kept[0])).execute("select name from archers").fetchall()
    )
    assert os.listdir(app.config["UPLOADS"]) == []


def test_a_damaged_restore_is_refused_and_loses_nothing(app):
    c = app.test_client()
    t = token(c, "/safety")
    data = {"csrf": t, "backup": (open_bytes(b"SQLite format 3\x00" + b"\x00" * 500), "broken.sqlite")}
    c.post(
        "/safety/restore", data=data, content_type="multipart/form-data", headers={"Referer": "http://localhost/safety"}
    )
    page = c.get("/safety").get_data(as_text=True)
    assert 'class="msg error"' in page
    assert (
        "broken.sqlite: not a sound Scorebox store, nothing restored" in page
    )  # the file picked, not where it was saved
    assert app.config["UPLOADS"] not in page
    assert len(Store(app.config["STORE"], create=False).matches()) == 5


def test_the_report_views_and_downloads(app):
    c = app.test_client()
    view = c.get("/report/view")
    assert view.status_code == 200 and b"<html" in view.data[:200].lower()
    assert "attachment" in c.get("/report/download").headers["Content-Disposition"]


def test_a_password_guards_every_page(tmp_path):
    app = create_app(both_games(str(tmp_path / "c.sqlite")), password="s3cret", workdir=str(tmp_path / "w"))
    c = app.test_client()
    assert c.get("/matches").headers["Location"].endswith("/login")
    t = token(c, "/login")
    c.post("/login", data={"csrf": t, "password": "wrong"})
    assert c.get("/archers").status_code == 302
    c.post("/login", data={"csrf": t, "password": "s3cret"})
    assert c.get("/archers").status_code == 200


def test_serve_refuses_beyond_loopback_without_a_password(monkeypatch):
    monkeypatch.delenv(serve.PASSWORD_ENV, raising=False)
    assert serve.password_for("127.0.0.1") is None and serve.password_for("localhost") is None
    with pytest.raises(serve.ScoreboxError, match="set a password"):
        serve.password_for("0.0.0.0")
    monkeypatch.setenv(serve.PASSWORD_ENV, "pw")
    assert serve.password_for("192.168.1.5") == "pw"


def test_scorebox_serve_says_its_address_and_serves_on_loopback(tmp_path):
    import subprocess
    import sys
    import urllib.error
    import urllib.request

    db = both_games(str(tmp_path / "club.sqlite"))
    exe = os.path.join(os.path.dirname(sys.executable), "scorebox")
    p = subprocess.Popen(
        [exe, "serve", "--port", "0", "--no-browser", "--db", db], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    )
    try:
        line = p.stdout.readline().decode()
        url = re.search(r"(http://127\.0\.0\.1:\d+/)", line).group(1)
        page = urllib.request.urlopen(url + "matches", timeout=30).read().decode()
        assert "Ann v Ben" in page
        other = urllib.request.Request(url + "matches", headers={"Host": "evil.example"})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(other, timeout=30)
        assert refused.value.code == 400
    finally:
        p.terminate()
        p.wait(30)
    bad = subprocess.run([exe, "serve", "--port", "70000", "--db", db], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and bad.stderr.strip().splitlines() == [
        "--port 70000: a port is 0 (any free one) to 65535"
    ]


def test_the_sync_page_reads_the_progress_bar_of_a_sync():
    """summary.Progress, as a sync of more than 30 matches draws it, feeds the page's bar."""
    import multiprocessing

    from scorebox.sync.summary import Progress
    from scorebox.web.syncjob import Bar

    ours, theirs = multiprocessing.Pipe(duplex=False)
    bar = Progress(40, Bar(theirs))
    bar.show(7)
    bar.show(40)
    assert [ours.recv(), ours.recv()] == [("progress", (7, 40)), ("progress", (40, 40))]


def test_statistics_of_everyone_and_of_one_archer(app):
    c = app.test_client()
    every = c.get("/stats").get_data(as_text=True)
    assert 'href="/stats?archer=Ann"' in every and "Try-Tac-Toe" in every
    ann = c.get("/stats?archer=ann").get_data(as_text=True)  # any case, as `scorebox stats ann`
    assert "<h1>Ann</h1>" in ann and "2 played: 0 won, 0 drawn, 2 lost" in ann
    assert "Head to head" in ann and 'href="/stats?archer=Ben"' in ann
    assert "Bo " in c.get("/stats?archer=Bo").get_data(as_text=True)  # Try-Tac-Toe's only
    assert c.get("/stats?archer=Nobody").status_code == 302
    assert "no archer called" in c.get("/matches").get_data(as_text=True)


def test_a_face_is_refused_before_any_path_is_made_of_it(app):
    c = app.test_client()
    t = token(c, "/faces")
    back = {"Referer": "http://localhost/faces"}
    for face, size, paper in (("../../x", "600", "a4"), ("trytactoe", "600", "../a4"), ("trytactoe", "big", "a4")):
        r = c.post("/faces", data={"csrf": t, "face": face, "size": size, "paper": paper}, headers=back)
        assert r.status_code == 302, face
    assert 'class="msg error"' in c.get("/faces").get_data(as_text=True)
    r = c.post("/faces", data={"csrf": t, "face": "trytactoe", "size": "100", "paper": "a4"}, headers=back)
    assert r.status_code == 302  # the command's own limits (200 to 3000 mm)
    assert "from 200 to 3000 mm" in c.get("/faces").get_data(as_text=True)
    assert os.listdir(app.config["DOWNLOADS"]) == []  # nothing made for a refused face


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_export_as_a_zip_of_what_the_command_writes(app, fmt):
    import io
    import zipfile

    c = app.test_client()
    t = token(c, "/safety")
    r = c.post("/safety/export", data={"csrf": t, "format": fmt})
    assert r.headers["Content-Disposition"] == "attachment; filename=scorebox-export-%s.zip" % fmt
    names = zipfile.ZipFile(io.BytesIO(r.data)).namelist()
    assert sorted(names) == ["arrows.%s" % fmt, "matches.%s" % fmt]
    assert c.post("/safety/export", data={"csrf": t, "format": "../x"}).status_code == 302


def test_a_sync_with_no_box_on_usb_says_so(app):
    import time

    c = app.test_client()
    t = token(c, "/sync")
    c.post("/sync", data={"csrf": t, "source": "usb"})
    for _ in range(600):  # the sync's own process ends by itself: no box here
        page = c.get("/sync").get_data(as_text=True)
        if "Syncing" not in page:
            break
        time.sleep(0.1)
    assert "Not synced" in page and '<ul class="lines failed">' in page
