"""The club's desk: the store's commands as web pages (`scorebox serve`, docs/web.md).

Flask, because it renders with Jinja2, which the report already uses (the same autoescaped
templates), it is small (Werkzeug, Jinja2, itsdangerous, click, blinker), well kept by the
Pallets project, needs no JavaScript build step and runs its own server for one club PC.

create_app is the application factory: the guard (guard.py: Host, Origin and CSRF checks,
the password, headers, a command's error in words) registered once, then a blueprint per
area of the desk (pages/). Every page reads and writes through what the commands use: the
Store's methods (request_store.py: store/access.py's open_store, opened once a request on flask.g and
closed when it ends, so that a restore swaps the file under no open connection),
store/backup.py, report/html.py and report/show.py, sync/pull.py (in a process of its own:
syncjob.py). No SQL here (tests/pc/test_layers.py).
"""

import os
import secrets
import tempfile

from flask import Flask

from scorebox.store.access import default_path
from scorebox.text import date_text, match_name, plural, said
from scorebox.web import guard, members
from scorebox.web.hints import on_page
from scorebox.web.pages import archers, board, boxes, events, faces, login, matches, push, report, safety, stats, sync
from scorebox.web.request_store import close_store

HERE = os.path.dirname(os.path.abspath(__file__))
BLUEPRINTS = (
    guard.bp,
    login.bp,
    matches.bp,
    archers.bp,
    boxes.bp,
    stats.bp,
    sync.bp,
    push.bp,
    report.bp,
    faces.bp,
    safety.bp,
    events.bp,
    board.bp,
)


def create_app(db=None, hosts=("127.0.0.1", "localhost"), port=None, password=None, workdir=None):
    """The desk on the store db (None: the user's own). hosts, port: the addresses the app is
    reached at (the Host a request must name; None: any, for a desk on every address of
    the PC, which then has a password); password: asked before any page when given."""
    app = Flask(__name__, template_folder=os.path.join(HERE, "templates"), static_folder=os.path.join(HERE, "static"))
    app.secret_key = secrets.token_bytes(32)  # a session (and its CSRF token) lasts as long as the server
    app.config.update(MAX_CONTENT_LENGTH=1 << 30, SESSION_COOKIE_SAMESITE="Strict", SESSION_COOKIE_HTTPONLY=True)
    app.config.update(MAX_FORM_PARTS=members.FORM_PARTS, MAX_FORM_MEMORY_SIZE=16 << 20)  # an import's Save
    app.jinja_env.autoescape = True  # .html.j2 too: every name a box or a member list gave is escaped
    app.jinja_env.filters["date"] = date_text
    app.jinja_env.globals["plural"] = plural
    app.jinja_env.filters["on_page"] = on_page  # a command's line with its command hint said as a link
    app.jinja_env.globals["match_name"] = match_name  # its box's name where the club named the box
    app.jinja_env.globals["said"] = said  # a match's result in words, as every screen gives it
    work = workdir or tempfile.mkdtemp(prefix="scorebox-serve-")
    uploads, downloads = os.path.join(work, "uploads"), os.path.join(work, "downloads")
    os.makedirs(uploads, exist_ok=True)
    os.makedirs(downloads, exist_ok=True)
    app.config.update(
        STORE=db or default_path(),
        UPLOADS=uploads,
        DOWNLOADS=downloads,
        HOSTS=None if hosts is None else {h if port is None else "%s:%d" % (h, port) for h in hosts},
        PASSWORD=password,
    )
    app.teardown_appcontext(close_store)  # the request's store (request_store.py), closed however it ended
    for bp in BLUEPRINTS:
        app.register_blueprint(bp)
    return app
