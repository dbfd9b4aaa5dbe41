"""The Sync page (`scorebox sync [--port PORT] [--sim] [--take-over]`): one sync at a time,
in a process of its own (web/syncjob.py), the app's one Job."""

from flask import Blueprint, current_app, flash, redirect, render_template, request, url_for

from scorebox.errors import ScoreboxError
from scorebox.web import syncjob
from scorebox.web.request_store import store

bp = Blueprint("sync", __name__)


@bp.record_once
def keep_job(state):
    state.app.extensions["scorebox.sync"] = syncjob.Job()


def job():
    return current_app.extensions["scorebox.sync"]


@bp.route("/sync")
def sync_page():
    st = job().st
    return render_template(
        "sync.html.j2", st=st, running=job().running(), ports=syncjob.ports(), box=box_name(st["facts"].get("device"))
    )


def box_name(uid):
    """The name the club gave the box just synced, or None (none given, or no store yet)."""
    if not uid:
        return None
    try:
        return store().box_name(uid)
    except ScoreboxError:
        return None


@bp.route("/sync", methods=["POST"])
def sync_now():
    take_over = request.form.get("take_over") == "1"  # `--take-over`: a box of another store made this one's
    source = request.form.get("source")
    port = request.form.get("port", "").strip() if source == "port" else None
    if source == "port" and not port:
        flash("name the box's port first (for example /dev/ttyACM0 or COM3)", "error")
    elif not job().start(
        current_app.config["STORE"], source == "sim", current_app.config.get("SIM_STATE"), take_over, port
    ):
        flash("a sync is running already: wait for it to end", "error")
    return redirect(url_for("sync.sync_page"))
