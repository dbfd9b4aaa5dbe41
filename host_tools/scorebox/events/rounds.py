"""An event's rounds over the store (docs/events.md): a new event with its entrants seeded and
its first pairings drawn, each pairing's result read from the match that settled it, the next
pairings drawn as results come in (a knockout's next round, a drawn knockout match shot again,
a Swiss round once the last is shot), an archer withdrawn, and the standings. The formats'
rules are draw.py's and standings.py's; this module only reads and keeps."""

import datetime
import random
from typing import NamedTuple

from scorebox.errors import ScoreboxError
from scorebox.events import draw
from scorebox.events.standings import Result, standings
from scorebox.store.eventsdb import FORMATS, SEEDINGS
from scorebox_core import games

ROUND_ROBIN, KNOCKOUT, SWISS, TEAMS = FORMATS
FORMAT_WORDS = {  # as the pages and the command line say them
    ROUND_ROBIN: "round robin",
    KNOCKOUT: "knockout",
    SWISS: "Swiss",
    TEAMS: "teams of two, round robin",
}
MAX_ENTRANTS = 64
MAX_NAME = 80  # an event's name


class Event(NamedTuple):
    id: int
    name: str
    day: str
    game: str
    options: dict
    format: str
    targets: int
    seeding: str
    time_limit: int | None


class Entrant(NamedTuple):
    id: int
    seed: int
    withdrawn: float | None
    archers: list  # [(archer id, name)]

    @property
    def name(self):
        return " & ".join(name for _, name in self.archers)


class Settled(NamedTuple):
    """A pairing's result, by its entrants: winner is the entrant id that won, None for a draw."""

    winner: int | None
    points_a: int
    points_b: int


def game_options(game, pairs):
    """The game's options (a dict, as a match header keeps them) from NAME=VALUE texts, each
    checked by the game's own rules as the box's New match checks them."""
    rules = games.part(games.get(game), "RULES")
    opts = rules.options()
    for pair in pairs:
        name, eq, value = pair.partition("=")
        if not eq:
            raise ScoreboxError("option %r: give it as NAME=VALUE, e.g. games=3" % pair)
        try:
            opts.set(name.strip(), value.strip())
        except ValueError as e:
            raise ScoreboxError("option %s: %s" % (name.strip(), e))
    return opts.to_dict()


def options_agreed(event):
    """The event's options that differ from the game's defaults."""
    defaults = games.part(games.get(event.game), "RULES").options().to_dict()
    return {k: v for k, v in event.options.items() if defaults.get(k) != v}


def create(store, name, game, fmt, names, targets, seeding="given", day=None, options=(), time_limit=None, rng=None):
    """Keep a new event (archers by their names, added to the roster when new: a guest on the
    spot), seed it and draw its first pairings; its Event."""
    name = " ".join(name.split())
    if not name or len(name) > MAX_NAME or not name.isprintable():
        raise ScoreboxError("an event's name is a line of at most %d characters" % MAX_NAME)
    try:
        games.get(game)
    except ValueError:
        known = ", ".join(g.ID for g in games.every())
        raise ScoreboxError("no game %r: one of %s" % (game, known))
    if fmt not in FORMATS:
        raise ScoreboxError("no format %r: one of %s" % (fmt, ", ".join(FORMATS)))
    if seeding not in SEEDINGS:
        raise ScoreboxError("no seeding %r: one of %s" % (seeding, ", ".join(SEEDINGS)))
    if not 1 <= targets <= 99:
        raise ScoreboxError("targets must be 1-99, not %d" % targets)
    if time_limit is not None and not 1 <= time_limit <= 24 * 3600:
        raise ScoreboxError("a time limit is 1 second to 24 hours")
    try:
        day = datetime.date.fromisoformat(day).isoformat() if day else datetime.date.today().isoformat()
    except ValueError:
        raise ScoreboxError("day %r: give it as YYYY-MM-DD" % day)
    opts = game_options(game, options)
    least = 4 if fmt == TEAMS else 2
    if len([n for n in names if n.strip()]) < least:
        raise ScoreboxError("an event needs at least %s" % ("two teams of two" if fmt == TEAMS else "two archers"))
    if fmt == TEAMS and len(names) % 2:
        raise ScoreboxError("teams of two need an even number of archers, not %d" % len(names))
    with store.transaction():  # a refusal part way keeps nothing: no guest added, no event
        ids = _seeded(store, _archer_ids(store, names), seeding, rng or random.SystemRandom())
        entrants = [list(t) for t in draw.teams(ids)] if fmt == TEAMS else [[i] for i in ids]
        eid = store.add_event(name, day, game, opts, fmt, targets, seeding, time_limit, entrants)
        advance(store, eid)
    return load(store, eid)


def _archer_ids(store, names):
    seen, ids = set(), []
    for raw in names:
        name = " ".join(raw.split())
        if not name:
            continue
        if name.casefold() in seen:
            raise ScoreboxError("%s is in the list twice" % name)
        seen.add(name.casefold())
        found = store.find_archer(name)
        if found is None or found[2]:
            store.add_archer(name)  # a guest added on the spot, or a retired archer back
            found = store.find_archer(name)
        ids.append(found[0])
    if len(ids) > MAX_ENTRANTS:
        raise ScoreboxError("an event takes at most %d archers" % MAX_ENTRANTS)
    return ids


def _seeded(store, ids, seeding, rng):
    """ids in seed order: as given, drawn, or by the club's record (the share of matches won,
    a draw half; the more matches the better among equals; archers without one last, as given)."""
    if seeding == "random":
        ids = list(ids)
        rng.shuffle(ids)
        return ids
    if seeding == "given":
        return list(ids)
    won, played = {}, {}
    for aid, side, winner, count in store.match_results(only=ids):
        played[aid] = played.get(aid, 0) + count
        score = 1.0 if winner == side else 0.5 if winner == "draw" else 0.0
        won[aid] = won.get(aid, 0) + score * count
    return sorted(ids, key=lambda i: (-(won.get(i, 0) / played[i]) if played.get(i) else 1, -played.get(i, 0)))


def load(store, eid):
    return Event(*store.event(eid))


def entrants(store, eid):
    return [Entrant(*row) for row in store.event_entrants(eid)]


def settled(event, pairing, by_entrant):
    """A pairing's Settled, or None while no finished match settles it; the match's sides are
    matched to the pairing's entrants by their archers (a match keyed with the sides the other
    way round counts for the right entrant)."""
    if pairing["match_id"] is None or not pairing["finished"]:
        return None
    letters = games.get(event.game).SIDES
    sides = pairing["sides"]
    a_ids = {aid for aid, _ in by_entrant[pairing["entrant_a"]].archers}
    first = {aid for aid, _ in sides.get(letters[0], [])}
    a_side, b_side = (letters[0], letters[1]) if first == a_ids else (letters[1], letters[0])
    if games.get(event.game).SHOTS == "arrows":  # the arrows' values (TTB-7), kept per archer
        points_a = sum(p for _, p in sides.get(a_side, []))
        points_b = sum(p for _, p in sides.get(b_side, []))
    else:  # the game's own two numbers, its result's score (Try-Tac-Toe's shapes, TTT-6)
        score = pairing["score"] or [0, 0]
        points_a, points_b = score if a_side == letters[0] else score[::-1]
    winner = pairing["winner"]
    if winner == a_side:
        return Settled(pairing["entrant_a"], points_a, points_b)
    if winner == b_side:
        return Settled(pairing["entrant_b"], points_a, points_b)
    return Settled(None, points_a, points_b)


def pairing(store, eid, label):
    """The pairing an event's label names ("2.3": round 2, third on its targets; a drawn
    knockout match shot again is the label's last leg)."""
    rnd, dot, number = label.strip().lstrip("Rr").partition(".")
    number = number.split(" ")[0]  # "1.2 (again)", as the pages show a replay's label
    found = None
    if dot and _digits(rnd) and _digits(number):
        for p in store.event_pairings(eid):
            if (p["round"], p["number"]) == (int(rnd), int(number)):
                found = p
    if found is None:
        raise ScoreboxError(
            "event %s has no pairing %s: `scorebox event show %s` lists them (e.g. 1.2)" % (eid, label, eid)
        )
    return found


def _digits(text):
    return text.isascii() and text.isdigit()


def label(p):
    """A pairing's label, as `pairing` reads it back."""
    return "%d.%d" % (p["round"], p["number"]) + (
        "" if p["leg"] == 1 else " (again)" if p["leg"] == 2 else " (%d)" % p["leg"]
    )


def attach(store, eid, which, ref, paper=False):
    """Settle the pairing labelled which with stored match ref (its id, or DEVICE/NUMBER), shot by
    its two entrants in the event's game; logged, and what can be drawn after it is drawn."""
    event = load(store, eid)
    p = pairing(store, eid, which)
    match = store.load_match(ref)
    if games.of(match["header"]).ID != event.game:
        raise ScoreboxError(
            "match %s is %s, not %s" % (ref, games.of(match["header"]).NAME, games.get(event.game).NAME)
        )
    if p["entrant_b"] is not None:
        by_entrant = {e.id: e for e in entrants(store, eid)}
        want = {_names(by_entrant[p["entrant_a"]]), _names(by_entrant[p["entrant_b"]])}
        have = {frozenset(n.casefold() for n in side) for side in match["names"]}
        if have != want:
            names = " v ".join(by_entrant[e].name for e in (p["entrant_a"], p["entrant_b"]))
            raise ScoreboxError(
                "match %s was shot by %s, not %s: name its archers first"
                % (ref, " v ".join(" & ".join(side) or "?" for side in match["names"]), names)
            )
    if p["entrant_b"] is None:
        raise ScoreboxError("pairing %s is a bye: there is no match to shoot" % label(p))
    if match["winner"] is None:
        raise ScoreboxError("match %s is not finished: only a finished match settles a pairing" % ref)
    if match["header"].get("options") != event.options:
        raise ScoreboxError("match %s was shot with other options than the event's" % ref)
    with store.transaction():  # settled and what follows drawn, or neither
        store.attach_match(p["id"], match["id"], paper=paper)
        advance(store, eid)
    return p, match


def _names(entrant):
    return frozenset(name.casefold() for _, name in entrant.archers)


def advance(store, eid):
    """Draw what can be drawn now (again after a pairing of a withdrawn entrant is turned into
    a bye, which settles it); the pairings added."""
    added = []
    while True:
        rows = _draw_now(store, eid)
        if not rows:
            return added
        added += rows


def _draw_now(store, eid):
    event = load(store, eid)
    pairings = store.event_pairings(eid)
    by_entrant = {e.id: e for e in entrants(store, eid)}
    active = [e for e in by_entrant.values() if e.withdrawn is None]
    seed_of = {e.id: e.seed for e in by_entrant.values()}
    entrant_of = {e.seed: e.id for e in by_entrant.values()}
    if not pairings:
        new = _first(event, sorted(active, key=lambda e: e.seed))
    elif event.format == KNOCKOUT:
        new = _knockout_next(event, pairings, by_entrant, seed_of)
    elif event.format == SWISS:
        new = _swiss_next(event, pairings, by_entrant, active, seed_of)
    else:
        new = []
    rows = []
    for pr in new:
        a = entrant_of[pr.a[0]]
        b = entrant_of[pr.b[0]] if pr.b else None
        rows.append((pr.round, pr.number, 1, pr.target, a, b))
    rows += _replays(event, pairings, by_entrant)
    if rows:
        store.add_pairings(eid, rows)
        _byes_for_withdrawn(store, eid, by_entrant)
    return rows


def _first(event, active):
    seeded = [(e.seed,) for e in active]
    if event.format in (ROUND_ROBIN, TEAMS):
        return [p for rnd in draw.round_robin(seeded, event.targets) for p in rnd]
    if event.format == KNOCKOUT:
        return draw.knockout_first(seeded, event.targets)
    return draw.swiss_round(seeded, set(), {}, 1, event.targets)


def _latest_legs(pairings):
    """{(round, number): the pairing's last leg}."""
    out = {}
    for p in pairings:
        out[(p["round"], p["number"])] = p
    return out


def _winner(event, p, by_entrant):
    """The entrant id that won pairing p (a bye's side A), or None while it is open or drawn."""
    if p["entrant_b"] is None:
        return p["entrant_a"]
    s = settled(event, p, by_entrant)
    return s.winner if s else None


def _knockout_next(event, pairings, by_entrant, seed_of):
    legs = _latest_legs(pairings)
    last = max(r for r, _ in legs)
    new = []
    for rnd in range(1, last + 1):
        whole = [legs[k] for k in sorted(legs) if k[0] == rnd]
        previous = [_as_draw(p, seed_of) for p in whole]
        winners = {}
        for p in whole:
            w = _winner(event, p, by_entrant)
            if w is not None:
                winners[p["number"]] = (seed_of[w],)
        drawn = {n for r, n in legs if r == rnd + 1}
        new += [q for q in draw.knockout_next(previous, winners, event.targets) if q.number not in drawn]
    return new


def _as_draw(p, seed_of):
    b = (seed_of[p["entrant_b"]],) if p["entrant_b"] is not None else ()
    return draw.Pairing(p["round"], p["number"], (seed_of[p["entrant_a"]],), b, p["target"])


def _replays(event, pairings, by_entrant):
    """A knockout's drawn match is shot again (Tic Tac BOW: a further game; Try-Tac-Toe: level
    on points too): the next leg of the pairing, same entrants and target."""
    if event.format != KNOCKOUT:
        return []
    rows = []
    for p in _latest_legs(pairings).values():
        s = settled(event, p, by_entrant) if p["entrant_b"] is not None else None
        if s is not None and s.winner is None:
            rows.append((p["round"], p["number"], p["leg"] + 1, p["target"], p["entrant_a"], p["entrant_b"]))
    return rows


def _swiss_next(event, pairings, by_entrant, active, seed_of):
    last = max(p["round"] for p in pairings)
    current = [p for p in pairings if p["round"] == last]
    if any(p["entrant_b"] is not None and settled(event, p, by_entrant) is None for p in current):
        return []
    if last >= len(active) - 1 + len(active) % 2:  # as many rounds as a round robin: all have met
        return []
    met, byes = set(), {}
    for p in pairings:
        if p["entrant_b"] is None:
            key = (seed_of[p["entrant_a"]],)
            byes[key] = byes.get(key, 0) + 1
        else:
            met.add(frozenset({(seed_of[p["entrant_a"]],), (seed_of[p["entrant_b"]],)}))
    table = event_standings(event, pairings, by_entrant, active)
    ranked = [(seed_of[row.entrant[0]],) for row in table]
    return draw.swiss_round(ranked, met, byes, last + 1, event.targets)


def results(event, pairings, by_entrant):
    """The pairings' Results (standings.py's), by entrant id, and the byes each entrant had."""
    out, byes = [], {}
    for p in pairings:
        if p["entrant_b"] is None:
            byes[(p["entrant_a"],)] = byes.get((p["entrant_a"],), 0) + 1
            continue
        s = settled(event, p, by_entrant)
        a, b = (p["entrant_a"],), (p["entrant_b"],)
        if s is None:
            out.append(Result(a, b, None, 0, 0))
        else:
            winner = "A" if s.winner == p["entrant_a"] else "B" if s.winner == p["entrant_b"] else "draw"
            out.append(Result(a, b, winner, s.points_a, s.points_b))
    return out, byes


def event_standings(event, pairings, by_entrant, active=None):
    """standings.py's rows for the event (entrants as 1-tuples of their ids)."""
    everyone = active if active is not None else list(by_entrant.values())
    shot, byes = results(event, pairings, by_entrant)
    # A Swiss bye is a win, as the field counts it; in a round robin everyone has the same
    # byes, which are then left out of the table rather than shown as matches played.
    byes = byes if event.format == SWISS else None
    return standings([(e.id,) for e in sorted(everyone, key=lambda e: e.seed)], shot, byes)


def withdraw(store, eid, name):
    """Withdraw the entrant an archer called name belongs to: their pairings not yet shot become
    byes for their opponents (each kept in the event's log); the entrant."""
    entrant = _entrant_named(entrants(store, eid), eid, name)
    if entrant.withdrawn is not None:
        raise ScoreboxError("%s withdrew already" % entrant.name)
    with store.transaction():  # withdrawn, their byes made and what follows drawn, or none of it
        store.withdraw_entrant(eid, entrant.id, entrant.name)
        _byes_for_withdrawn(store, eid, {e.id: e for e in entrants(store, eid)})
        advance(store, eid)
    return entrant


def _entrant_named(everyone, eid, name):
    """The entrant an archer called name (any case) belongs to."""
    for e in everyone:
        if any(n.casefold() == name.strip().casefold() for _, n in e.archers):
            return e
    raise ScoreboxError("%s is not in event %s" % (name.strip(), eid))


def swap(store, eid, first, second):
    """Exchange two entrants' places in the pairings of the earliest round where both have one
    not yet shot (one pairing of the two of them: its sides change over); each change kept in
    the event's log. The pairings changed, as they were."""
    everyone = entrants(store, eid)
    a, b = _entrant_named(everyone, eid, first), _entrant_named(everyone, eid, second)
    if a.id == b.id:
        raise ScoreboxError("give two archers of different sides to swap")
    unshot = [p for p in store.event_pairings(eid) if p["match_id"] is None and p["entrant_b"] is not None]
    for rnd in sorted({p["round"] for p in unshot}):
        of_a = [p for p in unshot if p["round"] == rnd and a.id in (p["entrant_a"], p["entrant_b"])]
        of_b = [p for p in unshot if p["round"] == rnd and b.id in (p["entrant_a"], p["entrant_b"])]
        if of_a and of_b:
            break
    else:
        raise ScoreboxError("%s and %s have no pairings not yet shot in the same round" % (a.name, b.name))
    pa, pb = of_a[0], of_b[0]
    if pa["id"] == pb["id"]:
        store.set_pairing_sides(pa["id"], pa["entrant_b"], pa["entrant_a"])
        return [pa]

    def put(p, old, new):
        return tuple(new if p[k] == old else p[k] for k in ("entrant_a", "entrant_b"))

    with store.transaction():
        store.set_pairing_sides(pa["id"], *put(pa, a.id, b.id))
        store.set_pairing_sides(pb["id"], *put(pb, b.id, a.id))
    return [pa, pb]


def _byes_for_withdrawn(store, eid, by_entrant):
    gone = {e.id for e in by_entrant.values() if e.withdrawn is not None}
    for p in store.event_pairings(eid):
        if p["match_id"] is not None or p["entrant_b"] is None:
            continue
        if p["entrant_a"] in gone or p["entrant_b"] in gone:
            other = p["entrant_b"] if p["entrant_a"] in gone else p["entrant_a"]
            store.set_pairing_sides(p["id"], other, None, "bye")


def champion(event, pairings, by_entrant):
    """A knockout's winner once its final is settled, else None."""
    legs = _latest_legs(pairings)
    if not legs:
        return None
    last = max(r for r, _ in legs)
    final = [p for (r, _), p in legs.items() if r == last]
    if last < draw.knockout_rounds(len(by_entrant)) or len(final) != 1:
        return None
    return _winner(event, final[0], by_entrant)
