"""The Boxes page: each box, its firmware and capacity (`scorebox boxes`), and a box named
(`scorebox boxes name`)."""

from flask import Blueprint, render_template, request, url_for

from scorebox.store import boxes as names
from scorebox.store.errors import NoStore
from scorebox.web.forms import done
from scorebox.web.request_store import store

bp = Blueprint("boxes", __name__)


@bp.route("/boxes")
def boxes():
    try:
        s = store()
    except NoStore:
        return render_template("boxes.html.j2", rows=[])
    rows = s.boxes()
    firmware = {d["uid"]: d["firmware"] for d in s.device_records()}  # as the box said it at its last sync
    spaces = s.box_spaces()  # as its last sync read it
    capacity = {uid: names.capacity(spaces.get(uid)) for uid, *_ in rows}
    return render_template("boxes.html.j2", rows=rows, firmware=firmware, capacity=capacity)


@bp.route("/boxes/name", methods=["POST"])
def name_box():
    name = names.clean(request.form.get("name", ""))
    uid = request.form.get("box", "")
    store().name_box(uid, name)
    return done("box %s is now %s" % (uid, name), url_for("boxes.boxes"))
