"""An event as the desk's pages, the board for the range and `scorebox event show` give it
(docs/events.md): its pairings with their results, the standings, a knockout's winner, the log
of changes in words, and the board's current round. Only reads; rounds.py keeps and draws."""

from typing import NamedTuple

from scorebox.events.rounds import (
    KNOCKOUT,
    champion,
    entrants,
    event_standings,
    label,
    load,
    settled,
)
from scorebox_core import games


class Shown(NamedTuple):
    """A pairing as the pages and `scorebox event show` give it."""

    id: int
    label: str
    round: int
    target: int | None
    a: str
    b: str | None  # None: a bye
    result: str  # "to shoot", "a draw", "Ann wins", "match 7 not finished", "a bye"
    points: tuple | None  # (side A's, side B's) once settled
    match_id: int | None
    paper: bool
    open: bool  # not shot yet and not a bye: it can be moved, swapped or settled


class Place(NamedTuple):
    place: int
    name: str
    withdrawn: bool
    played: int
    won: int
    drawn: int
    lost: int
    points_for: int
    points_against: int


def view(store, eid):
    """Everything an event's page shows: its Event, its entrants, its pairings as Shown in
    order, the standings as Places (None for a knockout), a knockout's winner (a name, or
    None), and the log of changes as (time, text)."""
    event = load(store, eid)
    everyone = entrants(store, eid)
    by_entrant = {e.id: e for e in everyone}
    pairings = store.event_pairings(eid)
    shown = [_shown(event, p, by_entrant) for p in pairings]
    table = None
    if event.format != KNOCKOUT:
        table = [
            Place(r.place, by_entrant[r.entrant[0]].name, by_entrant[r.entrant[0]].withdrawn is not None, *r[2:])
            for r in event_standings(event, pairings, by_entrant)
        ]
    won = champion(event, pairings, by_entrant) if event.format == KNOCKOUT else None
    log = [
        (at, change_text(what, before, after, pairings, pid, mid))
        for at, what, pid, mid, before, after in store.event_log(eid)
    ]
    return {
        "event": event,
        "entrants": everyone,
        "pairings": shown,
        "standings": table,
        "champion": by_entrant[won].name if won is not None else None,
        "log": log,
    }


def _shown(event, p, by_entrant):
    a = by_entrant[p["entrant_a"]].name
    if p["entrant_b"] is None:
        return Shown(p["id"], label(p), p["round"], None, a, None, "a bye", None, None, False, False)
    b = by_entrant[p["entrant_b"]].name
    s = settled(event, p, by_entrant)
    if p["match_id"] is None:
        result, points = "to shoot", None
    elif s is None:
        result, points = "match %d not finished" % p["match_id"], None
    else:
        result = "a draw" if s.winner is None else "%s wins" % by_entrant[s.winner].name
        points = (s.points_a, s.points_b)
    unshot = p["match_id"] is None
    return Shown(
        p["id"], label(p), p["round"], p["target"], a, b, result, points, p["match_id"], bool(p["paper"]), unshot
    )


def board(store, eid):
    """What the range's board shows now (web/pages/board.py): the event's name, its current
    round (the first with a pairing not yet shot; the last once all are) with its pairings in
    target order, the standings (a knockout has none), and who won it."""
    v = view(store, eid)
    rounds_open = [p.round for p in v["pairings"] if p.open]
    current = min(rounds_open) if rounds_open else max((p.round for p in v["pairings"]), default=1)
    shown = [p for p in v["pairings"] if p.round == current]
    shown.sort(key=lambda p: (p.target is None, p.target or 0, [int(x) for x in p.label.split()[0].split(".")]))
    table = None
    if v["standings"] is not None:
        table = [[r.place, r.name, r.won, r.drawn, r.lost, r.points_for - r.points_against] for r in v["standings"]]
    return {
        "event": v["event"].name,
        "game": games.get(v["event"].game).NAME,
        "round": current,
        "pairings": [
            {"label": p.label, "target": p.target, "a": p.a, "b": p.b, "result": p.result, "points": p.points}
            for p in shown
        ],
        "standings": table,
        "champion": v["champion"],
    }


def change_text(what, before, after, pairings, pairing_id, match_id):
    """A line of an event's log: what was changed, and what it was before (a row of a form it
    does not know, an imported one say, is said by its name)."""
    try:
        return _change_text(what, before, after, pairings, pairing_id, match_id)
    except (KeyError, TypeError, AttributeError):
        return what


def _change_text(what, before, after, pairings, pairing_id, match_id):
    where = next((label(p) for p in pairings if p["id"] == pairing_id), "?")

    def sides(d):
        return "%s v %s" % (d["a"], d["b"]) if d.get("b") else "a bye for %s" % d["a"]

    if what in ("attach", "paper"):
        how = "from a paper card" if what == "paper" else "attached by hand"
        return "pairing %s settled by match %s, %s (before: not settled)" % (where, match_id, how)
    if what == "seat":
        return "pairing %s moved to target %s (before: target %s)" % (where, after["target"], before["target"])
    if what in ("swap", "bye"):
        return "pairing %s is %s (before: %s)" % (where, sides(after), sides(before))
    if what == "withdraw":
        return "%s withdrawn (before: in the event)" % before["name"]
    if what == "rename":
        return "%s renamed %s (before: %s)" % (before["name"], after["name"], before["name"])
    return what
