"""The league's push, on a real PostgreSQL
(pgserver.py): a push of several boxes is stored whole or not at all, and logged whatever
its outcome (a 503 too); the names a club gives a match on its PC (Store.name_match) are
the league's on the first push and follow a rename on a later one, the archers' kept
totals moved with them (both games); a match naming one archer twice is refused."""

import copy
import json
import logging

import pytest
from leagueclubs import B_BOX, add_club, clubs, league_count, rows, running
from test_league_archers import archers, kept, their_archers

from scorebox import cli
from scorebox.commands import push
from scorebox.league import server
from scorebox.league.clubs import league_store
from scorebox.store.access import open_store

pytest_plugins = ("pgserver",)


def send(path, address, token):
    s = open_store(path)
    try:
        return push.push(s, push.League(address, token))
    finally:
        s.close()


def log(url):
    store, lg = league_store(url)
    try:
        return [(p["club"], p["sent"], p["stored"], p["status"], p["outcome"]) for p in lg.pushes()]
    finally:
        store.close()


def sql(url, script):
    s = open_store(url)
    try:
        s.db.script(script)
    finally:
        s.close()


def test_a_push_of_two_boxes_is_stored_whole_or_not_at_all(pg_url, tmp_path, capsys):
    """Club A's one push holds three boxes' matches (both games); the last box's cannot be
    written: none of the push is kept, it is logged (503), and the next push stores all."""
    a, _ = clubs(tmp_path)
    boxes = list(dict.fromkeys(m["device"] for m in rows(a)))
    assert len(boxes) >= 2
    token = add_club(capsys, pg_url, "Archers of A")
    sql(
        pg_url,
        "CREATE FUNCTION refuse() RETURNS trigger AS $$ BEGIN IF (SELECT uid FROM devices WHERE id = "
        "NEW.device_id) = '%s' THEN RAISE EXCEPTION 'disk trouble'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql; "
        "CREATE TRIGGER refuse BEFORE INSERT ON matches FOR EACH ROW EXECUTE FUNCTION refuse();" % boxes[-1],
    )
    with running(pg_url) as address:
        with pytest.raises(push.ScoreboxError) as refused:
            send(a, address, token)
        assert league_count(pg_url) == 0  # the first boxes' matches too (before: they stayed)
        assert archers(pg_url) == {}
        assert "cannot take a push now" in str(refused.value) and str(refused.value).endswith("; nothing stored")
        (line,) = log(pg_url)
        assert line[:4] == ("Archers of A", 5, 0, 503) and "disk trouble" in line[4]
        sql(pg_url, "DROP TRIGGER refuse ON matches")
        assert send(a, address, token) == (5, 0)
    assert league_count(pg_url) == 5
    assert archers(pg_url) == their_archers(a, "Archers of A")
    assert [p[3] for p in log(pg_url)] == [503, 200]


def test_a_push_the_store_cannot_log_is_in_the_servers_log(pg_url, tmp_path, capsys, caplog):
    a, _ = clubs(tmp_path)
    token = add_club(capsys, pg_url, "Archers of A")
    client = server.create_app(pg_url).test_client()
    sql(pg_url, "ALTER TABLE league_pushes RENAME TO away")
    with caplog.at_level(logging.ERROR):
        got = client.post(
            "/league/api/push",
            json={"push_id": "push00000001", "matches": rows(a)},
            headers={"Authorization": "Bearer " + token},
        )
    assert got.status_code == 503 and got.json["error"].endswith("push again later; nothing stored")
    assert league_count(pg_url) == 0
    assert any(
        r.getMessage().startswith("a push not logged") and "league_pushes" in r.getMessage() for r in caplog.records
    )


def named(url, uid, number):
    """The names the league files match number of box uid under: side A's, then side B's."""
    s = open_store(url)
    try:
        return s.match_names(uid, number)[1]
    finally:
        s.close()


def check_kept(url):
    """What the pushes and renames kept is what the matches say (keep_all makes it again)."""
    store, lg = league_store(url)
    try:
        before = kept(store)
        lg.keep_all()
        assert kept(store) == before
    finally:
        store.close()


@pytest.mark.parametrize("game", ["tictacbow", "try-tac-toe"])
def test_the_clubs_names_are_the_leagues(game, pg_url, tmp_path, capsys):
    """A match club A named on its PC is filed in the league under those names at its first
    push, and under its new ones when the club names it again (TTB-2's rotation, TTT-6's two
    games: name_match's rows), the archers' totals moved; club B cannot rename it."""
    a, b = clubs(tmp_path)
    mine = [m for m in rows(a) if m["game"] == game][0]
    s = open_store(a)
    try:
        mid = next(m["id"] for m in s.matches() if (m["device"], m["number"]) == (mine["device"], mine["number"]))
        count = len(mine["names"][0] + mine["names"][1])
        first = ["Gustav", "Hedda", "Ivo", "Jill"][:count]
        s.name_match(mid, first)
    finally:
        s.close()
    token_a, token_b = add_club(capsys, pg_url, "Archers of A"), add_club(capsys, pg_url, "Bowmen of B")
    assert cli.main(["league", "add-season", "All", "2000-01-01", "2099-12-31", "--db", pg_url]) == 0
    key = mine["device"], mine["number"]
    with running(pg_url) as address:
        assert send(a, address, token_a) == (5, 0)
        assert named(pg_url, *key) == first
        assert archers(pg_url) == their_archers(a, "Archers of A")
        check_kept(pg_url)
        s = open_store(a)
        try:
            s.name_match(mid, ["Kai", "Lena", "Mo", "Nell"][:count])
        finally:
            s.close()
        assert send(a, address, token_a) == (0, 5)  # sent again, held: not stored twice
        assert named(pg_url, *key) == ["Kai", "Lena", "Mo", "Nell"][:count]
        assert archers(pg_url) == their_archers(a, "Archers of A")
        assert ("Archers of A", "Gustav") not in archers(pg_url)
        assert log(pg_url)[-1][4] == "stored 0, held already 1, filed anew 1"
        check_kept(pg_url)
        pushes = len(log(pg_url))
        assert send(a, address, token_a) == (0, 5)  # nothing sent: the league holds it so named
        assert len(log(pg_url)) == pushes
        # another club cannot name club A's match
        theirs = copy.deepcopy(next(m for m in rows(a) if (m["device"], m["number"]) == key))
        theirs["names"] = [["%s%d" % (who, i) for i in range(len(side))] for who, side in zip("OP", theirs["names"])]
        client = server.create_app(pg_url).test_client()
        got = client.post(
            "/league/api/push",
            json={"push_id": "byb00000001", "matches": [theirs]},
            headers={"Authorization": "Bearer " + token_b},
        )
        assert got.status_code == 403
    assert named(pg_url, *key) == ["Kai", "Lena", "Mo", "Nell"][:count]


def forged(base, n, header, names):
    m = copy.deepcopy(base)
    m["device"], m["number"] = B_BOX, n
    m["header"]["archers"], m["names"] = header, names
    return m


@pytest.mark.parametrize(
    "header, names",
    [
        ([["Zed"], ["Zed"]], None),  # on both sides, as the box keyed it
        ([["Yan", "Yan"], ["Xia"]], None),  # twice on one side
        ([["Yan", "Wu"], ["Xia"]], [["Yan", "yan"], ["Xia"]]),  # twice in the club's names (any case)
        ([["Zed"], ["Ute"]], [["Zed"], ["zed"]]),
    ],
)
def test_an_archer_named_twice_in_a_match_is_refused(header, names, pg_url, tmp_path, capsys):
    _, b = clubs(tmp_path)
    token = add_club(capsys, pg_url, "Bowmen of B")
    base = rows(b)
    client = server.create_app(pg_url).test_client()
    bad = forged(base[0], 7, header, names)
    got = client.post(
        "/league/api/push",
        data=json.dumps({"push_id": "dup00000001", "matches": [base[1], bad]}),
        headers={"Authorization": "Bearer " + token},
        content_type="application/json",
    )
    assert got.status_code == 422
    assert got.json["error"].startswith("%s/7: " % B_BOX)
    assert "is named twice in the match: an archer shoots once, for one side; nothing stored" in got.json["error"]
    assert league_count(pg_url) == 0 and archers(pg_url) == {}
    assert log(pg_url)[-1][3:] == (422, got.json["error"])


def test_names_that_are_not_the_matchs_archers_are_refused(pg_url, tmp_path, capsys):
    _, b = clubs(tmp_path)
    token = add_club(capsys, pg_url, "Bowmen of B")
    base = rows(b)[0]
    bad = copy.deepcopy(base)
    bad["names"] = [bad["names"][0] + ["Extra"], bad["names"][1]]
    got = (
        server.create_app(pg_url)
        .test_client()
        .post(
            "/league/api/push",
            json={"push_id": "names0000001", "matches": [bad]},
            headers={"Authorization": "Bearer " + token},
        )
    )
    assert got.status_code == 400
    assert got.json["error"] == "%s/%d: its names are not its archers, side by side; nothing stored" % (
        B_BOX,
        base["number"],
    )
    assert league_count(pg_url) == 0
