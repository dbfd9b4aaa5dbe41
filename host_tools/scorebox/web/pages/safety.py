"""The Safety page: a backup downloaded (`scorebox backup`), the export zipped (`scorebox
export`), a backup uploaded and restored (`scorebox restore`). The files are made in new
folders of the app's own."""

import datetime
import os
import secrets
import zipfile

from flask import Blueprint, current_app, render_template, request, send_from_directory, url_for

from scorebox.errors import ScoreboxError
from scorebox.store import backup, export
from scorebox.text import plural
from scorebox.web.forms import done, upload
from scorebox.web.request_store import store

bp = Blueprint("safety", __name__)


@bp.route("/safety")
def safety():
    return render_template("safety.html.j2")


@bp.route("/safety/backup", methods=["POST"])
def make_backup():
    name = "scorebox-backup-%s.sqlite" % datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    tmp = os.path.join(current_app.config["DOWNLOADS"], secrets.token_hex(8))
    os.makedirs(tmp)
    backup.backup(current_app.config["STORE"], os.path.join(tmp, name))
    return send_from_directory(tmp, name, as_attachment=True)


@bp.route("/safety/export", methods=["POST"])
def make_export():
    """`scorebox export --format F`: the files zipped."""
    fmt = request.form.get("format", "")
    if fmt not in ("csv", "json"):
        raise ScoreboxError("choose csv or json")
    folder = os.path.join(current_app.config["DOWNLOADS"], secrets.token_hex(8))
    got = export.export(store(), os.path.join(folder, "scorebox-export"), fmt)
    name = "scorebox-export-%s.zip" % fmt
    with zipfile.ZipFile(os.path.join(folder, name), "w", zipfile.ZIP_DEFLATED) as z:
        for path in got:
            z.write(path, os.path.basename(path))
    return send_from_directory(folder, name, as_attachment=True)


@bp.route("/safety/restore", methods=["POST"])
def restore():
    """Under no open connection: this request opens no store (web/request_store.py)."""
    path = upload("backup")
    try:
        n, old = backup.restore(current_app.config["STORE"], path, shown=request.files["backup"].filename)
    finally:
        if os.path.exists(path):
            os.remove(path)
    said = "restored the store from %s: %s, checked" % (
        request.files["backup"].filename,
        plural(n, "match", "matches"),
    )
    return done(said + ("; the store that was there is kept as %s" % old if old else ""), url_for("safety.safety"))
