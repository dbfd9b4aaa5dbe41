"""A club's events in the store (docs/events.md): the Store's methods that keep an event, its
entrants and the pairings drawn for them, the match that settled each pairing, and the log of
every change made to them. The formats' rules (who meets whom) are scorebox/events'; here, only
what is kept and read."""

import json
import time

from sqlalchemy import bindparam, func, insert, select, update

from scorebox.store import sql
from scorebox.store.errors import NotFound, Refused
from scorebox.store.queries import score, score_of
from scorebox.store.tables import (
    archer_matches,
    archers,
    devices,
    entrant_archers,
    event_entrants,
    event_log,
    events,
    match_archers,
    matches,
    pairings,
)

e, n, ea, p, lg = events, event_entrants, entrant_archers, pairings, event_log
FORMATS = ("round-robin", "knockout", "swiss", "teams")  # how an event pairs (scorebox/events/draw.py)
SEEDINGS = ("record", "random", "given")  # by the club's record, drawn, or in the order given

_ADD_EVENT = (
    insert(e)
    .values(
        name=bindparam("name"),
        day=bindparam("day"),
        game=bindparam("game"),
        options=bindparam("options"),
        format=bindparam("format"),
        targets=bindparam("targets"),
        seeding=bindparam("seeding"),
        time_limit=bindparam("time_limit"),
        created=bindparam("created"),
    )
    .returning(e.c.id)
)  # RETURNING: SQLite's since 3.35, PostgreSQL's
_ADD_ENTRANT = insert(n).values(event_id=bindparam("event_id"), seed=bindparam("seed")).returning(n.c.id)
_ADD_ENTRANT_ARCHER = insert(ea).values(
    entrant_id=bindparam("entrant_id"), position=bindparam("position"), archer_id=bindparam("archer_id")
)
_ADD_PAIRING = insert(p).values(
    event_id=bindparam("event_id"),
    round=bindparam("round"),
    number=bindparam("number"),
    leg=bindparam("leg"),
    target=bindparam("target"),
    entrant_a=bindparam("entrant_a"),
    entrant_b=bindparam("entrant_b"),
    drawn=bindparam("drawn"),
)
_LOG = insert(lg).values(
    event_id=bindparam("event_id"),
    pairing_id=bindparam("pairing_id"),
    match_id=bindparam("match_id"),
    at=bindparam("at"),
    what=bindparam("what"),
    before=bindparam("before"),
    after=bindparam("after"),
)
_EVENT_COLUMNS = (
    e.c.id,
    e.c.name,
    e.c.day,
    e.c.game,
    e.c.options,
    e.c.format,
    e.c.targets,
    e.c.seeding,
    e.c.time_limit,
)
_EVENT = select(*_EVENT_COLUMNS).where(e.c.id == bindparam("id"))
_SHOT = func.count(p.c.match_id)
_EVENTS = (
    select(*_EVENT_COLUMNS, func.count(p.c.id), _SHOT)
    .select_from(e.outerjoin(p, p.c.event_id == e.c.id))
    .group_by(e.c.id)
    .order_by(e.c.day.desc(), e.c.id.desc())
)
_ENTRANTS = (
    select(n.c.id, n.c.seed, n.c.withdrawn, ea.c.archer_id, archers.c.name)
    .select_from(n.join(ea, ea.c.entrant_id == n.c.id).join(archers, archers.c.id == ea.c.archer_id))
    .where(n.c.event_id == bindparam("event_id"))
    .order_by(n.c.seed, ea.c.position)
)
_PAIRING_COLUMNS = (
    p.c.id,
    p.c.round,
    p.c.number,
    p.c.leg,
    p.c.target,
    p.c.entrant_a,
    p.c.entrant_b,
    p.c.match_id,
    p.c.paper,
    matches.c.winner,
    matches.c.finished,
    score_of(matches),
)
_PAIRINGS = (
    select(*_PAIRING_COLUMNS)
    .select_from(p.outerjoin(matches, matches.c.id == p.c.match_id))
    .where(p.c.event_id == bindparam("event_id"))
    .order_by(p.c.round, p.c.number, p.c.leg)
)
# Each side's archers of an event's matches, and their points (store/figures.py's, TTB-7)
_SIDES = (
    select(match_archers.c.match_id, match_archers.c.side, match_archers.c.archer_id, archer_matches.c.points)
    .select_from(
        p.join(match_archers, match_archers.c.match_id == p.c.match_id).outerjoin(
            archer_matches,
            (archer_matches.c.match_id == match_archers.c.match_id)
            & (archer_matches.c.archer_id == match_archers.c.archer_id),
        )
    )
    .where(p.c.event_id == bindparam("event_id"))
)
_PAIRING = select(p.c.id, p.c.event_id, p.c.match_id, p.c.target, p.c.entrant_a, p.c.entrant_b).where(
    p.c.id == bindparam("id")
)
_HELD_BY = select(p.c.id).where(p.c.match_id == bindparam("match_id"))
_ATTACH = update(p).where(p.c.id == bindparam("id")).values(match_id=bindparam("match_id"), paper=bindparam("paper"))
_SEAT = update(p).where(p.c.id == bindparam("id")).values(target=bindparam("target"))
_SIDES_OF = (
    update(p)
    .where(p.c.id == bindparam("id"))
    .values(entrant_a=bindparam("entrant_a"), entrant_b=bindparam("entrant_b"), target=bindparam("target"))
)
_ENTRANT_NAMES = (
    select(archers.c.name)
    .select_from(ea.join(archers, archers.c.id == ea.c.archer_id))
    .where(ea.c.entrant_id == bindparam("entrant_id"))
    .order_by(ea.c.position)
)
_MATCH_KEY = (
    select(devices.c.uid, matches.c.number)
    .select_from(matches.join(devices, devices.c.id == matches.c.device_id))
    .where(matches.c.id == bindparam("id"))
)
_WITHDRAW = update(n).where(n.c.id == bindparam("id")).values(withdrawn=bindparam("at"))
_MATCH = select(matches.c.id).where(matches.c.id == bindparam("id"))
_EVENTS_OF_ARCHER = (
    select(n.c.event_id)
    .select_from(n.join(ea, ea.c.entrant_id == n.c.id))
    .where(ea.c.archer_id == bindparam("archer_id"))
    .distinct()
)
_LOG_OF = (
    select(lg.c.at, lg.c.what, lg.c.pairing_id, lg.c.match_id, lg.c.before, lg.c.after)
    .where(lg.c.event_id == bindparam("event_id"))
    .order_by(lg.c.id)
)
_PAIRING_OF_MATCH = (
    select(e.c.id, e.c.name, p.c.round, p.c.number, p.c.leg, p.c.paper)
    .select_from(p.join(e, e.c.id == p.c.event_id))
    .where(p.c.match_id == bindparam("match_id"))
)
_LOG_OF_MATCH = (
    select(lg.c.at, lg.c.what, lg.c.event_id, lg.c.pairing_id, lg.c.before, lg.c.after)
    .where(lg.c.match_id == bindparam("match_id"))
    .order_by(lg.c.id)
)


_ALL_EVENTS = select(
    e.c.id, e.c.name, e.c.day, e.c.game, e.c.options, e.c.format, e.c.targets, e.c.seeding, e.c.time_limit, e.c.created
).order_by(e.c.id)
_ALL_PAIRINGS = (
    select(
        p.c.event_id,
        p.c.id,
        p.c.round,
        p.c.number,
        p.c.leg,
        p.c.target,
        p.c.entrant_a,
        p.c.entrant_b,
        devices.c.uid,
        matches.c.number,
        p.c.paper,
        p.c.drawn,
    )  # fmt: skip
    .select_from(
        p.outerjoin(matches, matches.c.id == p.c.match_id).outerjoin(devices, devices.c.id == matches.c.device_id)
    )
    .order_by(p.c.event_id, p.c.round, p.c.number, p.c.leg)
)
_ALL_ENTRANTS = (
    select(n.c.event_id, n.c.id, n.c.seed, n.c.withdrawn, archers.c.name)
    .select_from(n.join(ea, ea.c.entrant_id == n.c.id).join(archers, archers.c.id == ea.c.archer_id))
    .order_by(n.c.event_id, n.c.seed, ea.c.position)
)
_ALL_LOG = (
    select(lg.c.event_id, lg.c.at, lg.c.what, lg.c.pairing_id, devices.c.uid, matches.c.number, lg.c.before, lg.c.after)
    .select_from(
        lg.outerjoin(matches, matches.c.id == lg.c.match_id).outerjoin(devices, devices.c.id == matches.c.device_id)
    )
    .order_by(lg.c.event_id, lg.c.id)
)
_SAME_EVENT = select(e.c.id).where(
    e.c.name == bindparam("name"), e.c.day == bindparam("day"), e.c.created == bindparam("created")
)


class EventsDB:
    """A part of the Store (self.db is its connection; `with self.transaction():` one write
    transaction)."""

    def add_event(self, name, day, game, options, fmt, targets, seeding, time_limit, entrants):
        """Keep a new event; entrants are lists of archer ids (one, or a team's two) in seed
        order. Its id."""
        with self.transaction():
            eid = sql.run(
                self.db,
                _ADD_EVENT,
                dict(
                    name=name,
                    day=day,
                    game=game,
                    options=json.dumps(options, sort_keys=True),
                    format=fmt,
                    targets=targets,
                    seeding=seeding,
                    time_limit=time_limit,
                    created=time.time(),
                ),
            ).fetchone()[0]
            for seed, ids in enumerate(entrants, 1):
                nid = sql.run(self.db, _ADD_ENTRANT, dict(event_id=eid, seed=seed)).fetchone()[0]
                for position, aid in enumerate(ids, 1):
                    sql.run(self.db, _ADD_ENTRANT_ARCHER, dict(entrant_id=nid, position=position, archer_id=aid))
        return eid

    def events(self):
        """Every event, newest day first: (id, name, day, game, options, format, targets,
        seeding, time limit, pairings, pairings settled)."""
        return [tuple(r[:4]) + (json.loads(r[4]),) + tuple(r[5:]) for r in sql.run(self.db, _EVENTS)]

    def event(self, event_id):
        """Event event_id as events() gives it, without the counts; NotFound when there is none."""
        row = sql.run(self.db, _EVENT, dict(id=event_id)).fetchone()
        if row is None:
            raise NotFound("no event %s in %s: `scorebox event list` shows them" % (event_id, self.path))
        return tuple(row[:4]) + (json.loads(row[4]),) + tuple(row[5:])

    def event_entrants(self, event_id):
        """[(entrant id, seed, withdrawn time or None, [(archer id, name)])] in seed order."""
        out = []
        for nid, seed, withdrawn, aid, name in sql.run(self.db, _ENTRANTS, dict(event_id=event_id)):
            if not out or out[-1][0] != nid:
                out.append((nid, seed, withdrawn, []))
            out[-1][3].append((aid, name))
        return out

    def event_pairings(self, event_id):
        """Every pairing of the event in order, as dicts: id, round, number, leg, target,
        entrant_a, entrant_b (None: a bye), match_id, paper, and once a match settles it its
        winner, finished and score (its result's two numbers), and sides: {side: [(archer id,
        points)]} of the match."""
        sides = {}
        for mid, side, aid, points in sql.run(self.db, _SIDES, dict(event_id=event_id)):
            sides.setdefault(mid, {}).setdefault(side, []).append((aid, points or 0))
        keys = ("id", "round", "number", "leg", "target", "entrant_a", "entrant_b", "match_id", "paper")
        out = []
        for row in sql.run(self.db, _PAIRINGS, dict(event_id=event_id)):
            d = dict(zip(keys, row[:9]))
            d.update(winner=row[9], finished=row[10], score=score(row[11]), sides=sides.get(d["match_id"], {}))
            out.append(d)
        return out

    def add_pairings(self, event_id, rows):
        """Keep pairings drawn: [(round, number, leg, target, entrant a id, entrant b id or None)]."""
        now = time.time()
        with self.transaction():
            for rnd, number, leg, target, a, b in rows:
                sql.run(
                    self.db,
                    _ADD_PAIRING,
                    dict(
                        event_id=event_id,
                        round=rnd,
                        number=number,
                        leg=leg,
                        target=target,
                        entrant_a=a,
                        entrant_b=b,
                        drawn=now,
                    ),
                )

    def _pairing(self, pairing_id):
        row = sql.run(self.db, _PAIRING, dict(id=pairing_id)).fetchone()
        if row is None:
            raise NotFound("no pairing %s in %s" % (pairing_id, self.path))
        return row

    def _log(self, event_id, what, pairing_id=None, match_id=None, before=None, after=None):
        """Keep a change: before and after are JSON of names, targets and match keys (never
        the store's row ids), as events/shown.py's change_text reads them."""
        sql.run(
            self.db,
            _LOG,
            dict(
                event_id=event_id,
                pairing_id=pairing_id,
                match_id=match_id,
                at=time.time(),
                what=what,
                before=None if before is None else json.dumps(before, sort_keys=True),
                after=None if after is None else json.dumps(after, sort_keys=True),
            ),
        )

    def attach_match(self, pairing_id, match_id, paper=False, logged=True):
        """Settle a pairing by stored match match_id (paper: keyed from a paper card); logged
        (a change made at the desk) keeps what the pairing held before. Refused when the
        pairing is settled already or the match settles another."""
        with self.transaction():
            pid, eid, held, _, _, b = self._pairing(pairing_id)
            if b is None:
                raise Refused("pairing %s is a bye: there is no match to shoot" % pairing_id)
            if held is not None:
                raise Refused("pairing %s is settled already by match %s" % (pairing_id, held))
            if sql.run(self.db, _MATCH, dict(id=match_id)).fetchone() is None:
                raise NotFound("no match %s in %s" % (match_id, self.path))
            other = sql.run(self.db, _HELD_BY, dict(match_id=match_id)).fetchone()
            if other is not None:
                raise Refused("match %s settles pairing %s already" % (match_id, other[0]))
            sql.run(self.db, _ATTACH, dict(id=pid, match_id=match_id, paper=int(paper)))
            if logged:
                what = "paper" if paper else "attach"
                uid, number = sql.run(self.db, _MATCH_KEY, dict(id=match_id)).fetchone()
                after = {"match": "%s/%d" % (uid, number)}  # its key: the same in every store
                self._log(eid, what, pid, match_id, before={"match": None}, after=after)

    def seat_pairing(self, pairing_id, target):
        """Move a pairing not yet shot to another target (logged)."""
        with self.transaction():
            pid, eid, held, before, _, b = self._pairing(pairing_id)
            self._unshot(pid, held, b)
            sql.run(self.db, _SEAT, dict(id=pid, target=target))
            self._log(eid, "seat", pid, before={"target": before}, after={"target": target})

    def set_pairing_sides(self, pairing_id, entrant_a, entrant_b, what="swap"):
        """Put other entrants in a pairing not yet shot, logged as what (a swap; entrant_b None:
        a bye for entrant_a, its target freed)."""
        with self.transaction():
            pid, eid, held, target, a, b = self._pairing(pairing_id)
            self._unshot(pid, held, b)
            target = target if entrant_b is not None else None
            sql.run(self.db, _SIDES_OF, dict(id=pid, entrant_a=entrant_a, entrant_b=entrant_b, target=target))
            before, after = (
                {"a": self._named(a), "b": self._named(b)},
                {"a": self._named(entrant_a), "b": self._named(entrant_b)},
            )
            self._log(eid, what, pid, before=before, after=after)

    def _named(self, entrant_id):
        """An entrant's archers' names as the log keeps them (names, not the store's ids, so that
        the log reads the same in any store); None for no entrant (a bye's side B)."""
        if entrant_id is None:
            return None
        return " & ".join(r[0] for r in sql.run(self.db, _ENTRANT_NAMES, dict(entrant_id=entrant_id)))

    @staticmethod
    def _unshot(pid, held, b):
        if held is not None:
            raise Refused("pairing %s is shot already (match %s): its result stays as it is" % (pid, held))
        if b is None:
            raise Refused("pairing %s is a bye" % pid)

    def withdraw_entrant(self, event_id, entrant_id, name):
        """Withdraw an entrant from the event (logged, under name); their pairings not yet shot
        are the caller's to turn into byes."""
        with self.transaction():
            sql.run(self.db, _WITHDRAW, dict(id=entrant_id, at=time.time()))
            self._log(event_id, "withdraw", before={"name": name}, after=None)

    def log_renamed(self, archer_id, old, new):
        """An archer renamed: logged in each event they are in (called inside the rename's
        transaction, rosterdb.py)."""
        for (eid,) in sql.run(self.db, _EVENTS_OF_ARCHER, dict(archer_id=archer_id)).fetchall():
            self._log(eid, "rename", before={"name": old}, after={"name": new})

    # --- export's reads and import's writes (store/export.py) ----------------------------------
    def event_records(self):
        """Every event as an export writes it: its entrants by seed with their archers' names,
        its pairings with their matches' keys (DEVICE/NUMBER), its log; no row id of the store."""
        out, by_id, seed_of = [], {}, {}
        for eid, name, day, game, options, fmt, targets, seeding, limit, created in sql.run(self.db, _ALL_EVENTS):
            by_id[eid] = dict(
                name=name, day=day, game=game, options=json.loads(options), format=fmt, targets=targets,
                seeding=seeding, time_limit=limit, created=created, entrants=[], pairings=[], log=[],
            )  # fmt: skip
            out.append(by_id[eid])
        for eid, nid, seed, withdrawn, archer in sql.run(self.db, _ALL_ENTRANTS):
            got = by_id[eid]["entrants"]
            if seed_of.get(nid) is None:
                seed_of[nid] = seed
                got.append(dict(seed=seed, withdrawn=withdrawn, archers=[]))
            got[-1]["archers"].append(archer)
        place = {}
        for eid, pid, rnd, number, leg, target, a, b, uid, mnum, paper, drawn in sql.run(self.db, _ALL_PAIRINGS):
            place[pid] = [rnd, number, leg]
            by_id[eid]["pairings"].append(
                dict(
                    round=rnd,
                    number=number,
                    leg=leg,
                    target=target,
                    a=seed_of[a],
                    b=seed_of.get(b),
                    match=None if uid is None else "%s/%d" % (uid, mnum),
                    paper=bool(paper),
                    drawn=drawn,
                )  # fmt: skip
            )
        for eid, at, what, pid, uid, mnum, before, after in sql.run(self.db, _ALL_LOG):
            by_id[eid]["log"].append(
                dict(
                    at=at,
                    what=what,
                    pairing=place.get(pid),
                    match=None if uid is None else "%s/%d" % (uid, mnum),
                    before=_json(before),
                    after=_json(after),
                )  # fmt: skip
            )
        return out

    def import_event(self, d):
        """An export's event (imports.check_event's, its archers on the roster already, its
        matches stored already): kept as it was, unless the store holds it (the same name, day
        and time made); whether it was new."""
        with self.transaction():
            if sql.run(self.db, _SAME_EVENT, dict(name=d["name"], day=d["day"], created=d["created"])).fetchone():
                return False
            eid = sql.run(
                self.db,
                _ADD_EVENT,
                dict(
                    name=d["name"],
                    day=d["day"],
                    game=d["game"],
                    options=json.dumps(d["options"], sort_keys=True),
                    format=d["format"],
                    targets=d["targets"],
                    seeding=d["seeding"],
                    time_limit=d["time_limit"],
                    created=d["created"],
                ),  # fmt: skip
            ).fetchone()[0]
            entrant = {}
            for x in d["entrants"]:
                nid = sql.run(self.db, _ADD_ENTRANT, dict(event_id=eid, seed=x["seed"])).fetchone()[0]
                entrant[x["seed"]] = nid
                if x["withdrawn"] is not None:
                    sql.run(self.db, _WITHDRAW, dict(id=nid, at=x["withdrawn"]))
                for position, name in enumerate(x["archers"], 1):
                    aid = self.find_archer(name)[0]
                    sql.run(self.db, _ADD_ENTRANT_ARCHER, dict(entrant_id=nid, position=position, archer_id=aid))
            pairing = {}
            for q in d["pairings"]:
                row = dict(
                    event_id=eid, round=q["round"], number=q["number"], leg=q["leg"], target=q["target"],
                    entrant_a=entrant[q["a"]], entrant_b=entrant.get(q["b"]), drawn=q["drawn"],
                )  # fmt: skip
                pid = sql.run(self.db, _ADD_PAIRING.returning(p.c.id), row).fetchone()[0]
                pairing[(q["round"], q["number"], q["leg"])] = pid
                mid = self._match_id(q["match"])
                if mid is not None and sql.run(self.db, _HELD_BY, dict(match_id=mid)).fetchone() is None:
                    sql.run(self.db, _ATTACH, dict(id=pid, match_id=mid, paper=int(q["paper"])))
            for c in d["log"]:
                where = pairing.get(tuple(c["pairing"])) if c["pairing"] else None
                sql.run(
                    self.db,
                    _LOG,
                    dict(
                        event_id=eid,
                        pairing_id=where,
                        match_id=self._match_id(c["match"]),
                        at=c["at"],
                        what=c["what"],
                        before=None if c["before"] is None else json.dumps(c["before"], sort_keys=True),
                        after=None if c["after"] is None else json.dumps(c["after"], sort_keys=True),
                    ),  # fmt: skip
                )
        return True

    def _match_id(self, key):
        """The store id of the match DEVICE/NUMBER key, or None (no key; not stored)."""
        if key is None:
            return None
        try:
            return self.load_match(key)["id"]
        except NotFound:  # refused by the import: its pairing is not settled here
            return None

    def event_log(self, event_id):
        """Every change made to event event_id, oldest first: (time, what, pairing id, match id,
        before, after)."""
        return [
            (at, what, pid, mid, _json(before), _json(after))
            for at, what, pid, mid, before, after in sql.run(self.db, _LOG_OF, dict(event_id=event_id))
        ]

    def match_pairing(self, match_id):
        """(event id, event name, round, number, leg, from paper) of the pairing stored match
        match_id settles, or None."""
        row = sql.run(self.db, _PAIRING_OF_MATCH, dict(match_id=match_id)).fetchone()
        return None if row is None else tuple(row[:5]) + (bool(row[5]),)

    def match_event_log(self, match_id):
        """The changes that concern stored match match_id: (time, what, event id, pairing id,
        before, after)."""
        return [
            (at, what, eid, pid, _json(before), _json(after))
            for at, what, eid, pid, before, after in sql.run(self.db, _LOG_OF_MATCH, dict(match_id=match_id))
        ]


def _json(text):
    return None if text is None else json.loads(text)
