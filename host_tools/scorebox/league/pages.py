"""The league's pages (issue 26, docs/league.md), on its server (league/server.py): the
standings (both games, or one), each club's page (its boxes, its matches, its pushes from the
log) and a match's page (its sides and result). Plain HTML from Jinja2's autoescaped
templates (league/templates/), styled by the desk's stylesheet, no script. Every figure is
read through the Store's and LeagueDB's methods (store/leaguedb.py), counted in SQL."""

import os

from flask import Blueprint, abort, render_template, request

from scorebox.errors import ScoreboxError
from scorebox.league.clubs import league_store
from scorebox.store.errors import NotFound
from scorebox.store.leaguedb import DRAW_POINTS, WIN_POINTS
from scorebox.text import date_text
from scorebox_core import games

HERE = os.path.dirname(os.path.abspath(__file__))
DESK_STATIC = os.path.join(os.path.dirname(HERE), "web", "static")


def result(m):
    """A match's result in words, from the row's winner and games won."""
    if m["winner"] == "draw":
        return "a draw, %d-%d" % (m["wins_a"], m["wins_b"])
    if m["winner"]:
        return "%s won, %d-%d" % (m["winner"], m["wins_a"], m["wins_b"])
    return "abandoned" if m["abandoned"] else "not finished"


def blueprint(db):
    """The pages, on the league's store at db."""
    bp = Blueprint(
        "league",
        __name__,
        template_folder=os.path.join(HERE, "templates"),
        static_folder=DESK_STATIC,
        static_url_path="/league/static",
    )

    @bp.record_once
    def escaped(state):  # .html.j2 is not a name Flask escapes by itself: every club's name is escaped
        state.app.jinja_env.autoescape = True

    def read(fn):
        store, league = league_store(db)
        try:
            return fn(store, league)
        finally:
            store.close()

    @bp.app_context_processor
    def common():
        return {"games": games.every(), "game_name": lambda gid: games.get(gid).NAME, "result": result}

    bp.add_app_template_filter(date_text, "date")

    @bp.route("/league/")
    def standings():
        game = request.args.get("game", "").strip() or None
        if game is not None and game not in [g.ID for g in games.every()]:
            abort(404)
        rows = read(lambda store, league: league.standings(game))
        return render_template(
            "standings.html.j2", rows=rows, game=game, win=WIN_POINTS, draw=DRAW_POINTS, home=_home()
        )

    @bp.route("/league/clubs/<int:cid>")
    def club(cid):
        def get(store, league):
            c = league.club(cid)
            if c is None:
                abort(404)
            return c, league.club_boxes(cid), league.club_matches(cid), league.club_pushes(cid)

        c, boxes, matches, pushes = read(get)
        return render_template("club.html.j2", club=c, boxes=boxes, matches=matches, pushes=pushes, home=_home())

    @bp.route("/league/matches/<int:mid>")
    def match(mid):
        def get(store, league):
            try:
                m = store.load_match(mid)
            except NotFound:
                abort(404)
            return m, league.box_club(m["device"])

        m, owner = read(get)
        game = games.of(m["header"])
        row = dict(winner=m["winner"], wins_a=m["wins"][0], wins_b=m["wins"][1], abandoned=m["abandoned"])
        return render_template("match.html.j2", m=m, game=game, owner=owner, said=result(row))

    @bp.errorhandler(ScoreboxError)
    def store_down(e):
        return render_template("down.html.j2", why=str(e)), 503

    return bp


def _home():
    return ", ".join("%s in %s" % (g.SIDES[0], g.NAME) for g in games.every())
