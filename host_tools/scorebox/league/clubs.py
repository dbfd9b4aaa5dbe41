"""`scorebox league add-club NAME` and `scorebox league clubs` / `pushes`: a league's accounts
on its PostgreSQL store (league/db.py, docs/league.md); `scorebox league add-season NAME
FIRST LAST` and `seasons`: its seasons."""

import datetime
import os
import re

from scorebox.errors import ScoreboxError
from scorebox.league import tokens
from scorebox.league.db import LeagueDB, current
from scorebox.store.access import ENV, is_url, open_store

MAX_NAME = 60


def league_store(db):
    """The league's Store and its LeagueDB; a --db that is not a PostgreSQL URL is refused."""

    where = db or os.environ.get(ENV)
    if not is_url(where):
        raise ScoreboxError("a league runs on PostgreSQL: give --db postgresql://... (or %s)" % ENV)
    store = open_store(where, create=True)
    try:
        return store, LeagueDB(store)
    except BaseException:
        store.close()
        raise


def check_name(name, what="a club's"):
    if not name or len(name) > MAX_NAME or not name.isprintable() or name != name.strip():
        raise ScoreboxError("%s name is a line of text of 1 to %d characters: %r" % (what, MAX_NAME, name))
    return name


def cmd_add_club(args):
    name = check_name(args.name)
    store, league = league_store(args.db)
    try:
        token, token_id, token_hash = tokens.make()
        league.add_club(name, token_id, token_hash)
    finally:
        store.close()
    print("club %s added. Its token, shown this once (the league keeps only its hash):" % name)
    print(token)
    return 0


def cmd_clubs(args):
    store, league = league_store(args.db)
    try:
        for c in league.clubs():
            print("%s  added %s" % (c["name"], _when(c["added"])))
    finally:
        store.close()
    return 0


def cmd_pushes(args):
    store, league = league_store(args.db)
    try:
        for p in league.pushes():
            print(
                "%s  %s  %s  sent %d, stored %d, held %d: %s"
                % (
                    _when(p["pushed"]),
                    p["club"] or "(no club)",
                    p["remote"] or "-",
                    p["sent"],
                    p["stored"],
                    p["held"],
                    p["outcome"],
                )
            )
    finally:
        store.close()
    return 0


def day(text, what):
    """The date of a YYYY-MM-DD text; ScoreboxError naming the season's `what` otherwise."""
    try:
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
            return datetime.date.fromisoformat(text)
    except ValueError:
        pass
    raise ScoreboxError("a season's %s is written YYYY-MM-DD, e.g. 2027-03-31: %r" % (what, text))


def cmd_add_season(args):
    name = check_name(args.name, "a season's")
    first, last = day(args.first, "first day"), day(args.last, "last day")
    if first > last:
        raise ScoreboxError("a season's first day (%s) is after its last (%s)" % (first, last))
    store, league = league_store(args.db)
    try:
        league.add_season(name, first, last)
    finally:
        store.close()
    print("season %s added: %s to %s" % (name, first, last))
    return 0


def cmd_seasons(args):
    store, league = league_store(args.db)
    try:
        seasons = league.seasons()
    finally:
        store.close()
    now = current(seasons, datetime.date.today())
    for x in seasons:
        print("%s  %s to %s%s" % (x["name"], x["first"], x["last"], "  (the pages' default)" if x is now else ""))
    return 0


def _when(t):
    return datetime.datetime.fromtimestamp(t).strftime("%Y-%m-%d %H:%M:%S")


def add_parser(sub):
    p = sub.add_parser("league", help="a league's server: its clubs and their tokens (docs/league.md)")
    p.set_defaults(run=lambda args: args.league_run(args))
    what = p.add_subparsers(dest="what", required=True)
    add = what.add_parser("add-club", help="add a club and print its token, once")
    add.add_argument("name", help="the club's name")
    add.set_defaults(league_run=cmd_add_club)
    what.add_parser("clubs", help="the league's clubs").set_defaults(league_run=cmd_clubs)
    what.add_parser("pushes", help="the log of every push, refused ones too").set_defaults(league_run=cmd_pushes)
    season = what.add_parser("add-season", help="add a season: its name, first and last day")
    season.add_argument("name", help="the season's name, e.g. 2027")
    season.add_argument("first", help="its first day, YYYY-MM-DD")
    season.add_argument("last", help="its last day, YYYY-MM-DD")
    season.set_defaults(league_run=cmd_add_season)
    what.add_parser("seasons", help="the league's seasons").set_defaults(league_run=cmd_seasons)
    for q in what.choices.values():
        q.add_argument("--db", help="the league's PostgreSQL store, postgresql://... (or %s)" % ENV)
