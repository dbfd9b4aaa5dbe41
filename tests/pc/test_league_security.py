"""Hostile pushes to the league's server (issue 26, item 6), on a real PostgreSQL
(pgserver.py) through the league's Flask app: a wrong or another club's token, a replayed
push, a forged match (the rules refuse it; it names another club's box; it changes a match
held), an oversized or malformed body. Each is refused with one clear line, nothing of it
is stored, and it is logged. Both games' matches are forged."""

import copy
import json

import pytest
from leagueclubs import add_club, clubs, league_count, rows

from scorebox.league import server
from scorebox.league.db import LeagueDB
from scorebox.store.access import open_store

pytest_plugins = ("pgserver",)


@pytest.fixture
def league(pg_url, tmp_path, capsys):
    """A league where club A has pushed its Tic Tac BOW matches (box `hand`)."""
    a, b = clubs(tmp_path)
    lg = Setup(pg_url, add_club(capsys, pg_url, "A"), add_club(capsys, pg_url, "B"), rows(a), rows(b))
    got = lg.push(lg.token_a, [m for m in lg.a if m["game"] == "tictacbow"], "first0001")
    assert got.status_code == 200 and got.json == {"stored": 3, "held": 0}
    return lg


class Setup:
    def __init__(self, url, token_a, token_b, a, b):
        self.url, self.token_a, self.token_b, self.a, self.b = url, token_a, token_b, a, b
        self.client = server.create_app(url).test_client()

    def push(self, token, matches, push_id="push00000001", **kw):
        body = kw.pop("data", None) or json.dumps({"push_id": push_id, "matches": matches})
        headers = {"Authorization": "Bearer " + token} if token else {}
        return self.client.post("/league/api/push", data=body, headers=headers, content_type="application/json")

    def log(self):
        s = open_store(self.url)
        try:
            return [(p["club"], p["status"], p["outcome"]) for p in LeagueDB(s).pushes()]
        finally:
            s.close()


def refused(lg, got, status, line):
    assert got.status_code == status
    assert got.json == {"error": line}
    assert league_count(lg.url) == 3  # only club A's first push
    assert lg.log()[-1][1:] == (status, line)


def test_a_wrong_token_is_refused(league):
    line = "not a club's token: check the token the league gave your club; nothing stored"
    ttt = [m for m in league.a if m["game"] == "try-tac-toe"]
    wrong = league.token_a[:-4] + "AAAA"  # the right club's id, another secret
    for token in (wrong, "", "sbl1.nothing.here", "Basic YWRtaW46YWRtaW4="):
        refused(league, league.push(token, ttt, "try%08d" % len(token)), 401, line)
    assert league.log()[-1][0] is None  # logged as no club's


def test_another_clubs_token_cannot_push_its_box(league):
    # club B sends its own matches with one of club A's box among them: none is stored
    forged = league.b + [copy.deepcopy(m) for m in league.a if m["device"] == "hand"][:1]
    forged[-1]["number"] = 99
    got = league.push(league.token_b, forged)
    refused(
        league, got, 403, "box hand belongs to another club: a club pushes only its own boxes' matches; nothing stored"
    )
    assert league.log()[-1][0] == "B"
    # nor change one of A's matches held
    held = [m for m in league.a if m["device"] == "hand"][:1]
    refused(league, league.push(league.token_b, held, "push00000002"), 403, got.json["error"])


def test_a_replayed_push_is_refused(league):
    again = league.push(league.token_a, [m for m in league.a if m["game"] == "tictacbow"], "first0001")
    refused(league, again, 409, "push first0001 was received already: a replayed push is refused; nothing stored")
    # the same matches in a new push: held, none stored twice
    got = league.push(league.token_a, [m for m in league.a if m["game"] == "tictacbow"], "second001")
    assert got.json == {"stored": 0, "held": 3} and league_count(league.url) == 3


@pytest.mark.parametrize("game", ["tictacbow", "try-tac-toe"])
def test_a_match_the_rules_refuse_is_refused_with_the_rest(league, game):
    ttt = [m for m in league.a if m["game"] == "try-tac-toe"]
    forged = copy.deepcopy([m for m in league.a if m["game"] == game][0])
    forged["number"] = 500
    forged["log"] = forged["log"] + forged["log"]  # the match played on past its end
    got = league.push(league.token_a, ttt + [forged])
    assert got.status_code == 422 and got.json["error"].startswith(
        "%s/500: the rules refuse this match: " % forged["device"]
    )
    assert got.json["error"].endswith("; nothing stored")
    assert league_count(league.url) == 3  # not the good Try-Tac-Toe matches beside it either


def test_a_match_held_is_never_changed(league):
    changed = copy.deepcopy([m for m in league.a if m["device"] == "hand"][0])
    changed["header"]["archers"] = [["Mallory"], changed["header"]["archers"][1]]
    got = league.push(league.token_a, [changed])
    line = "hand/%d is held with other events: a stored match is never changed; nothing stored" % changed["number"]
    refused(league, got, 409, line)


def test_an_oversized_body_is_refused(league):
    big = json.dumps({"push_id": "big000001", "matches": [], "pad": "x" * (server.MAX_BODY + 1)})
    got = league.push(league.token_a, None, data=big)
    line = "a push is at most %d bytes: send fewer matches at a time; nothing stored" % server.MAX_BODY
    refused(league, got, 413, line)
    many = [league.b[0]] * (server.MAX_BATCH + 1)
    got = league.push(league.token_b, many)
    refused(league, got, 413, "a push is at most %d matches: send fewer at a time; nothing stored" % server.MAX_BATCH)


def test_a_malformed_body_is_refused(league):
    not_json = "not a push: JSON with a list of matches expected; nothing stored"
    refused(league, league.push(league.token_b, None, data="{'matches': ["), 400, not_json)
    refused(league, league.push(league.token_b, None, data='{"matches": 3}'), 400, not_json)
    no_id = json.dumps({"matches": league.b})
    refused(
        league,
        league.push(league.token_b, None, data=no_id),
        400,
        "a push has a push_id of 8 to 64 letters and digits; nothing stored",
    )
    bad = copy.deepcopy(league.b)
    bad[2]["log"] = bad[2]["log"][:3] + ["x"]
    got = league.push(league.token_b, bad)
    assert got.status_code == 400 and got.json["error"].startswith(
        "%s/3: an event is not a whole number" % bad[2]["device"]
    )
    assert league_count(league.url) == 3


def test_a_league_whose_store_is_down_says_so(pg_server, tmp_path, capsys, monkeypatch):
    gone = pg_server.url % "no_such_league"
    client = server.create_app(gone).test_client()
    got = client.post("/league/api/push", json={"push_id": "push00000001", "matches": []})
    assert got.status_code == 503
    assert got.json["error"].startswith("the league cannot take a push now (cannot reach the PostgreSQL store")
    assert got.json["error"].endswith("push again later")
