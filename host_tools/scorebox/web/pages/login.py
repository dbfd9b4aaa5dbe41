"""The password, once a session (web/guard.py asks for it before any other page)."""

import hmac

from flask import Blueprint, current_app, flash, redirect, render_template, request, session, url_for

from scorebox.text import plural

bp = Blueprint("login", __name__)


@bp.route("/login", methods=["GET", "POST"])
def login():
    """Guessed slowly (web/throttle.py): while an address waits, its tries are refused
    unread, the right password too."""
    if request.method == "POST":
        guesses, password = current_app.config["THROTTLE"], current_app.config["PASSWORD"]
        wait = guesses.wait(request.remote_addr)
        if wait:
            flash("too many wrong passwords: wait %s, then try again" % plural(wait, "second"), "error")
            return render_template("login.html.j2"), 429
        if password and hmac.compare_digest(request.form.get("password", "").encode(), password.encode()):
            guesses.passed(request.remote_addr)
            session["in"] = True
            return redirect(url_for("matches.matches"))
        guesses.failed(request.remote_addr)
        flash("wrong password", "error")
    return render_template("login.html.j2")
