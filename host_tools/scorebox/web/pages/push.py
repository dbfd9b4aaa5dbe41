"""The desk's Push page: `scorebox push URL` from a button, the same code
(commands/push.py's League and push), and what it sent or the league's refusal in words; a
line for each match the push left behind as the store cannot read it, below.

The league's address is kept in the session (it is no secret) so the form shows it again.
The token is asked for at each push and kept nowhere: Flask's session is a cookie the
browser holds, signed but not encrypted, so a token in it would sit readable in the
browser's cookie store; and the desk keeps no store of secrets of its own (docs/web.md)."""

from flask import Blueprint, flash, redirect, render_template, request, session, url_for

from scorebox.commands import push
from scorebox.errors import ScoreboxError
from scorebox.web.hints import on_page
from scorebox.web.request_store import store

bp = Blueprint("push", __name__)


@bp.route("/push")
def push_page():
    return render_template("push.html.j2", url=session.get("league_url", ""))


@bp.route("/push", methods=["POST"])
def push_now():
    url, token = request.form.get("url", "").strip(), request.form.get("token", "").strip()
    session["league_url"] = url
    if not url or not token:
        flash("give the league's address and your club's token", "error")
        return redirect(url_for("push.push_page"))
    try:
        league = push.League(url, token)  # a bad address, or plain http beyond this PC, refused here
        warnings = []  # the matches not sent, as `scorebox push` prints them (a damaged store)
        flash(push.said(*push.push(store(), league, warn=warnings.append)), "ok")
        for line in warnings:
            flash(line, "warning")
    except ScoreboxError as e:  # the league's refusal, a cut, no store: one line, on this page
        flash(on_page(e), "error")
    return redirect(url_for("push.push_page"))
