"""A guest archer's home club (issue 26, item 2: head to head across clubs; docs/league.md,
"Archers across clubs"): the club's roster keeps it (`scorebox archers club`, the desk's
Archers page, store migration 8), `scorebox push` sends each archer's club beside their name,
and the league files the guest under their club and counts a match between two clubs for
both: the side that won is its club's win, the other's loss, a draw both clubs' draw. On a
real PostgreSQL (pgserver.py), the clubs' stores of test_league_archers.py (leagueclubs.py:
club A's holds both games, Tic Tac BOW's hand matches and two Try-Tac-Toe games, TTT-6).

Club A's guests: Ben (Tic Tac BOW: side B of hand match 1, which B won, and side A of hand
match 3, a draw) and Bo (Try-Tac-Toe: side O of both games, one won by O, one by X)."""

import json
import re

import pytest
from leagueclubs import add_club, clubs, league_count, rows, running
from test_league_archer_pages import page
from test_league_archers import KEPT
from test_league_pages import standings, table
from test_league_push_whole_and_named import log, send

from scorebox import cli
from scorebox.errors import ScoreboxError
from scorebox.league.clubs import league_store
from scorebox.league.server import create_app
from scorebox.store.access import open_store
from scorebox.web.app import create_app as desk
from scorebox_core import games

pytest_plugins = ("pgserver",)
A, B, C = "Archers of A", "Bowmen of B", "Crossbows of C"
FIRST = {g.SIDES[0] for g in games.every()}


def set_club(path, name, club, capsys):
    """`scorebox archers club NAME CLUB` on a club's store; its line."""
    capsys.readouterr()
    assert cli.main(["archers", "club", name, club, "--db", path]) == 0
    return capsys.readouterr().out.strip()


def expected(stores, game=None):
    """({club: (matches, wins, draws, losses, points)}, {(club, archer): the same}) counted
    from the clubs' own stores ({club: path}): a side is its archers' club (a guest's home
    club, else the store's club); a match of one club's two sides is that club's, seen from
    its first side (A, X); a match of two clubs is each side's club's, seen from its side.
    game: of that game's matches only."""
    teams, archers = {}, {}

    def add(to, key, outcome):
        n, w, d, lost = to.get(key, (0, 0, 0, 0))
        to[key] = (n + 1, w + (outcome == "W"), d + (outcome == "D"), lost + (outcome == "L"))

    def seen(winner, first):
        if winner == "draw":
            return "D"
        return None if winner is None else "W" if (winner in FIRST) == first else "L"

    for club, path in stores.items():
        s = open_store(path)
        try:
            guests = s.guest_clubs()
            for m in s.matches():
                if game and m["game"] != game:
                    continue
                sides = [(m["side_a"] or "").split(","), (m["side_b"] or "").split(",")]
                of = [guests.get(side[0].casefold(), club) for side in sides]
                for first, (side, whose) in zip((True, False), zip(sides, of)):
                    for name in side:
                        add(archers, (whose, name), seen(m["winner"], first))
                if of[0] == of[1]:
                    add(teams, of[0], seen(m["winner"], True))
                else:
                    for first, whose in zip((True, False), of):
                        add(teams, whose, seen(m["winner"], first))
        finally:
            s.close()
    points = lambda t: t + (2 * t[1] + t[2],)  # noqa: E731
    return {k: points(v) for k, v in teams.items()}, {k: points(v) for k, v in archers.items()}


def league_now(url, game=None):
    """({club: tally} of the standings, {(club, archer): tally}), the clubs without matches left out."""
    store, lg = league_store(url)
    try:
        keys = ("matches", "wins", "draws", "losses", "points")
        teams = {r["name"]: tuple(r[k] for k in keys) for r in lg.standings(game) if r["matches"]}
        archers = {(r["club"], r["name"]): tuple(r[k] for k in keys) for r in lg.archers(game)}
        return teams, archers
    finally:
        store.close()


def check_kept(url):
    """What the pushes and refilings kept is what keep_all makes again from the matches: the
    sides and totals row for row, the days' counts summed (a refiling adds a day's row that
    takes a match's counts back)."""
    store, lg = league_store(url)
    day_sums = (
        "SELECT club_id, game, day, sum(matches), sum(wins), sum(draws), sum(losses) FROM league_club_days "
        "GROUP BY 1, 2, 3 HAVING sum(matches) <> 0 ORDER BY 1, 2, 3"
    )

    def kept():
        out = {t: sorted(store.db.execute("SELECT * FROM " + t).fetchall()) for t in KEPT if t != "league_club_days"}
        out["league_club_days"] = store.db.execute(day_sums).fetchall()
        for t in ("league_club_totals", "league_archer_totals"):  # a total taken back to nothing is none
            out[t] = [r for r in out[t] if r[3]]
        return out

    try:
        before = kept()
        lg.keep_all()
        assert kept() == before
    finally:
        store.close()


@pytest.fixture
def three(pg_url, tmp_path, capsys):
    """Clubs A and B (their stores) and C (no store) in a league at pg_url, with a season of
    every day; (url, a, b, {club: token})."""
    a, b = clubs(tmp_path)
    tokens = {name: add_club(capsys, pg_url, name) for name in (A, B, C)}
    assert cli.main(["league", "add-season", "All", "2000-01-01", "2099-12-31", "--db", pg_url]) == 0
    return pg_url, a, b, tokens


def test_a_guests_club_on_the_roster(tmp_path, capsys):
    """`scorebox archers club` sets and clears it, `archers list` shows it, a bad one is one
    line; the desk's Archers page sets it as the command does (CSRF token and all)."""
    a, _ = clubs(tmp_path)
    assert (
        set_club(a, "ben", "  Bowmen of B ", capsys)
        == "Ben shoots for Bowmen of B, as a guest: the league files Ben's matches under that club"
    )
    assert cli.main(["archers", "--db", a]) == 0
    listed = {line.split()[0]: line for line in capsys.readouterr().out.splitlines()[1:-1]}
    assert listed["Ben"].endswith(" Bowmen of B") and not listed["Ann"].endswith("B")
    assert cli.main(["archers", "club", "Ben", "Bowmen\x1bof B", "--db", a]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "a club's name is a line of text" in err
    assert cli.main(["archers", "club", "Nobody", "Bowmen of B", "--db", a]) == 2
    assert "no archer called 'Nobody'" in capsys.readouterr().err
    s = open_store(a)
    try:  # an unnamed side (a match keyed A v B) is no archer: no club
        s.db.execute("INSERT INTO archers (name) VALUES ('B')")
    finally:
        s.close()
    assert cli.main(["archers", "club", "b", "Bowmen of B", "--db", a]) == 2
    assert "'B' is what the box calls an unnamed side" in capsys.readouterr().err
    s = open_store(a)
    try:
        assert s.guest_clubs() == {"ben": "Bowmen of B"}
    finally:
        s.close()
    assert set_club(a, "Ben", "", capsys) == "Ben shoots for this club"
    app = desk(a, workdir=str(tmp_path / "work"))
    c = app.test_client()
    html = c.get("/archers").get_data(as_text=True)
    csrf = re.search(r'name="csrf" value="([^"]+)"', html).group(1)
    got = c.post("/archers/club", data={"name": "bo", "club": "Bowmen of B", "csrf": csrf})
    assert got.status_code == 302
    html = c.get("/archers").get_data(as_text=True)
    assert "Bo shoots for Bowmen of B, as a guest" in html
    row = next(r for r in re.findall(r"<tr>(.*?)</tr>", html, re.S) if ">Bo</a>" in r)
    assert row.endswith("<td>Bowmen of B</td>")
    s = open_store(a)
    try:
        assert s.guest_clubs() == {"bo": "Bowmen of B"}
    finally:
        s.close()


def test_a_match_between_two_clubs_counts_for_both(three, capsys):
    """Ben and Bo of club B shoot on club A's boxes (both games): filed as B's archers, their
    matches B's wins and losses and A's the other way round, the draw both clubs'; head to
    head between A's Ann and B's Ben on the league's pages."""
    url, a, b, tokens = three
    set_club(a, "Ben", B, capsys)
    set_club(a, "Bo", B, capsys)
    with running(url) as address:
        assert send(a, address, tokens[A]) == (5, 0)
        assert send(b, address, tokens[B]) == (6, 0)
    teams, archers = expected({A: a, B: b})
    # the hand matches: 1 (B's Ben won), 2 (A's own), 3 (a draw); Try-Tac-Toe 4 (O: B's Bo won), 5 (X won)
    assert teams[A] == (5, 2, 1, 2, 5)
    assert teams[B][0] == 6 + 4  # its own six, and four of A's boxes' matches
    assert ("Archers of A", "Ben") not in archers and ("Bowmen of B", "Bo") in archers
    assert league_now(url) == (teams, archers)
    for g in games.every():  # each game's standings and archers
        assert league_now(url, g.ID) == expected({A: a, B: b}, g.ID)
    check_kept(url)
    store, lg = league_store(url)
    try:  # the league's report counts a match of two clubs once
        assert lg.counts()["matches"] == {"tictacbow": 3 + 6, "try-tac-toe": 2}
    finally:
        store.close()
    client = create_app(url).test_client()
    assert "9 matches of Tic Tac BOW, 2 matches of Try-Tac-Toe" in page(client, "/league/report?season=all")
    shown, _ = standings(client)
    assert {k: v for k, v in shown.items() if v[0]} == teams
    shown, _ = standings(client, "try-tac-toe")
    assert shown[A] == (2, 1, 0, 1, 2) and shown[B] == (2, 1, 0, 1, 2)
    ids = {(r[1], r[0]): None for r in table(page(client, "/league/archers"), "archers")}
    assert (B, "Ben") in ids and (A, "Ben") not in ids
    store, lg = league_store(url)
    try:
        ann, ben = ({(r["club"], r["name"]): r["id"] for r in lg.archers()}[k] for k in ((A, "Ann"), (B, "Ben")))
    finally:
        store.close()
    html = page(client, "/league/archers/%d" % ann)
    foes = {(f[0], f[1]): f for f in table(html, "opponents")}
    assert foes[("Ben", B)][2:] == ["1", "0", "0", "1"]  # hand match 1: Ben won
    versus = page(client, "/league/archers/%d/versus/%d" % (ann, ben))
    tally = re.search(r'<p id="tally">(.*?)</p>', versus, re.S).group(1)
    assert tally.startswith("1 match: Ann won 0, Ben won 1, 0 drawn"), tally
    assert len(table(versus, "matches")) == 1


@pytest.mark.parametrize("guest, game", [("Ben", "tictacbow"), ("Bo", "try-tac-toe")])
def test_a_club_the_league_does_not_know_is_refused(guest, game, three, capsys):
    """A guest's club that is no club of the league: the whole push refused (422), nothing
    stored, the push logged; so is a side whose archers are of two clubs (Try-Tac-Toe's X)."""
    url, a, _, tokens = three
    set_club(a, guest, "Longbows of L", capsys)
    with running(url) as address:
        with pytest.raises(ScoreboxError) as refused:
            send(a, address, tokens[A])
        assert league_count(url) == 0 and league_now(url) == ({}, {})
        said = str(refused.value)
        assert said.startswith("the league refused (422): ") and said.endswith("; nothing stored")
        assert "%s's club 'Longbows of L' is not a club of the league" % guest in said
        assert log(url)[-1][:4] == (A, 5, 0, 422)
        set_club(a, guest, "", capsys)
        set_club(a, "Cy", B, capsys)  # Ann and Cy shoot for X together
        with pytest.raises(ScoreboxError, match=r"Ann, Cy are of two clubs: a side shoots for one club"):
            send(a, address, tokens[A])
        assert league_count(url) == 0 and log(url)[-1][3] == 422
        set_club(a, "Cy", "", capsys)
        assert send(a, address, tokens[A]) == (5, 0)


def test_an_older_push_means_both_sides_are_the_clubs(three, capsys):
    """A push without clubs (a scorebox before them) is taken: every archer the pushing
    club's. The club's next push, with its guest's club, files the guest's matches anew."""
    url, a, _, tokens = three
    set_club(a, "Ben", B, capsys)
    client = create_app(url).test_client()
    older = rows(a)  # the export's matches: no clubs
    assert all("clubs" not in m for m in older)
    got = client.post(
        "/league/api/push",
        data=json.dumps({"push_id": "older0000001", "matches": older}),
        headers={"Authorization": "Bearer " + tokens[A]},
        content_type="application/json",
    )
    assert got.status_code == 200 and got.json["stored"] == 5
    assert league_now(url) == expected({A: _ours(a)})
    keys = [[m["device"], m["number"], m["names"]] for m in older]  # an older question: held, as named
    got = client.post("/league/api/have", json={"matches": keys}, headers={"Authorization": "Bearer " + tokens[A]})
    assert len(got.json["have"]) == 5
    with running(url) as address:
        assert send(a, address, tokens[A]) == (0, 5)  # Ben's two matches sent again, filed anew
    assert log(url)[-1][4] == "stored 0, held already 2, filed anew 2"
    assert league_now(url) == expected({A: a})
    check_kept(url)


def _ours(path):
    """A copy of a club's store with no guests: what an older push says."""
    copy = path + ".ours.sqlite"
    s = open_store(path)
    try:
        s.db.execute("VACUUM INTO ?", (copy,))
    finally:
        s.close()
    s = open_store(copy)
    try:
        s.db.execute("UPDATE archers SET club = NULL")
    finally:
        s.close()
    return copy


def test_a_guests_club_changed_and_pushed_again_moves_the_totals(three, capsys):
    """Ben moves from club B to club C, Bo back to club A's own: the next push sends their
    matches again (both games), each filed under its sides' clubs now, the clubs' and the
    archers' totals (every season's) moved in the push's transaction; then nothing is sent."""
    url, a, b, tokens = three
    set_club(a, "Ben", B, capsys)
    set_club(a, "Bo", B, capsys)
    with running(url) as address:
        assert send(a, address, tokens[A]) == (5, 0)
        assert send(b, address, tokens[B]) == (6, 0)
        before = league_now(url)
        assert before == expected({A: a, B: b})
        set_club(a, "Ben", C, capsys)
        set_club(a, "Bo", "", capsys)
        assert send(a, address, tokens[A]) == (0, 5)
        assert log(url)[-1][4] == "stored 0, held already 4, filed anew 4"
        pushes = len(log(url))
        assert send(a, address, tokens[A]) == (0, 5)  # held as the club files them: nothing sent
        assert len(log(url)) == pushes
    now = league_now(url)
    assert now != before and now == expected({A: a, B: b})
    assert now[0][C] == (2, 1, 1, 0, 3)  # Ben's win in hand match 1, the draw of 3
    assert (B, "Bo") not in now[1] and (A, "Bo") in now[1]
    for g in games.every():
        assert league_now(url, g.ID) == expected({A: a, B: b}, g.ID)
    store, lg = league_store(url)
    try:  # the season's totals moved as every match's
        season = lg.seasons()[0]
        keys = ("matches", "wins", "draws", "losses", "points")
        assert {r["name"]: tuple(r[k] for k in keys) for r in lg.standings(season=season) if r["matches"]} == now[0]
    finally:
        store.close()
    check_kept(url)


def test_a_guests_club_goes_with_an_export(tmp_path, capsys):
    """`scorebox export --format json` writes each archer's club; `scorebox import` of it into
    a new store keeps it (an export before clubs: the club's own)."""
    a, _ = clubs(tmp_path)
    set_club(a, "Bo", B, capsys)
    out = tmp_path / "out"
    assert cli.main(["export", "--db", a, "--format", "json", "--out", str(out)]) == 0
    data = json.loads((out / "matches.json").read_text())
    assert {x["name"]: x["club"] for x in data["archers"]}["Bo"] == B
    fresh = str(tmp_path / "fresh.sqlite")
    assert cli.main(["import", str(out / "matches.json"), "--db", fresh]) == 0
    s = open_store(fresh)
    try:
        assert s.guest_clubs() == {"bo": B}
    finally:
        s.close()
    for x in data["archers"]:
        del x["club"]
    (out / "matches.json").write_text(json.dumps(data))
    older = str(tmp_path / "older.sqlite")
    assert cli.main(["import", str(out / "matches.json"), "--db", older]) == 0
    s = open_store(older)
    try:
        assert s.guest_clubs() == {}
    finally:
        s.close()
