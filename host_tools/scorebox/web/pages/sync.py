"""The Sync page (`scorebox sync [--port PORT] [--sim] [--take-over]`): one sync at a time,
in a process of its own (web/syncjob.py), the app's one Job."""

from flask import Blueprint, current_app, flash, redirect, render_template, request, url_for

from scorebox.web import syncjob

bp = Blueprint("sync", __name__)


@bp.record_once
def keep_job(state):
    state.app.extensions["scorebox.sync"] = syncjob.Job()


def job():
    return current_app.extensions["scorebox.sync"]


@bp.route("/sync")
def sync_page():
    return render_template("sync.html.j2", st=job().st, running=job().running(), ports=syncjob.ports())


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
