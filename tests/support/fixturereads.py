"""What a 1.0 fixture reads as (tests/fixtures/1.0): tools/make_fixtures.py records it in
expected.json, tests/pc/test_fixtures_1_0.py reads the fixture again with today's code and
compares; one function for both, so the recording and the check cannot drift apart."""

import json

GAMES = ("tictacbow", "try-tac-toe")


def as_json(x):
    return json.loads(json.dumps(x, default=str))


def store_reads(path):
    """What the reports read from the store at path, by the store's own API: the match count,
    every match as listed (Store.matches), each box's match digests (Store.digests) and the
    roster (Store.archers)."""
    from scorebox.store.sqlite import Store

    store = Store(path)
    try:
        matches = store.matches()
        digests = {}
        for uid in sorted({m["device"] for m in matches}):
            got = store.digests(uid, [m["number"] for m in matches if m["device"] == uid])
            digests[uid] = {str(n): d for n, d in got.items()}
        return as_json(
            {
                "match_count": store.count(),
                "matches": matches,
                "digests": digests,
                "archers": [list(a) for a in store.archers(retired=True)],
            }
        )
    finally:
        store.close()


def league_reads(url):
    """What the league's pages read (league/db.py's LeagueDB): its clubs, seasons, each game's
    standings (all time), the match count and per-club counts."""
    from scorebox.league.clubs import league_store

    store, league = league_store(url)
    try:
        return as_json(
            {
                "match_count": store.count(),
                "clubs": league.clubs(),
                "seasons": league.seasons(),
                "standings": {g: league.standings(game=g) for g in GAMES},
                "counts": league.counts(),
            }
        )
    finally:
        store.close()
