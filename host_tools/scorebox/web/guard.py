"""The desk's guard (docs/web.md, Security), a blueprint of no pages registered once on the
app, whose checks and headers are every page's: a request whose Host is not the app's own
address, or whose Origin (or Referer) is another site's, is refused; every POST carries the
session's CSRF token; with a password, every page but the login asks for it first (its
wrong tries slowed by web/throttle.py's Throttle, kept here for the app); every answer says
its headers (no frames, no script of another site's); a command's one-line error is said
on the page it came from (its command hints as the desk's links: web/hints.py), and an HTTP
error (no such page, a refusal, an error inside a page) is a page of the desk's own.
Archer names are escaped by Jinja2's autoescape; uploads are saved under names the app
makes in its own folder (forms.py), and a download is a file it has just made there."""

import hmac
import secrets
from urllib.parse import urlsplit

from flask import Blueprint, abort, current_app, flash, redirect, render_template, request, session, url_for
from werkzeug.exceptions import HTTPException

from scorebox.errors import ScoreboxError
from scorebox.web import throttle
from scorebox.web.forms import no_room
from scorebox.web.hints import on_page

SAFE = ("GET", "HEAD", "OPTIONS")
OPEN = ("login.login", "static")  # the pages a locked session may still see
UPLOADS = ("archers.import_archers", "safety.restore")  # the forms that carry a file; the others are small
FORM_BYTES = 1 << 20
CSP = "default-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'"
OUT_OF_DATE = "the form is out of date (its token does not match): reload the page and try again"

bp = Blueprint("guard", __name__)


@bp.record_once
def keep_throttle(state):
    state.app.config["THROTTLE"] = throttle.Throttle()  # the login's wrong passwords, per address


@bp.before_app_request
def guard():
    allowed, password = current_app.config["HOSTS"], current_app.config["PASSWORD"]
    if allowed is not None and request.host not in allowed:
        abort(400, "this desk answers at its own address only")
    locked = password and not session.get("in") and request.endpoint not in OPEN
    if request.method not in SAFE:
        source = request.headers.get("Origin") or request.headers.get("Referer")
        if source and urlsplit(source).netloc != request.host:
            abort(403, "a form from another site is refused")
        # Refused before the body is read: Werkzeug spools an upload to disk as it reads
        # the form, and a stranger's post must not fill the disk.
        token = session.get("csrf")
        if not token:
            abort(403, OUT_OF_DATE)
        if locked:
            return redirect(url_for("login.login"))
        if request.endpoint not in UPLOADS:
            request.max_content_length = FORM_BYTES
        check_token(token)
    if locked:
        return redirect(url_for("login.login"))
    return None


def check_token(token):
    """The form's CSRF token against the session's: 403 unless they match."""
    try:  # Werkzeug keeps a large upload in a temporary file while it reads the form
        given = request.form.get("csrf", "").encode()  # bytes: compare_digest refuses a str beyond ASCII
    except OSError as e:
        raise ScoreboxError(no_room(e))
    if request.mimetype == "multipart/form-data" and request.content_length and not request.form:
        # Werkzeug reads a cut form as an empty one: said as what it is, not as a bad token
        raise ScoreboxError("the upload did not arrive whole (the connection broke?): choose the file again")
    if not hmac.compare_digest(token.encode(), given):
        abort(403, OUT_OF_DATE)


@bp.app_context_processor
def tokens():
    if "csrf" not in session:
        session["csrf"] = secrets.token_urlsafe(32)
    return {"csrf": session["csrf"], "store_path": current_app.config["STORE"]}


@bp.after_app_request
def headers(resp):
    resp.headers.setdefault("Content-Security-Policy", CSP)
    resp.headers["X-Frame-Options"] = "DENY"
    resp.headers["X-Content-Type-Options"] = "nosniff"
    resp.headers["Referrer-Policy"] = "same-origin"
    return resp


@bp.app_errorhandler(ScoreboxError)
def refused(e):
    """A command's one-line error, on the page it came from: nothing was changed."""
    back = request.referrer
    if not back or urlsplit(back).netloc != request.host or back == request.url:
        back = url_for("matches.matches")
    flash(on_page(e, here=_endpoint(back)), "error")
    return redirect(back)


def _endpoint(url):
    """The endpoint of one of the desk's own addresses, or None."""
    try:
        return current_app.url_map.bind(request.host).match(urlsplit(url).path)[0]
    except HTTPException:
        return None


# An HTTP error's page: (its heading, what it says; None: the error's own description, which
# the guard's refusals above write in words)
ERROR_PAGES = {
    404: ("No such page", "The desk has no page at this address: the link or the address typed is wrong."),
    405: ("Not a page to open", "This address takes a form from one of the desk's pages."),
    500: (
        "Something went wrong",
        "The desk met an error it did not expect while making this page (it is written in the window the desk "
        "was started from): go back to the page you came from and try again.",
    ),
}


@bp.app_errorhandler(HTTPException)
def error_page(e):
    """An HTTP error (no such page, a refusal, the desk's own error) as one of the desk's pages,
    with a way home; never a traceback."""
    title, said = ERROR_PAGES.get(e.code, (None, None))
    return render_template("error.html.j2", title=title or e.name, said=said or e.description), e.code
