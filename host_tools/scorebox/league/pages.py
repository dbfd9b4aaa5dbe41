"""The league's pages (docs/league.md), on its server (league/server.py): the
standings (both games, or one), each club's page (its boxes, its matches, its pushes from the
log), a match's page (its sides and result), the archers across clubs, an archer's page (their
record, matches and opponents), two archers' head to head, and the league's report. The
standings, archers and report are of one season (`?season=ID`; the current one by default,
`?season=all` every match). Plain HTML from Jinja2's autoescaped templates
(league/templates/), styled by the desk's stylesheet, no script. Every figure is read through
the Store's and LeagueDB's methods (league/db.py), counted in SQL."""

import datetime
import os

from flask import Blueprint, abort, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

from scorebox.errors import ScoreboxError
from scorebox.league.db import DRAW_POINTS, WIN_POINTS, current
from scorebox.league.request_store import stores
from scorebox.store.errors import NotFound
from scorebox.text import date_text, match_name, plural, said
from scorebox_core import games

HERE = os.path.dirname(os.path.abspath(__file__))
DESK_STATIC = os.path.join(os.path.dirname(HERE), "web", "static")
MATCHES_SHOWN = 50  # an archer's newest matches on their page, and of a head to head
TOP = 10  # the report's top archers
# The archers list's orders (?sort=): by points as the standings, by name, by matches.
SORTS = {
    "points": None,
    "name": lambda r: (r["name"].casefold(), r["club"].casefold()),
    "matches": lambda r: (-r["matches"], r["name"].casefold()),
}
OUTCOMES = {"W": "won", "D": "drawn", "L": "lost", None: "-"}


def result(m):
    """A match's result in words, as every screen gives it (text.said)."""
    return said(m["winner"], m.get("score"), m.get("abandoned"))


bp = Blueprint(
    "league",
    __name__,
    template_folder=os.path.join(HERE, "templates"),
    static_folder=DESK_STATIC,
    static_url_path="/league/static",
)
bp.add_app_template_filter(date_text, "date")


@bp.record_once
def escaped(state):  # .html.j2 is not a name Flask escapes by itself: every club's name is escaped
    state.app.jinja_env.autoescape = True


@bp.app_context_processor
def common():
    return {
        "games": games.every(),
        "game_name": lambda gid: games.get(gid).NAME,
        "result": result,
        "outcome": OUTCOMES.get,
        "plural": plural,
        "match_name": match_name,  # its box's name where the club named the box
    }


@bp.errorhandler(ScoreboxError)
def store_down(e):
    return render_template("down.html.j2", why=str(e)), 503


# An HTTP error's page: its heading and what it says (others: the error's own name and words)
ERROR_PAGES = {
    404: ("No such page", "The league has no page at this address: the link or the address typed is wrong."),
    500: (
        "Something went wrong",
        "The league's server met an error it did not expect while making this page: try again later.",
    ),
}


@bp.app_errorhandler(HTTPException)
def error_page(e):
    """An HTTP error (no such page, the server's own error) as one of the league's pages, with
    a way home, never a traceback; under the push API's address, its JSON line."""
    title, said = ERROR_PAGES.get(e.code, (e.name, e.description))
    if request.path.startswith("/league/api/"):
        return jsonify(error=said), e.code
    return render_template("error.html.j2", title=title, said=said), e.code


def season_of(league):
    """(the season a page shows, None: every match; the league's seasons): ?season's."""
    seasons = league.seasons()
    arg = request.args.get("season", "").strip()
    if not arg:
        return current(seasons, datetime.date.today()), seasons
    if arg == "all":
        return None, seasons
    for x in seasons:
        if str(x["id"]) == arg:
            return x, seasons
    abort(404)


def game_arg():
    game = request.args.get("game", "").strip() or None
    if game is not None and game not in [g.ID for g in games.every()]:
        abort(404)
    return game


@bp.route("/league/")
def standings():
    game = game_arg()
    _, league = stores()
    season, seasons = season_of(league)
    return render_template(
        "standings.html.j2",
        rows=league.standings(game, season),
        game=game,
        win=WIN_POINTS,
        draw=DRAW_POINTS,
        home=_home(),
        season=season,
        seasons=seasons,
    )


@bp.route("/league/archers")
def archers():
    game, sort = game_arg(), request.args.get("sort", "points")
    if sort not in SORTS:
        abort(404)
    _, league = stores()
    season, seasons = season_of(league)
    rows = league.archers(game, season)
    if SORTS[sort]:
        rows.sort(key=SORTS[sort])
    return render_template(
        "archers.html.j2", rows=rows, game=game, sort=sort, season=season, seasons=seasons, win=WIN_POINTS
    )


@bp.route("/league/archers/<int:aid>")
def archer(aid):
    _, league = stores()
    a = league.archer(aid)
    if a is None:
        abort(404)
    season, seasons = season_of(league)
    return render_template(
        "archer.html.j2",
        a=a,
        season=season,
        seasons=seasons,
        record=league.record(aid, season),
        matches=league.archer_matches(aid, season, n=MATCHES_SHOWN),
        foes=league.opponents(aid, season),
        shown=MATCHES_SHOWN,
    )


@bp.route("/league/archers/<int:aid>/versus/<int:oid>")
def versus(aid, oid):
    _, league = stores()
    a, o = league.archer(aid), league.archer(oid)
    if a is None or o is None:
        abort(404)
    season, seasons = season_of(league)
    return render_template(
        "versus.html.j2",
        a=a,
        o=o,
        season=season,
        seasons=seasons,
        tally=next((f for f in league.opponents(aid, season) if f["id"] == oid), None),
        matches=league.archer_matches(aid, season, versus=oid, n=MATCHES_SHOWN),
        shown=MATCHES_SHOWN,
    )


@bp.route("/league/report")
def report():
    _, league = stores()
    season, seasons = season_of(league)
    return render_template(
        "report.html.j2",
        season=season,
        seasons=seasons,
        tables=[(g, league.standings(g.ID, season)) for g in games.every()],
        top=league.archers(None, season)[:TOP],
        counts=league.counts(season),
        win=WIN_POINTS,
        draw=DRAW_POINTS,
        home=_home(),
        made=datetime.datetime.now().strftime("%Y-%m-%d %H:%M"),
    )


@bp.route("/league/clubs/<int:cid>")
def club(cid):
    _, league = stores()
    c = league.club(cid)
    if c is None:
        abort(404)
    return render_template(
        "club.html.j2",
        club=c,
        boxes=league.club_boxes(cid),
        matches=league.club_matches(cid),
        pushes=league.club_pushes(cid),
        home=_home(),
    )


@bp.route("/league/matches/<int:mid>")
def match(mid):
    store, league = stores()
    try:
        m = store.load_match(mid)
    except NotFound:
        abort(404)
    owner = league.box_club(m["device"])
    filed = league.names(m["device"], [m["number"]]).get(m["number"])
    clubs = {c["id"]: c for c in league.clubs()}
    sides = [clubs[cid] for cid in filed[2]] if owner and filed else None
    game = games.of(m["header"])
    return render_template("match.html.j2", m=m, game=game, owner=owner, sides=sides, said=result(m))


def _home():
    return ", ".join("%s in %s" % (g.SIDES[0], g.NAME) for g in games.every())
