"""A club's events through `scorebox event` on a real store (docs/events.md): drawn and kept,
settled by stored matches, the standings by the rule the page states, a knockout's next round
drawn as results come in (a drawn match shot again), an archer withdrawn, a pairing moved, and
every change kept in the event's log with what it was before."""

import pytest

from scorebox import cli
from scorebox.events import rounds
from scorebox.store.access import open_store
from scorebox_core.games.ttb.script import read_lines

pytest_plugins = ("pgserver",)  # store_at: a file of SQLite's, then a PostgreSQL database

DEVICE = "e6614c311b7d2a2f"
AGREED = ("--option", "claim=3", "--option", "rounds=1")  # as script() shoots its matches
ARCHERS = ["Ann", "Bob", "Cid", "Dan", "Eve"]


def run(capsys, *argv):
    code = cli.main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def script(a, b, winner):
    """A Tic Tac BOW match of a v b (docs/match-script.md) that winner ("A", "B" or "draw") takes:
    1 5 9 claimed in one turn (a claim is 3 here); a draw at the one round agreed (TTB-13)."""
    row, miss = "1:3 5:3 9:3", "2:1 M M"
    turns = {"A": (row, miss), "B": (miss, row), "draw": ("5:1 M M", "6:1 M M")}[winner]
    return "%s\narchers: A=%s B=%s\nA: %s\nB: %s\n" % ("options: rounds=1 claim=3", a, b, *turns)


def keep_match(db, number, a, b, winner):
    """Store a match as a sync would; its store id."""
    m = read_lines(script(a, b, winner).strip().splitlines())
    header = {"options": m.opts.to_dict(), "archers": [list(m.archers[0]), list(m.archers[1])], "clock": 1.8e9 + number}
    with open_store(db, create=True) as s:
        assert s.add_matches(DEVICE, [(number, header, list(m.log), {})]) == [True]
        return s.load_match("%s/%d" % (DEVICE, number))["id"]


def pairings(db, eid):
    with open_store(db) as s:
        return s.event_pairings(eid)


def names(db, eid):
    with open_store(db) as s:
        return {e.id: e.name for e in rounds.entrants(s, eid)}


def settle(db, capsys, eid, p, who, number):
    """Key and attach the match of pairing p that entrant name who wins (None: a draw)."""
    n = names(db, eid)
    a, b = n[p["entrant_a"]], n[p["entrant_b"]]
    winner = "draw" if who is None else "A" if who == a else "B"
    mid = keep_match(db, number, a, b, winner)
    code, out, err = run(capsys, "event", "attach", str(eid), rounds.label(p).split()[0], str(mid), "--db", db)
    assert code == 0, err
    return mid


def test_a_round_robin_is_drawn_kept_and_settled_into_standings(store_at, capsys):
    db = store_at
    code, out, err = run(
        capsys, "event", "new", "Friday night", "--game", "tictacbow", *AGREED, "--format", "round-robin",
        "--archers", ",".join(ARCHERS), "--targets", "2", "--day", "2026-12-11", "--db", db,
    )  # fmt: skip
    assert code == 0, err
    assert out.startswith("Friday night (event 1): Tic Tac BOW, round robin, 5 archers, 2 targets, 2026-12-11")
    assert "round 1:" in out and "a bye" in out and "round 2:" not in out
    ps = pairings(db, 1)
    matches = [p for p in ps if p["entrant_b"] is not None]
    assert len(matches) == 10 and len(ps) == 15  # everyone meets everyone once; a bye a round
    n = names(db, 1)
    met = {frozenset((n[p["entrant_a"]], n[p["entrant_b"]])) for p in matches}
    assert len(met) == 10
    # Ann wins all, Bob all but Ann's, ...: the standings follow the seeds; one draw, Dan v Eve
    order = {name: i for i, name in enumerate(ARCHERS)}
    for number, p in enumerate(matches, 1):
        a, b = n[p["entrant_a"]], n[p["entrant_b"]]
        who = None if {a, b} == {"Dan", "Eve"} else min(a, b, key=order.get)
        settle(db, capsys, 1, p, who, number)
    code, out, _ = run(capsys, "event", "show", "1", "--db", db)
    assert code == 0
    assert "standings (wins (a draw counts half), then the results between those level" in out
    table = out.split("standings")[1].splitlines()[2:7]
    assert [line.split()[1] for line in table] == ARCHERS
    assert table[0].split()[2:6] == ["4", "4", "0", "0"]  # P W D L (the bye is not a match played)
    assert "3." in table[2] and "4." in table[3] and "4." in table[4]  # Dan and Eve level: one place
    assert "Ann wins, 9-1 (match" in out and "a draw, 1-1" in out
    assert "changes:" in out and "attached by hand" in out
    with open_store(db) as s:
        assert s.events()[0][-2:] == (15, 10)  # pairings, settled


def test_a_match_of_other_archers_or_another_game_is_refused_in_one_line(store_at, capsys):
    db = store_at
    assert run(capsys, "event", "new", "Cup", "--game", "tictacbow", *AGREED, "--format", "knockout",
               "--archers", "Ann,Bob", "--targets", "1", "--db", db)[0] == 0  # fmt: skip
    mid = keep_match(db, 1, "Ann", "Cid", "A")
    code, out, err = run(capsys, "event", "attach", "1", "1.1", str(mid), "--db", db)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "was shot by Ann v Cid, not Ann v Bob" in err
    code, _, err = run(capsys, "event", "attach", "1", "3.1", str(mid), "--db", db)
    assert code == 2 and "has no pairing 3.1" in err
    assert pairings(db, 1)[0]["match_id"] is None  # nothing changed
    mid = keep_match(db, 2, "Bob", "Ann", "A")  # the sides the other way round count for the right archer
    assert run(capsys, "event", "attach", "1", "1.1", str(mid), "--db", db)[0] == 0
    code, _, err = run(capsys, "event", "attach", "1", "1.1", str(mid), "--db", db)
    assert code == 2 and "settled already" in err
    out = run(capsys, "event", "show", "1", "--db", db)[1]
    assert "Bob wins" in out and "won by Bob" in out


def test_a_knockout_draws_each_round_as_results_come_in_and_a_drawn_match_again(tmp_path, capsys):
    db = str(tmp_path / "club.sqlite")
    eight = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal"]
    assert run(capsys, "event", "new", "Cup", "--game", "tictacbow", *AGREED, "--format", "knockout",
               "--archers", ",".join(eight), "--targets", "4", "--db", db)[0] == 0  # fmt: skip
    first = pairings(db, 1)
    assert [p["round"] for p in first] == [1] * 4 and {p["target"] for p in first} == {1, 2, 3, 4}
    n = names(db, 1)
    assert {n[first[0]["entrant_a"]], n[first[0]["entrant_b"]]} == {"Ann", "Hal"}  # 1 v 8
    seed = {name: i for i, name in enumerate(eight)}
    better = {p["number"]: min(n[p["entrant_a"]], n[p["entrant_b"]], key=seed.get) for p in first}
    settle(db, capsys, 1, first[0], better[1], 1)
    assert [p["round"] for p in pairings(db, 1)].count(2) == 0  # its partner in the next round is not known yet
    settle(db, capsys, 1, first[1], better[2], 2)
    second = [p for p in pairings(db, 1) if p["round"] == 2]
    assert len(second) == 1 and {n[second[0]["entrant_a"]], n[second[0]["entrant_b"]]} == {better[1], better[2]}
    settle(db, capsys, 1, second[0], None, 3)  # a draw: Tic Tac BOW's further game
    again = [p for p in pairings(db, 1) if p["round"] == 2 and p["leg"] == 2]
    assert len(again) == 1 and again[0]["target"] == second[0]["target"]
    out = run(capsys, "event", "show", "1", "--db", db)[1]
    assert "2.1 (again)" in out and "a draw" in out
    settle(db, capsys, 1, again[0], better[1], 4)
    for number, p in enumerate(first[2:], 5):
        settle(db, capsys, 1, p, min(n[p["entrant_a"]], n[p["entrant_b"]], key=seed.get), number)
    semi = [p for p in pairings(db, 1) if p["round"] == 2 and p["number"] == 2]
    settle(db, capsys, 1, semi[0], min(n[semi[0]["entrant_a"]], n[semi[0]["entrant_b"]], key=seed.get), 7)
    final = [p for p in pairings(db, 1) if p["round"] == 3]
    assert len(final) == 1 and {n[final[0]["entrant_a"]], n[final[0]["entrant_b"]]} == {"Ann", "Bob"}
    settle(db, capsys, 1, final[0], "Bob", 8)
    out = run(capsys, "event", "show", "1", "--db", db)[1]
    assert "won by Bob" in out and "round 4" not in out


def test_a_withdrawn_archer_leaves_byes_and_the_log_says_what_was_before(tmp_path, capsys):
    db = str(tmp_path / "club.sqlite")
    assert run(capsys, "event", "new", "League night", "--game", "tictacbow", *AGREED, "--format", "round-robin",
               "--archers", "Ann,Bob,Cid,Dan", "--targets", "2", "--db", db)[0] == 0  # fmt: skip
    ps = pairings(db, 1)
    n = names(db, 1)
    bob_first = next(p for p in ps if "Bob" in (n[p["entrant_a"]], n[p["entrant_b"]]))
    settle(db, capsys, 1, bob_first, "Bob", 1)
    code, out, _ = run(capsys, "event", "withdraw", "1", "bob", "--db", db)
    assert code == 0 and "Bob is withdrawn from event 1" in out
    after = pairings(db, 1)
    bob_id = next(i for i, name in n.items() if name == "Bob")
    left = [p for p in after if bob_id in (p["entrant_a"], p["entrant_b"])]
    assert [p["id"] for p in left] == [bob_first["id"]]  # his shot match stays; the rest are byes
    assert sum(1 for p in after if p["entrant_b"] is None) == 2
    out = run(capsys, "event", "show", "1", "--db", db)[1]
    assert "withdrawn: Bob" in out and "Bob withdrawn (before: in the event)" in out
    assert out.count("(before: ") == 1 + 2 + 1  # the attach, two byes, the withdrawal
    assert "a bye for" in out.split("changes:")[1]
    code, _, err = run(capsys, "event", "withdraw", "1", "Bob", "--db", db)
    assert code == 2 and "withdrew already" in err


def test_a_pairing_not_yet_shot_moves_target_and_a_shot_one_does_not(tmp_path, capsys):
    db = str(tmp_path / "club.sqlite")
    assert run(capsys, "event", "new", "Cup", "--game", "tictacbow", *AGREED, "--format", "knockout",
               "--archers", "Ann,Bob,Cid,Dan", "--targets", "2", "--db", db)[0] == 0  # fmt: skip
    code, out, _ = run(capsys, "event", "seat", "1", "1.2", "1", "--db", db)
    assert code == 0 and "moves to target 1" in out
    assert [p["target"] for p in pairings(db, 1)] == [1, 1]
    code, _, err = run(capsys, "event", "seat", "1", "1.2", "3", "--db", db)
    assert code == 2 and "targets 1-2" in err
    settle(db, capsys, 1, pairings(db, 1)[0], "Ann", 1)
    code, _, err = run(capsys, "event", "seat", "1", "1.1", "2", "--db", db)
    assert code == 2 and "is shot already" in err
    assert "moved to target 1 (before: target 2)" in run(capsys, "event", "show", "1", "--db", db)[1]


def test_a_swiss_round_is_drawn_when_the_last_one_is_shot(tmp_path, capsys):
    db = str(tmp_path / "club.sqlite")
    six = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay"]
    assert run(capsys, "event", "new", "Open night", "--game", "tictacbow", *AGREED, "--format", "swiss",
               "--archers", ",".join(six), "--targets", "3", "--db", db)[0] == 0  # fmt: skip
    first = pairings(db, 1)
    assert len(first) == 3 and {p["round"] for p in first} == {1}
    n = names(db, 1)
    for number, p in enumerate(first, 1):
        settle(db, capsys, 1, p, n[p["entrant_a"]], number)
        assert {q["round"] for q in pairings(db, 1)} == ({1, 2} if number == 3 else {1})
    second = [p for p in pairings(db, 1) if p["round"] == 2]
    met = {frozenset((p["entrant_a"], p["entrant_b"])) for p in first}
    assert not met & {frozenset((p["entrant_a"], p["entrant_b"])) for p in second}
    winners = {p["entrant_a"] for p in first}
    assert {p["entrant_a"] for p in second[:1]} | {p["entrant_b"] for p in second[:1]} <= winners  # 1-0 v 1-0


def test_teams_of_two_play_try_tac_toe_and_are_listed(tmp_path, capsys):
    db = str(tmp_path / "club.sqlite")
    code, out, _ = run(capsys, "event", "new", "Pairs", "--game", "try-tac-toe", "--format", "teams",
                       "--archers", "Ann,Bob,Cid,Dan", "--targets", "1", "--db", db)  # fmt: skip
    assert code == 0 and "teams of two, round robin, 2 teams" in out and "Ann & Dan v Bob & Cid" in out
    card = tmp_path / "card.txt"
    card.write_text("options: game=try-tac-toe\nX: 37\nO: 12\nX: 38\n")  # a team's card: the pairing's four
    code, out, err = run(capsys, "event", "paper", "1", "1.1", str(card), "--db", db)
    assert code == 2 and "the match on the card is not finished" in err
    card.write_text("options: game=try-tac-toe\nX: 37\nO: 12\nX: 38\nend\nmatch 2\nO: 5\nend\n")
    code, out, err = run(capsys, "event", "paper", "1", "1.1", str(card), "--db", db)
    assert code == 0 and "from a paper card: " in out, err
    with open_store(db) as s:
        m = s.load_match("paper/1")
        assert m["names"] == [["Ann", "Dan"], ["Bob", "Cid"]]
    shown = run(capsys, "event", "show", "1", "--db", db)[1]  # the points: the game's own score (TTT-6)
    assert "%d-%d (match 1, from paper)" % tuple(m["score"]) in shown
    code, out, _ = run(capsys, "event", "list", "--db", db)
    assert code == 0 and "Pairs" in out and "1 of 1" in out and "1 event" in out


@pytest.mark.parametrize(
    "args, said",
    [
        (["--game", "chess"], "no game 'chess'"),
        (["--archers", "Ann"], "at least two archers"),
        (["--archers", "Ann,ann"], "ann is in the list twice"),
        (["--option", "claim=200"], "option claim: claim_a must be 1-99"),
        (["--option", "games"], "give it as NAME=VALUE"),
        (["--day", "Friday"], "day 'Friday': give it as YYYY-MM-DD"),
        (
            ["--format", "teams", "--archers", "Ann,Bob,Cid,Dan,Eve"],
            "teams of two need an even number of archers, not 5",
        ),
        (["--targets", "0"], "targets must be 1-99"),
    ],
)
def test_a_bad_event_is_one_line_and_keeps_nothing(tmp_path, capsys, args, said):
    db = str(tmp_path / "club.sqlite")
    given = {"--game": "tictacbow", "--format": "round-robin", "--archers": "Ann,Bob,Cid", "--targets": "2"}
    given.update(zip(args[::2], args[1::2]))
    code, out, err = run(capsys, "event", "new", "Night", *[x for kv in given.items() for x in kv], "--db", db)
    assert code == 2 and said in err and len(err.strip().splitlines()) == 1, err
    with open_store(db, create=True) as s:
        assert s.events() == []


def test_an_event_that_is_not_there_is_one_line(tmp_path, capsys):
    db = str(tmp_path / "club.sqlite")
    run(capsys, "archers", "add", "Ann", "--db", db)
    code, out, err = run(capsys, "event", "show", "7", "--db", db)
    assert code == 2 and out == "" and "no event 7" in err and len(err.strip().splitlines()) == 1


def test_a_knockout_opponent_of_a_withdrawn_archer_goes_through(tmp_path, capsys):
    db = str(tmp_path / "club.sqlite")
    assert run(capsys, "event", "new", "Cup", "--game", "tictacbow", *AGREED, "--format", "knockout",
               "--archers", "Ann,Bob,Cid,Dan", "--targets", "2", "--db", db)[0] == 0  # fmt: skip
    assert run(capsys, "event", "withdraw", "1", "Dan", "--db", db)[0] == 0  # Ann's opponent (1 v 4)
    first = pairings(db, 1)
    n = names(db, 1)
    assert first[0]["entrant_b"] is None and n[first[0]["entrant_a"]] == "Ann" and first[0]["target"] is None
    settle(db, capsys, 1, first[1], "Cid", 1)
    final = [p for p in pairings(db, 1) if p["round"] == 2]
    assert len(final) == 1 and (n[final[0]["entrant_a"]], n[final[0]["entrant_b"]]) == ("Ann", "Cid")


def test_a_paper_card_settles_its_pairing_through_the_rules_and_says_so(tmp_path, capsys):
    """A box went flat: the card's arrows keyed as a match script, replayed with the event's
    options (claim 3 here: the card need not say it), stored under the paper cards' box."""
    db = str(tmp_path / "club.sqlite")
    assert run(capsys, "event", "new", "Cup", "--game", "tictacbow", *AGREED, "--format", "knockout",
               "--option", "claim=3", "--option", "rounds=1",
               "--archers", "Ann,Bob,Cid,Dan", "--targets", "2", "--db", db)[0] == 0  # fmt: skip
    card = tmp_path / "card.txt"
    card.write_text("A: 2:1 M M\nB: 1:3 5:3 9:3\n")  # no archers named: the pairing's (Ann v Dan)
    code, out, err = run(capsys, "event", "paper", "1", "1.1", str(card), "--db", db)
    assert code == 0, err
    assert "pairing 1.1 is settled by match 1 from a paper card: Dan wins" in out
    out = run(capsys, "event", "show", "1", "--db", db)[1]
    assert "Ann v Dan" in out and "Dan wins, 1-9 (match 1, from paper)" in out
    assert "from a paper card (before: not settled)" in out
    assert "Paper cards" in run(capsys, "boxes", "list", "--db", db)[1]
    # a card of other archers, other options or a broken rule: one line, nothing kept
    for text, said in [
        ("archers: A=Ann B=Eve\nA: 1:3\n", "names Ann v Eve, not the pairing's Cid v Bob"),
        ("options: claim=5\nA: 1:3\n", "its options are not the event's"),
        ("A: 1:4\n", "card.txt:1: bad value in '1:4'"),
    ]:
        card.write_text(text)
        code, out, err = run(capsys, "event", "paper", "1", "1.2", str(card), "--db", db)
        assert code == 2 and said in err and len(err.strip().splitlines()) == 1, err
    card.write_text("A: 1:3 5:3 9:3\nB: 2:1 M M\n")
    code, _, err = run(capsys, "event", "paper", "1", "1.1", str(card), "--db", db)
    assert code == 2 and "settled already" in err
    with open_store(db) as s:
        assert s.count() == 1
    assert run(capsys, "event", "paper", "1", "1.2", str(card), "--db", db)[0] == 0
    final = [p for p in pairings(db, 1) if p["round"] == 2]
    assert len(final) == 1 and final[0]["match_id"] is None  # Dan v Cid drawn next


def test_two_archers_swap_their_next_pairings_and_a_rename_is_logged(tmp_path, capsys):
    db = str(tmp_path / "club.sqlite")
    assert run(capsys, "event", "new", "Night", "--game", "tictacbow", *AGREED, "--format", "round-robin",
               "--archers", "Ann,Bob,Cid,Dan", "--targets", "2", "--db", db)[0] == 0  # fmt: skip
    n = names(db, 1)
    before = [(n[p["entrant_a"]], n[p["entrant_b"]]) for p in pairings(db, 1) if p["round"] == 1]
    code, out, _ = run(capsys, "event", "swap", "1", "ann", "Cid", "--db", db)
    assert code == 0 and out.startswith("swapped in pairing 1.")
    after = [(n[p["entrant_a"]], n[p["entrant_b"]]) for p in pairings(db, 1) if p["round"] == 1]
    together = {"Ann", "Cid"} in [set(pair) for pair in before]
    if together:  # one pairing of the two: its sides change over
        want = [(b, a) if {a, b} == {"Ann", "Cid"} else (a, b) for a, b in before]
    else:
        swap = {"Ann": "Cid", "Cid": "Ann"}
        want = [tuple(swap.get(x, x) for x in pair) for pair in before]
    assert after == want
    assert run(capsys, "archers", "rename", "Bob", "Rob", "--db", db)[0] == 0
    out = run(capsys, "event", "show", "1", "--db", db)[1]
    assert "Bob renamed Rob (before: Bob)" in out
    assert out.count("(before: ") == (1 if together else 2) + 1  # the swap's changes and the rename
    code, _, err = run(capsys, "event", "swap", "1", "Ann", "Zed", "--db", db)
    assert code == 2 and "Zed is not in event 1" in err


def test_an_export_carries_the_events_and_an_import_gives_them_back_exactly(tmp_path, capsys):
    """export, import into a new store, export again: matches.json byte for byte the same, the
    event shown the same, its log and paper marks too; a second import adds nothing."""
    db = str(tmp_path / "club.sqlite")
    assert run(capsys, "event", "new", "Cup", "--game", "tictacbow", *AGREED, "--format", "knockout",
               "--option", "claim=3", "--option", "rounds=1",
               "--archers", "Ann,Bob,Cid,Dan,Eve,Fay,Gus", "--targets", "2", "--db", db)[0] == 0  # fmt: skip
    card = tmp_path / "card.txt"
    card.write_text("A: 1:3 5:3 9:3\nB: 2:1 M M\n")
    ps = pairings(db, 1)
    played = [p for p in ps if p["entrant_b"] is not None]
    assert run(capsys, "event", "paper", "1", rounds.label(played[0]), str(card), "--db", db)[0] == 0
    settle(db, capsys, 1, played[1], None, 1)  # a draw: shot again
    assert run(capsys, "event", "seat", "1", rounds.label(played[2]), "1", "--db", db)[0] == 0
    assert run(capsys, "archers", "rename", "Eve", "Eva", "--db", db)[0] == 0
    shown = run(capsys, "event", "show", "1", "--db", db)[1]
    assert "(again)" in shown and "from paper" in shown and "Eve renamed Eva" in shown
    first, second, fresh = tmp_path / "first", tmp_path / "second", str(tmp_path / "new-pc.sqlite")
    assert run(capsys, "export", "--db", db, "--format", "json", "--out", str(first))[0] == 0
    code, out, err = run(capsys, "import", str(first), "--db", fresh)
    assert code == 0 and "1 event imported" in out, out + err
    assert run(capsys, "export", "--db", fresh, "--format", "json", "--out", str(second))[0] == 0
    assert (first / "matches.json").read_bytes() == (second / "matches.json").read_bytes()
    assert run(capsys, "event", "show", "1", "--db", fresh)[1] == shown
    code, out, _ = run(capsys, "import", str(first), "--db", fresh)
    assert code == 0 and "event" not in out  # held already: nothing added
    with open_store(fresh) as s:
        assert len(s.events()) == 1


def _seed_99(e):
    e["pairings"][0]["a"] = 99


def _no_target(e):
    del e["pairings"][0]["target"]


def _ladder(e):
    e["format"] = "ladder"


def _long_name(e):
    e["entrants"][0]["archers"] = ["Zo\u00eb"]


def _chess(e):
    e["game"] = "chess"


def _itself(e):
    e["pairings"][0]["b"] = e["pairings"][0]["a"]


@pytest.mark.parametrize(
    "spoil, said",
    [
        (_seed_99, "pairing 1.1 names a seed the event has not"),
        (_no_target, "a pairing lacks target"),
        (_ladder, "format 'ladder' or seeding 'given' is not one of this scorebox's"),
        (_long_name, "the box shows plain ASCII letters"),
        (_chess, "game 'chess' with options"),
        (_itself, "pairs an entrant with itself"),
    ],
)
def test_an_event_in_an_import_that_does_not_hold_together_is_refused_alone(tmp_path, capsys, spoil, said):
    import json

    db = str(tmp_path / "club.sqlite")
    assert run(capsys, "event", "new", "Cup", "--game", "tictacbow", "--format", "round-robin",
               "--archers", "Ann,Bob,Cid", "--targets", "1", "--db", db)[0] == 0  # fmt: skip
    out = tmp_path / "x"
    assert run(capsys, "export", "--db", db, "--format", "json", "--out", str(out))[0] == 0
    data = json.loads((out / "matches.json").read_text())
    bad = json.loads(json.dumps(data["events"][0]))
    bad["name"] = "Broken"
    spoil(bad)
    data["events"].append(bad)
    (out / "matches.json").write_text(json.dumps(data))
    code, told, _ = run(capsys, "import", str(out), "--db", str(tmp_path / "new.sqlite"))
    assert code == 1 and "1 event imported" in told  # 1: something was refused
    assert "event 2 of the file NOT imported: " in told and said in told, told
