"""The Archers page: the roster (`scorebox archers list/add/rename/retire/club`) and a
member list imported (`scorebox archers import FILE [--save]`, web/members.py)."""

import os

from flask import Blueprint, current_app, flash, render_template, request, url_for

from scorebox.errors import ScoreboxError
from scorebox.store.errors import NoStore
from scorebox.text import club_said, csv_head
from scorebox.web import members
from scorebox.web.forms import done, upload
from scorebox.web.hints import on_page
from scorebox.web.request_store import store

bp = Blueprint("archers", __name__)


@bp.route("/archers")
def archers():
    retired = bool(request.args.get("retired"))
    try:
        s = store()
    except NoStore:
        return render_template("archers.html.j2", rows=[], retired=retired)
    return render_template("archers.html.j2", rows=s.archers(retired=retired), retired=retired)


@bp.route("/archers/add", methods=["POST"])
def add_archer():
    name = request.form.get("name", "")
    got = store(create=True).add_archer(name)  # a club may list its archers before its first sync
    said = {"added": "added %s", "back": "%s is back on the roster"}.get(got, "%s is on the roster already")
    return done(said % name.strip(), url_for("archers.archers"))


@bp.route("/archers/rename", methods=["POST"])
def rename_archer():
    was, now = store().rename_archer(request.form.get("old", ""), request.form.get("new", ""))
    return done("renamed %s to %s: their matches and statistics follow" % (was, now), url_for("archers.archers"))


@bp.route("/archers/retire", methods=["POST"])
def retire_archer():
    name = store().retire_archer(request.form.get("name", ""))
    return done("retired %s: off the box's list at the next sync; matches kept" % name, url_for("archers.archers"))


@bp.route("/archers/club", methods=["POST"])
def archer_club():
    """`scorebox archers club NAME CLUB`: a guest archer's home club (empty: this club's)."""
    got = store().set_club(request.form.get("name", ""), request.form.get("club", ""))
    return done(club_said(*got), url_for("archers.archers"))


@bp.route("/archers/import", methods=["POST"])
def import_archers():
    """`scorebox archers import FILE`, always as a preview first: the columns found (mapped
    by hand when they are not the command's headings), each new archer's box name made and
    editable, the names on the roster already and repeated; then Save (`--save`) with the
    mapping and the names as edited. The file waits in the uploads folder under the app's
    name for it, which the forms carry."""
    token = request.form.get("file", "")
    if token:
        path = os.path.join(current_app.config["UPLOADS"], token)
        if not _token(token) or not os.path.isfile(path):
            raise ScoreboxError("that member list is gone: choose the file again")
    else:
        path = upload("members")
    head, found = csv_head(path, ScoreboxError)
    cols = members.columns(request.form) or found
    save = bool(token) and not request.form.get("preview")
    edits = members.edits(request.form) if save else {}
    view = {"file": os.path.basename(path), "head": head, "cols": cols, "edits": edits}
    if cols is None:  # no heading the command knows: the mapping is asked for first
        return render_template("imported.html.j2", got=None, **view)
    s = store(create=True)
    try:
        got = s.import_members(path, confirmed=True, columns=cols, boxes=edits, preview=not save)
    except ScoreboxError as e:
        if not save:
            raise
        flash(on_page(e), "error")  # the preview again, the names as edited on it: nothing lost
        got = s.import_members(path, columns=cols, preview=True)
    if got.saved:
        os.remove(path)
    return render_template("imported.html.j2", got=got, **view)


def _token(name):
    """A name the app made for an upload (hex only): nothing that could leave the folder."""
    return len(name) == 32 and all(c in "0123456789abcdef" for c in name)
