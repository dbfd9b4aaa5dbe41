"""The board for the range (docs/events.md): an event's current round by target, its results
as they arrive and the standings, in type read across a room, with no menus. The page asks
for what it shows every few seconds (static/board.js), so a sync's results appear by
themselves; while the desk does not answer it keeps asking and says when it last updated."""

import time

from flask import Blueprint, jsonify, render_template

from scorebox.events import shown
from scorebox.web.request_store import store

bp = Blueprint("board", __name__)
REFRESH_S = 5  # how often the board asks: a sync's results are up within this


@bp.route("/board/<int:eid>")
def board(eid):
    now = shown.board(store(), eid)  # no such event: refused as every page refuses
    return render_template("board.html.j2", eid=eid, now=now, refresh=REFRESH_S)


@bp.route("/board/<int:eid>/now.json")
def board_now(eid):
    now = shown.board(store(), eid)
    now["updated"] = time.strftime("%H:%M:%S")
    resp = jsonify(now)
    resp.headers["Cache-Control"] = "no-store"
    return resp
