"""The Faces page: a game's face at a size on a paper (`scorebox face`)."""

import os
import secrets
import zipfile

from flask import Blueprint, current_app, render_template, request, send_from_directory

from scorebox.errors import ScoreboxError
from scorebox.report import face

bp = Blueprint("faces", __name__)


@bp.route("/faces")
def faces():
    return render_template("faces.html.j2", faces=face.titled(), papers=list(face.PAPERS), sizes=face.SIZES)


@bp.route("/faces", methods=["POST"])
def make_face():
    """`scorebox face FACE --size MM --paper P`: the PDF, or the SVG sheets in a zip
    where no Chromium prints one; written in a new folder of the app's own."""
    try:
        size = float(request.form.get("size", ""))
    except ValueError:
        raise ScoreboxError("the size is a number of millimetres")
    kind, paper = request.form.get("face", ""), request.form.get("paper", "")
    if kind not in face.FACES or paper not in face.PAPERS:  # before a path is made of them
        games = ", ".join(name for _, name in face.titled())
        raise ScoreboxError(
            "choose a game's face (%s) and a paper (%s)" % (games, ", ".join(p.upper() for p in face.PAPERS))
        )
    out = os.path.join(current_app.config["DOWNLOADS"], secrets.token_hex(8), face.default_out(kind, size))
    folder, stem = os.path.dirname(out), os.path.basename(out)[:-4]
    written, _, note = face.write(kind, size, out, paper)
    if note is None:
        return send_from_directory(folder, os.path.basename(written[-1]), as_attachment=True)
    with zipfile.ZipFile(os.path.join(folder, stem + ".zip"), "w") as z:
        for path in written:
            z.write(path, os.path.basename(path))
    return send_from_directory(folder, stem + ".zip", as_attachment=True)
