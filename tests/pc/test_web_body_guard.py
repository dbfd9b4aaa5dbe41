"""A post the desk will refuse is refused before its body is read (the review of issue 24):
Werkzeug spools an upload to disk as it reads a form, so a stranger (no session, or not
logged in on a desk with a password) could fill the PC's disk with posts of up to 1 GB each,
and a form that carries no file may not be large at all. How far the body was read is
counted."""

import io
import re

import pytest
from bothstore import both_games

from scorebox.web.app import create_app

BIG = 5 << 20  # a 5 MB "member list"


def post(client, path, fields):
    """A multipart post of fields (a name -> str or (bytes, filename)); (status, bytes read)."""
    from werkzeug.test import EnvironBuilder

    data = {k: (io.BytesIO(v[0]), v[1]) if isinstance(v, tuple) else v for k, v in fields.items()}
    b = EnvironBuilder(path=path, method="POST", data=data)
    env = b.get_environ()
    body = io.BytesIO(env["wsgi.input"].read())
    r = client.open(
        path,
        method="POST",
        input_stream=body,
        content_type=env["CONTENT_TYPE"],  # with the boundary
        content_length=len(body.getvalue()),
    )
    return r.status_code, body.tell()  # how far the server read


@pytest.fixture
def db(tmp_path):
    return both_games(str(tmp_path / "c.sqlite"))


def token(client):
    return re.search(r'name="csrf" value="([^"]+)"', client.get("/login").get_data(as_text=True)).group(1)


def test_a_stranger_with_no_session_is_refused_unread(db, tmp_path):
    c = create_app(db, workdir=str(tmp_path / "w")).test_client()
    status, taken = post(c, "/archers/import", {"csrf": "x", "members": (b"n" * BIG, "m.csv")})
    assert status == 403 and taken == 0


def test_a_session_not_logged_in_is_sent_to_the_login_unread(db, tmp_path):
    c = create_app(db, password="s3cret", workdir=str(tmp_path / "w")).test_client()
    t = token(c)
    status, taken = post(c, "/archers/import", {"csrf": t, "members": (b"n" * BIG, "m.csv")})
    assert status == 302 and taken == 0


def test_a_form_without_a_file_may_not_be_large(db, tmp_path):
    c = create_app(db, workdir=str(tmp_path / "w")).test_client()
    c.get("/archers")  # the session's token
    with c.session_transaction() as s:
        t = s["csrf"]
    status, _ = post(c, "/archers/add", {"csrf": t, "name": "x" * (2 << 20)})
    assert status == 413
    status, _ = post(c, "/archers/add", {"csrf": t, "name": "Zed"})
    assert status == 302
