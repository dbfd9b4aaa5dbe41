"""The bench's league generator (tests/support/leaguegen.py, bench/bench_league_1m.py): each
match it makes is one the rules core accepts and the store holds as a push would store it.

A tiny league is generated (a pool of played matches, the rest copies loaded in bulk); then
every match of it is read back, checked again by the rules core and stored with the
Store's add_checked in a second database. The two must hold the same rows, table by table
(by box and number, archers by name, not by row id), the same archers' figures and league
records (their sums) and the same league's standings.
"""

import json

import pytest
from leaguegen import generate

from scorebox.league.clubs import league_store
from scorebox.store.checks import check

pytest_plugins = ("pgserver",)

COUNT, POOL, CLUBS, BOXES = 60, 14, 2, 2

# Every row of the store's tables, its ids made names (box/number, archer), sorted.
_MATCH = "d.uid, m.number"
READS = {
    "matches": "SELECT " + _MATCH + ", m.started, m.options, m.header, m.log, m.extras, m.winner, m.wins_a, "
    "m.wins_b, m.draws, m.finished FROM matches m JOIN devices d ON d.id = m.device_id",
    "match_archers": "SELECT " + _MATCH + ", x.side, x.position, a.name, x.distance, x.shaft_mm "
    "FROM match_archers x JOIN matches m ON m.id = x.match_id JOIN devices d ON d.id = m.device_id "
    "JOIN archers a ON a.id = x.archer_id",
    "games": "SELECT " + _MATCH + ", g.number, g.first, g.winner, g.reason, g.rounds "
    "FROM games g JOIN matches m ON m.id = g.match_id JOIN devices d ON d.id = m.device_id",
    "turns": "SELECT " + _MATCH + ", g.number, t.number, t.round, t.side, a.name FROM turns t "
    "JOIN games g ON g.id = t.game_id JOIN matches m ON m.id = g.match_id JOIN devices d ON d.id = m.device_id "
    "JOIN archers a ON a.id = t.archer_id",
    "arrows": "SELECT " + _MATCH + ", g.number, t.number, r.number, r.square, r.value, r.called, r.x_hit, "
    "r.outcome FROM arrows r JOIN turns t ON t.id = r.turn_id JOIN games g ON g.id = t.game_id "
    "JOIN matches m ON m.id = g.match_id JOIN devices d ON d.id = m.device_id",
    "archer_matches": "SELECT a.name, " + _MATCH + ", x.started, x.arrows, x.points FROM archer_matches x "
    "JOIN archers a ON a.id = x.archer_id JOIN matches m ON m.id = x.match_id JOIN devices d ON d.id = m.device_id",
    # the kept sums: rows only added, read as their sums (store/figures.py)
    "archer_results": "SELECT a.name, x.side, x.winner, sum(x.matches) FROM archer_results x "
    "JOIN archers a ON a.id = x.archer_id GROUP BY 1, 2, 3",
    "archer_games": "SELECT a.name, x.side, x.winner, sum(x.games) FROM archer_games x "
    "JOIN archers a ON a.id = x.archer_id GROUP BY 1, 2, 3",
    "archer_opponents": "SELECT a.name, o.name, x.side, x.winner, sum(x.matches), sum(x.won), sum(x.lost), "
    "sum(x.drawn) FROM archer_opponents x JOIN archers a ON a.id = x.archer_id "
    "JOIN archers o ON o.id = x.opponent_id GROUP BY 1, 2, 3, 4",
    "archer_arrows": "SELECT a.name, x.square, x.called, x.outcome, sum(x.arrows), sum(x.value) "
    "FROM archer_arrows x JOIN archers a ON a.id = x.archer_id GROUP BY 1, 2, 3, 4",
    "archer_claims": "SELECT a.name, sum(x.lost) FROM archer_claims x JOIN archers a ON a.id = x.archer_id GROUP BY 1",
    # the league's records kept as matches are stored (league/db.py's LeagueDB.keep)
    "league_archers": "SELECT c.name, a.name FROM league_archers l JOIN league_clubs c ON c.id = l.club_id "
    "JOIN archers a ON a.id = l.archer_id",
    "league_match_sides": "SELECT " + _MATCH + ", s.side, s.position, a.name, s.game, s.day, s.outcome "
    "FROM league_match_sides s JOIN matches m ON m.id = s.match_id JOIN devices d ON d.id = m.device_id "
    "JOIN league_archers l ON l.id = s.archer_id JOIN archers a ON a.id = l.archer_id",
    "league_club_days": "SELECT c.name, x.game, x.day, sum(x.matches), sum(x.wins), sum(x.draws), sum(x.losses) "
    "FROM league_club_days x JOIN league_clubs c ON c.id = x.club_id GROUP BY 1, 2, 3",
    "league_club_totals": "SELECT c.name, z.name, x.game, x.matches, x.wins, x.draws, x.losses "
    "FROM league_club_totals x JOIN league_clubs c ON c.id = x.club_id "
    "LEFT JOIN league_seasons z ON z.id = x.season_id",
    "league_match_totals": "SELECT z.name, x.game, x.matches FROM league_match_totals x "
    "LEFT JOIN league_seasons z ON z.id = x.season_id",
    "league_archer_totals": "SELECT c.name, a.name, z.name, x.game, x.matches, x.wins, x.draws, x.losses "
    "FROM league_archer_totals x JOIN league_archers l ON l.id = x.archer_id JOIN archers a ON a.id = l.archer_id "
    "JOIN league_clubs c ON c.id = l.club_id LEFT JOIN league_seasons z ON z.id = x.season_id",
}


def rows(store):
    return {t: sorted(store.db.execute(q).fetchall(), key=repr) for t, q in READS.items()}


@pytest.fixture(scope="module")
def leagues(pg_server):
    """(the generated league's store and LeagueDB, the same matches stored by add_checked's)."""
    made = pg_server.new_database()
    generate(made, COUNT, pool=POOL, clubs=CLUBS, boxes=BOXES)
    store, league = league_store(made)
    again, league_again = league_store(pg_server.new_database())
    for x in league.seasons():
        league_again.add_season(x["name"], x["first"], x["last"])
    for c in league.clubs():
        league_again.add_club(c["name"], "id%d" % c["id"], "-")
        cid = league_again.club_by_token("id%d" % c["id"])[0]
        league_again.claim_boxes(cid, [b["uid"] for b in league.club_boxes(c["id"])])
    for uid, number, header, log, extras in store.db.execute(
        "SELECT d.uid, m.number, m.header, m.log, m.extras FROM matches m JOIN devices d ON d.id = m.device_id "
        "ORDER BY m.id"
    ).fetchall():
        c = check(number, json.loads(header), json.loads(log), json.loads(extras))
        got, _ = again.add_checked(uid, [c], on_stored=league_again.keep)
        assert got == [True]
    yield store, league, again, league_again
    store.close()
    again.close()


def test_the_league_holds_count_matches_from_its_clubs_boxes(leagues):
    store, league, _, _ = leagues
    assert store.count() == COUNT
    assert len(league.clubs()) == CLUBS
    boxes = [b for c in league.clubs() for b in league.club_boxes(c["id"])]
    assert len(boxes) == CLUBS * BOXES and sum(b["matches"] for b in boxes) == COUNT
    games = dict(store.db.execute("SELECT header::jsonb ->> 'game', count(*) FROM matches GROUP BY 1"))
    assert games.get("try-tac-toe") and games[None] > games["try-tac-toe"]  # both games
    # each box's numbers run 1, 2, 3... and its clock rises with them
    for uid, numbers, clocks in store.db.pg.execute(
        "SELECT d.uid, array_agg(m.number ORDER BY m.number), array_agg(m.started ORDER BY m.number) "
        "FROM matches m JOIN devices d ON d.id = m.device_id GROUP BY d.uid"
    ):
        assert numbers == list(range(1, len(numbers) + 1)) and clocks == sorted(set(clocks)), uid


def test_every_match_is_as_add_checked_stores_it(leagues):
    store, _, again, _ = leagues
    mine, theirs = rows(store), rows(again)
    for table in READS:
        assert mine[table], table
        assert mine[table] == theirs[table], table


def test_copies_are_distinct_matches_with_their_clubs_archers(leagues):
    store, league, _, _ = leagues
    headers = [r[0] for r in store.db.execute("SELECT header FROM matches")]
    assert len(set(headers)) == COUNT
    clubs = {c["name"]: c["id"] for c in league.clubs()}
    for uid, name in store.db.execute(
        "SELECT d.uid, a.name FROM match_archers x JOIN matches m ON m.id = x.match_id "
        "JOIN devices d ON d.id = m.device_id JOIN archers a ON a.id = x.archer_id"
    ):
        assert league.box_club(uid)[0] == clubs["Club %s" % name.split()[1]]


def test_standings_and_pushes_agree(leagues):
    _, league, _, league_again = leagues
    seasons = league.seasons()
    assert len(seasons) == 2 and seasons == league_again.seasons()
    for season in [None] + seasons:
        mine, theirs = league.standings(None, season), league_again.standings(None, season)
        assert [(r["name"], r["matches"], r["points"]) for r in mine] == [
            (r["name"], r["matches"], r["points"]) for r in theirs
        ]
        assert all(r["matches"] for r in mine)  # every season holds some of each club's matches
    pushes = league.pushes()
    assert sum(p["stored"] for p in pushes) == COUNT and {p["status"] for p in pushes} == {200}
