"""The Events pages (docs/events.md): the club's events and a new one drawn (`scorebox event
new`, `list`), an event's rounds, results, standings and log (`show`), and its changes: a
pairing moved to another target (`seat`), two archers' places exchanged (`swap`), a pairing
settled by a stored match (`attach`) or by a paper card's arrows (`paper`), an archer
withdrawn (`withdraw`). Each change is kept in the event's log with what it was before, which
the page shows."""

from flask import Blueprint, render_template, request, url_for

from scorebox.errors import ScoreboxError
from scorebox.events import paper as cards
from scorebox.events import rounds, shown
from scorebox.events.standings import RULE
from scorebox.store.errors import NoStore
from scorebox.web.forms import done
from scorebox.web.request_store import store
from scorebox_core import games

bp = Blueprint("events", __name__)


@bp.route("/events")
def events():
    try:
        s = store()
    except NoStore:
        rows, roster = [], []
    else:
        rows, roster = s.events(), [r[0] for r in s.archers()]
    return render_template(
        "events.html.j2",
        rows=rows,
        roster=roster,
        games=games.every(),
        formats=rounds.FORMAT_WORDS,
        name_of=lambda gid: games.get(gid).NAME,
    )


def _number(field, low, high, what):
    text = request.form.get(field, "").strip()
    if not text.isdigit() or not low <= int(text) <= high:
        raise ScoreboxError("%s: give a whole number %d-%d" % (what, low, high))
    return int(text)


@bp.route("/events/new", methods=["POST"])
def new_event():
    f = request.form
    names = [n for n in f.get("archers", "").replace("\n", ",").split(",") if n.strip()]
    limit = f.get("time_limit", "").strip()
    event = rounds.create(
        store(create=True),
        f.get("name", ""),
        f.get("game", ""),
        f.get("format", ""),
        names,
        _number("targets", 1, 99, "targets"),
        seeding=f.get("seeding", "given"),
        day=f.get("day") or None,
        options=[o for o in f.get("options", "").split() if o],
        time_limit=_number("time_limit", 1, 24 * 60, "time limit in minutes") * 60 if limit else None,
    )
    return done("%s is drawn: its first round is below" % event.name, url_for("events.event", eid=event.id))


@bp.route("/events/<int:eid>")
def event(eid):
    v = shown.view(store(), eid)
    by_round = {}
    for p in v["pairings"]:
        by_round.setdefault(p.round, []).append(p)
    return render_template(
        "event.html.j2",
        v=v,
        e=v["event"],
        by_round=sorted(by_round.items()),
        rule=RULE,
        game=games.get(v["event"].game),
        format_word=rounds.FORMAT_WORDS[v["event"].format],
        agreed=rounds.options_agreed(v["event"]),
        active=[x.name for x in v["entrants"] if x.withdrawn is None],
    )


@bp.route("/events/<int:eid>/seat", methods=["POST"])
def seat(eid):
    s = store()
    event = rounds.load(s, eid)
    target = _number("target", 1, event.targets, "target")
    p = rounds.pairing(s, eid, request.form.get("pairing", ""))
    s.seat_pairing(p["id"], target)
    return done("pairing %s moves to target %d" % (rounds.label(p), target), url_for("events.event", eid=eid))


@bp.route("/events/<int:eid>/attach", methods=["POST"])
def attach(eid):
    ref = request.form.get("match", "").strip()
    if not ref:
        raise ScoreboxError("give the match's number, as the Matches page lists it")
    p, match = rounds.attach(store(), eid, request.form.get("pairing", ""), ref)
    return done("pairing %s is settled by match %s" % (rounds.label(p), match["id"]), url_for("events.event", eid=eid))


@bp.route("/events/<int:eid>/paper", methods=["POST"])
def paper(eid):
    lines = request.form.get("card", "").replace("\r\n", "\n").split("\n")
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines:
        raise ScoreboxError("key the card's turns first, one line a turn")
    p, match = cards.paper(store(), eid, request.form.get("pairing", ""), lines, "the card")
    return done(
        "pairing %s is settled by match %s, from the paper card" % (rounds.label(p), match["id"]),
        url_for("events.event", eid=eid),
    )


@bp.route("/events/<int:eid>/swap", methods=["POST"])
def swap(eid):
    changed = rounds.swap(store(), eid, request.form.get("first", ""), request.form.get("second", ""))
    return done(
        "swapped in pairing %s" % " and ".join(rounds.label(p) for p in changed), url_for("events.event", eid=eid)
    )


@bp.route("/events/<int:eid>/withdraw", methods=["POST"])
def withdraw(eid):
    who = rounds.withdraw(store(), eid, request.form.get("archer", ""))
    return done("%s is withdrawn: their pairings not yet shot are byes" % who.name, url_for("events.event", eid=eid))
