"""The league's store, one a request (Flask's g): its Store and LeagueDB opened when the
request first asks for them and closed when it ends (create_app's teardown)."""

from flask import current_app, g

from scorebox.league.clubs import league_store


def stores():
    """(the request's Store, its LeagueDB), on the app's LEAGUE_DB."""
    if "league" not in g:
        g.league = league_store(current_app.config["LEAGUE_DB"])
    return g.league


def close_stores(_error=None):
    got = g.pop("league", None)
    if got is not None:
        got[0].close()
