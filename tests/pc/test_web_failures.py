"""What goes wrong on the desk says so in words and loses nothing (issue 24 item 4): a port
another program holds, an upload cut short, a damaged member list, and a full disk under a
restore's upload, a member list's and a backup (the server run as `scorebox serve` with a
file-size limit, RLIMIT_FSIZE, SIGXFSZ ignored: a write past it fails as on a full disk)."""

import http.cookiejar
import os
import re
import resource
import shutil
import signal
import socket
import subprocess
import sys
import urllib.request

import pytest
from bothstore import both_games

from scorebox.store.sqlite import Store
from scorebox.web.app import create_app

SCOREBOX = os.path.join(os.path.dirname(sys.executable), "scorebox")
LIMIT = 100_000  # bytes a file of the server's may grow to: less than the uploads below


def messages(html):
    return [m.replace("&#39;", "'") for m in re.findall(r'<p class="msg[^"]*"[^>]*>([^<]*)', html)]


def count(db):
    s = Store(db, create=False)
    try:
        return s.count(), len(s.archers(retired=True))
    finally:
        s.close()


def test_a_port_another_program_holds_is_said_in_one_line(tmp_path):
    db = both_games(str(tmp_path / "club.sqlite"))
    holder = socket.socket()
    try:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        got = subprocess.run(
            [SCOREBOX, "serve", "--port", str(port), "--no-browser", "--db", db],
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        holder.close()
    assert got.returncode == 2 and got.stderr.strip().splitlines() == [
        "cannot listen on 127.0.0.1:%d: another program holds that port (a desk already running?): stop it, "
        "or choose another port with --port (0: any free one)" % port
    ]


def multipart(fields, name, filename, data, cut=0):
    """A form's body as a browser sends it (cut: bytes left off its end, as a broken connection)."""
    out = b"".join(
        b'--xyz\r\nContent-Disposition: form-data; name="%s"\r\n\r\n%s\r\n' % (k.encode(), v.encode())
        for k, v in fields.items()
    )
    out += b'--xyz\r\nContent-Disposition: form-data; name="%s"; filename="%s"\r\n' % (name.encode(), filename.encode())
    out += b"Content-Type: application/octet-stream\r\n\r\n" + data + b"\r\n--xyz--\r\n"
    return out[: len(out) - cut]


def test_an_upload_cut_short_is_said_and_changes_nothing(tmp_path):
    db = both_games(str(tmp_path / "club.sqlite"))
    app = create_app(db, workdir=str(tmp_path / "work"))
    c = app.test_client()
    t = re.search(r'name="csrf" value="([^"]+)"', c.get("/safety").get_data(as_text=True)).group(1)
    before = open(db, "rb").read()
    body = multipart({"csrf": t}, "backup", "club.sqlite", before, cut=len(before) // 2)
    r = c.post(
        "/safety/restore",
        data=body,
        content_type="multipart/form-data; boundary=xyz",
        headers={"Referer": "http://localhost/safety"},
    )
    assert r.status_code == 302 and r.headers["Location"].endswith("/safety")
    page = c.get("/safety").get_data(as_text=True)
    assert messages(page) == ["the upload did not arrive whole (the connection broke?): choose the file again"]
    assert open(db, "rb").read() == before and os.listdir(app.config["UPLOADS"]) == []


def test_a_damaged_member_list_is_said_and_adds_nobody(tmp_path):
    db = both_games(str(tmp_path / "club.sqlite"))
    app = create_app(db, workdir=str(tmp_path / "work"))
    c = app.test_client()
    t = re.search(r'name="csrf" value="([^"]+)"', c.get("/archers").get_data(as_text=True)).group(1)
    had = count(db)
    for data, said in (
        (b"Name\nZed\n\x00\x00\x00", "not a text file (a NUL character in it)"),
        (b"Name\nZ\xe9d\n", "UTF-8"),
    ):
        body = multipart({"csrf": t}, "members", "members.csv", data)
        r = c.post(
            "/archers/import",
            data=body,
            content_type="multipart/form-data; boundary=xyz",
            headers={"Referer": "http://localhost/archers"},
        )
        assert r.status_code == 302 and r.headers["Location"].endswith("/archers")
        (said_now,) = messages(c.get("/archers").get_data(as_text=True))
        assert said in said_now
    assert count(db) == had


class LimitedDesk:
    """`scorebox serve` whose files may grow to LIMIT bytes at most; a session of its own."""

    def __init__(self, tmp_path, db):
        def limit():
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG), not the server
            resource.setrlimit(resource.RLIMIT_FSIZE, (LIMIT, LIMIT))

        self.p = subprocess.Popen(
            [SCOREBOX, "serve", "--port", "0", "--no-browser", "--db", db],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            preexec_fn=limit,
            env=dict(os.environ, TMPDIR=str(tmp_path)),  # its work folder and Werkzeug's spooled uploads
        )
        self.url = re.search(r"(http://127\.0\.0\.1:\d+/)", self.p.stdout.readline().decode()).group(1)
        self.web = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def post(self, page, name, filename, data):
        """Post a file from page's form; the messages of the page it leads to."""
        t = re.search(r'name="csrf" value="([^"]+)"', self.get(page)).group(1)
        form = page.rstrip("/")
        action = {"safety": "safety/restore", "archers": "archers/import"}[form]
        req = urllib.request.Request(
            self.url + action,
            data=multipart({"csrf": t}, name, filename, data),
            headers={"Content-Type": "multipart/form-data; boundary=xyz", "Referer": self.url + page},
        )
        with self.web.open(req, timeout=60) as r:
            return messages(r.read().decode())

    def get(self, page):
        with self.web.open(self.url + page, timeout=60) as r:
            return r.read().decode()

    def close(self):
        self.p.terminate()
        self.p.wait(30)


@pytest.fixture
def full(tmp_path):
    db = both_games(str(tmp_path / "club.sqlite"), more=300)  # a store, and so a backup, past LIMIT
    assert os.path.getsize(db) > 5 * LIMIT
    desk = LimitedDesk(tmp_path, db)
    yield desk, db
    desk.close()


NO_ROOM = (
    "no room on this PC's disk to keep the upload (File too large): free some space, then try again; "
    "nothing was changed"
)


def test_a_restore_onto_a_full_disk_is_said_and_the_store_is_kept(full, tmp_path):
    desk, db = full
    shutil.copy(db, tmp_path / "backup.sqlite")
    before = count(db)
    said = desk.post("safety", "backup", "backup.sqlite", (tmp_path / "backup.sqlite").read_bytes())
    assert said == [NO_ROOM]  # it was an Internal Server Error
    assert count(db) == before and not [p for p in os.listdir(tmp_path) if "before-restore" in p]


def test_a_member_list_onto_a_full_disk_is_said_and_adds_nobody(full):
    desk, db = full
    members = "Name\n" + "".join("Member %05d\n" % i for i in range(12000))  # about 160 KB: kept in memory, then saved
    before = count(db)
    assert desk.post("archers", "members", "members.csv", members.encode()) == [NO_ROOM]
    assert count(db) == before


def test_a_backup_onto_a_full_disk_is_said(full):
    desk, db = full
    before = count(db)
    t = re.search(r'name="csrf" value="([^"]+)"', desk.get("safety")).group(1)
    req = urllib.request.Request(
        desk.url + "safety/backup", data=("csrf=" + t).encode(), headers={"Referer": desk.url + "safety"}
    )
    with desk.web.open(req, timeout=60) as r:
        assert "attachment" not in (r.headers.get("Content-Disposition") or "")
        (said,) = messages(r.read().decode())
    assert "cannot write the backup" in said and "free disk space" in said
    assert count(db) == before
