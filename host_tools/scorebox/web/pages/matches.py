"""The Matches page (`scorebox matches`) and a match's (`scorebox show N [--names ...]`)."""

import datetime
import time

from flask import Blueprint, redirect, render_template, request, url_for

from scorebox.errors import ScoreboxError
from scorebox.report import show
from scorebox.store.errors import NoStore
from scorebox.text import match_name
from scorebox.web import flags
from scorebox.web.forms import done
from scorebox.web.request_store import store
from scorebox_core import games

PAGE = 200  # matches a list page shows

bp = Blueprint("matches", __name__)


@bp.route("/")
def home():
    return redirect(url_for("matches.matches"))


@bp.route("/matches")
def matches():
    """`scorebox matches`, PAGE at a time, newest first (?before=ID: the page after), its
    filters read through the store's indexes (Store.match_list): a page of 100,000 matches
    is as quick as one of ten (docs/web.md, "Speed")."""
    f = {k: request.args.get(k, "").strip() for k in ("archer", "date", "game", "box")}
    before = request.args.get("before", type=int)
    try:
        s = store()
    except NoStore:
        return render_template("matches.html.j2", rows=[], total=0, f=f, games=games.every(), boxes=[], empty=True)
    day = _day(f["date"]) if f["date"] else None
    if day is False:  # no such day: no match on it
        rows, total = [], 0
    else:  # one more than a page: whether an older page follows
        wanted = {k: f[k] or None for k in ("archer", "game", "box")}
        rows, total = s.match_list(started=day, before=before, n=PAGE + 1, **wanted)
    older = rows[PAGE - 1]["id"] if len(rows) > PAGE else None
    return render_template(
        "matches.html.j2",
        rows=rows[:PAGE],
        total=total,
        f=f,
        before=before,
        older=older and dict({k: v for k, v in f.items() if v}, before=older),
        games=games.every(),
        boxes=s.boxes(),
        empty=False,
        game_of=games.get,
    )


@bp.route("/matches/<int:mid>")
def match(mid):
    m = store().load_match(mid)
    game = games.of(m["header"])
    unnamed = [n for side in m["names"] for n in side if n in show.UNNAMED]
    lines = show.show_lines(m)
    lines[:1] = [line.replace(m["key"], match_name(m)) for line in lines[:1]]  # its box's name, as its heading
    s = store()
    return render_template(
        "match.html.j2",
        m=m,
        game=game,
        lines=lines,
        unnamed=bool(unnamed),
        sides=game.SIDES,
        pairing=s.match_pairing(m["id"]),
        changes=s.match_event_log(m["id"]),
    )


@bp.app_template_global()
def match_notes(mid, sides):
    """A match page's confirmations and damage in words (web/flags.py): (confirmed or
    None, [damage]). Read apart from the match route's query, which is tuned on its own
    for a large store."""
    got = store().match_flags(mid)
    return (flags.confirmed(got, sides), flags.damage(got)) if got else (None, [])


@bp.route("/matches/<int:mid>/names", methods=["POST"])
def name_match(mid):
    """`scorebox show N --names A,B [--add] [--force]`."""
    s = store()
    m = s.load_match(mid)
    count = len(m["names"][0]) + len(m["names"][1])
    names = [request.form.get("name%d" % i, "").strip() for i in range(count)]
    if not all(names):
        raise ScoreboxError("give every archer's name")
    if not request.form.get("force") and show.replaced(m["names"], names):
        raise ScoreboxError("this match has its archers' names already: tick 'replace' to replace them")
    got = s.name_match(mid, names, add=bool(request.form.get("add")))
    a, b = games.of(m["header"]).SIDES
    return done(
        "match %s: %s %s, %s %s" % (match_name(m), a, ", ".join(got[0]), b, ", ".join(got[1])),
        url_for("matches.match", mid=mid),
    )


def _day(text):
    """(first, end) seconds of the local day "YYYY-MM-DD", as the list shows dates (date_text);
    False when the text is no such day (no match is on it)."""
    try:
        d = datetime.date.fromisoformat(text)
        return time.mktime(d.timetuple()), time.mktime((d + datetime.timedelta(days=1)).timetuple())
    except (ValueError, OverflowError):
        return False
