"""The league's rules for guest clubs (docs/league.md "Archers across clubs"):
the match page names each side's club and the pages say the rule of two clubs; a forged
club name is refused (400) and never logged whole; a match refiled under another time zone
moves its clubs' counts by the day they were added; a guest leaves no league archer under
the host club; an unnamed side (A, B, X, O) takes no club by an import either; a match of
two guests (neither side the pushing club's) is refused; a push to a league that files no
clubs warns. On a real PostgreSQL (pgserver.py) with the stores of test_league_guest_clubs.py
(club A's guests: Ben in Tic Tac BOW's hand matches 1 and 3, Bo in Try-Tac-Toe's 4 and 5)."""

import json
import re

import pytest
from leagueclubs import clubs, league_count, rows, running
from test_league_archer_pages import page
from test_league_guest_clubs import A, B, C, check_kept, expected, league_now, set_club, three  # noqa: F401
from test_league_push_whole_and_named import log, send

from scorebox import cli
from scorebox.commands import push
from scorebox.league.clubs import league_store
from scorebox.league.server import create_app
from scorebox.store import imports
from scorebox.store.access import open_store

pytest_plugins = ("pgserver",)
GUESTS = [("Ben", "tictacbow"), ("Bo", "try-tac-toe")]


def post(client, token, matches, push_id):
    return client.post(
        "/league/api/push",
        data=json.dumps({"push_id": push_id, "matches": matches}),
        headers={"Authorization": "Bearer " + token},
        content_type="application/json",
    )


@pytest.mark.parametrize("guest, game", GUESTS)
def test_the_match_page_names_each_sides_club(guest, game, three, capsys):  # noqa: F811
    """A match of two clubs names each side's club (the guest's side B's on club A's box);
    the standings', a club's and the report's rule say a match counts for its sides' clubs."""
    url, a, _, tokens = three
    set_club(a, guest, B, capsys)
    with running(url) as address:
        send(a, address, tokens[A])
    client = create_app(url).test_client()
    store, lg = league_store(url)
    try:
        listed = [r for r in lg.club_matches(lg.clubs()[0]["id"]) if r["game"] == game]
    finally:
        store.close()
    first, other = ("A", "B") if game == "tictacbow" else ("X", "O")
    for m in listed:
        html = page(client, "/league/matches/%d" % m["id"])
        said = re.sub(r"<[^>]+>", "", re.search(r'<p id="clubs">(.*?)</p>', html, re.S).group(1))
        sides = re.findall(r"side (\w): ([^;]+)", said)
        assert [s for s, _ in sides] == [first, other], said
        want = [B if guest in m[k].split(",") else A for k in ("side_a", "side_b")]
        assert [c.strip() for _, c in sides] == want, said
    for path in ("/league/", "/league/report", "/league/clubs/1"):
        html = page(client, path)
        assert "its side in a match on its boxes is the first" not in html
        assert "A club's matches are those shot on its boxes" not in html
        assert "counts for the clubs of its two sides" in html, path


def test_a_forged_club_name_is_refused_and_logged_short(three, capsys):  # noqa: F811
    """A club name longer than a league club's (60), or not a line of text, is refused (400)
    with nothing stored; a refusal's line shows a club name cut short (imports.short), so
    the push log never keeps a forged one whole."""
    url, a, _, tokens = three
    client = create_app(url).test_client()
    base = rows(a)
    for i, bad in enumerate(["Q" * 3_000_000, "Q" * 61, "Bowmen\nof B", "Bowmen\x1bof B"]):
        ms = [dict(m) for m in base]
        ms[0]["clubs"] = [[bad] * len(ms[0]["names"][0]), [None] * len(ms[0]["names"][1])]
        got = post(client, tokens[A], ms, "forged%06d" % i)
        assert got.status_code == 400, got.json
        assert "a club's name is a line of text of at most 60 characters" in got.json["error"]
        assert imports.short(bad) in got.json["error"]
        assert league_count(url) == 0
    ms = [dict(m) for m in base]
    unknown = "L" * 60  # a name a league club could have, but no club of this league
    ms[0]["clubs"] = [[unknown] * len(ms[0]["names"][0]), [None] * len(ms[0]["names"][1])]
    got = post(client, tokens[A], ms, "forged999999")
    assert got.status_code == 422 and imports.short(unknown) in got.json["error"]
    assert unknown not in got.json["error"]
    assert max(len(p[4]) for p in log(url)) < 300
    assert league_count(url) == 0


def test_a_refiling_under_another_time_zone_moves_the_counts_of_their_day(three, capsys, monkeypatch):  # noqa: F811
    """Pushed with the server's time zone UTC, Ben's club changed and pushed again with the
    server's zone 14 hours east (his matches' days there are the next): the clubs' counts
    are taken back from the days they were added to, and what is kept is what keep_all
    makes again in the zone they were added in."""
    url, a, b, tokens = three
    monkeypatch.setenv("TZ", "UTC")
    set_club(a, "Ben", B, capsys)
    with running(url) as address:
        send(a, address, tokens[A])
        send(b, address, tokens[B])
    monkeypatch.setenv("TZ", "Pacific/Kiritimati")
    set_club(a, "Ben", C, capsys)
    with running(url) as address:
        assert send(a, address, tokens[A]) == (0, 5)
    monkeypatch.setenv("TZ", "UTC")
    store, _ = league_store(url)
    try:
        days = store.db.execute(
            "SELECT club_id, day, sum(matches) FROM league_club_days GROUP BY 1, 2 HAVING sum(matches) <> 0"
        ).fetchall()
    finally:
        store.close()
    assert all(n > 0 for _, _, n in days), days  # no day taken back that was not added to
    assert league_now(url) == expected({A: a, B: b})
    check_kept(url)


def _archers(url):
    store, lg = league_store(url)
    try:
        return [(r["club"], r["name"], r["id"]) for r in lg.archers()]
    finally:
        store.close()


@pytest.mark.parametrize("guest, game", GUESTS)
def test_a_guest_leaves_no_league_archer_behind(guest, game, three, capsys):  # noqa: F811
    """A guest's first push files them under their club only (no league archer of the host
    club's with no match: its page is not found); moved to another club, the archer of
    the old club who has no match left goes too."""
    url, a, _, tokens = three

    def ghosts():
        store, _ = league_store(url)
        try:
            return store.db.execute(
                "SELECT c.name, s.name, la.id FROM league_archers la JOIN league_clubs c ON c.id = la.club_id "
                "JOIN archers s ON s.id = la.archer_id WHERE NOT EXISTS "
                "(SELECT 1 FROM league_match_sides x WHERE x.archer_id = la.id)"
            ).fetchall()
        finally:
            store.close()

    set_club(a, guest, B, capsys)
    with running(url) as address:
        send(a, address, tokens[A])
        assert ghosts() == []
        was = {(c, n): i for c, n, i in _archers(url)}[B, guest]
        set_club(a, guest, C, capsys)
        send(a, address, tokens[A])
        assert ghosts() == []
        assert {(c, n) for c, n in league_now(url)[1] if n == guest} == {(C, guest)}
    assert league_now(url) == expected({A: a})
    check_kept(url)
    client = create_app(url).test_client()
    assert client.get("/league/archers/%d" % was).status_code == 404  # B's guest no more


def test_an_import_gives_no_club_to_an_unnamed_side(tmp_path, capsys):
    """An export whose roster gives an unnamed side (A, B, X, O) a club, as `scorebox
    archers club` refuses to: the entry is refused in the import's summary, no club kept."""
    with pytest.raises(imports.Invalid, match="'B' is what the box calls an unnamed side"):
        imports.check_archer({"name": "B", "retired": 0, "added": None, "was": [], "club": B})
    assert imports.check_archer({"name": "B", "retired": 0, "added": None, "was": []})[5] is None
    a, _ = clubs(tmp_path)
    set_club(a, "Ben", B, capsys)
    out = tmp_path / "out"
    assert cli.main(["export", "--db", a, "--format", "json", "--out", str(out)]) == 0
    path = out / "matches.json"
    data = json.loads(path.read_text())
    data["archers"].append({"name": "B", "retired": 0, "added": None, "was": [], "club": C})
    path.write_text(json.dumps(data))
    capsys.readouterr()
    fresh = str(tmp_path / "fresh.sqlite")
    cli.main(["import", str(path), "--db", fresh])
    said = capsys.readouterr()
    assert "'B' is what the box calls an unnamed side" in said.out + said.err
    s = open_store(fresh)
    try:
        assert s.guest_clubs() == {"ben": B}
    finally:
        s.close()


@pytest.mark.parametrize("game", ["tictacbow", "try-tac-toe"])
def test_a_match_of_two_guests_is_refused(game, three, capsys):  # noqa: F811
    """A match on club A's box whose sides are both guests (of B and C, or both of C)
    counts for no side of club A's: the push is refused (422), nothing stored, logged."""
    url, a, _, tokens = three
    guests = {"Ann": C, "Cy": C, "Ben" if game == "tictacbow" else "Bo": B}
    for name, club in guests.items():
        set_club(a, name, club, capsys)
    with running(url) as address:
        with pytest.raises(push.ScoreboxError) as refused:
            send(a, address, tokens[A])
        assert league_count(url) == 0 and league_now(url) == ({}, {})
        said = str(refused.value)
        assert said.startswith("the league refused (422): ") and said.endswith("; nothing stored")
        assert "neither side is of %s" % A in said
        assert log(url)[-1][:4] == (A, 5, 0, 422)
        set_club(a, "Bo" if game == "try-tac-toe" else "Ben", C, capsys)  # C v C: the same
        with pytest.raises(push.ScoreboxError, match="neither side is of"):
            send(a, address, tokens[A])
        assert league_count(url) == 0
    store, lg = league_store(url)
    try:
        assert store.db.execute("SELECT count(*) FROM league_match_clubs").fetchone()[0] == 0
    finally:
        store.close()
