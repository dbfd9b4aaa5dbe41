"""What `scorebox import` takes from an export's matches.json: every field's type and range,
checked before anything is stored (store/export.py imports what passes)."""

import base64
import datetime
import math

from scorebox.store import roster
from scorebox.store.boxes import MAX_NAME as BOX_NAME

MAX_EVENTS = 20000  # events in one match (a long match keys a few hundred)
MAX_DEPTH = 8  # nesting inside a header or extras, as the box's own records (records.MAX_DEPTH)
MAX_TIME = 2**33  # seconds since 1970: the year 2242


class Invalid(ValueError):
    """A field of an import that is not of its type or range; str() says which."""


def _time(v, what, none=True):
    """Seconds since 1970 (finite, in range) or, where allowed, None."""
    if v is None and none:
        return v
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 <= v < MAX_TIME:  # NaN fails too
        raise Invalid("%s is not a time: %s" % (what, short(v)))
    return v


def _int(v, what, lo, hi):
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise Invalid("%s is not a whole number from %d to %d: %s" % (what, lo, hi, short(v)))
    return v


def _text(v, what, most=200):
    if not isinstance(v, str) or not v or len(v) > most or not v.isprintable():
        raise Invalid("%s is not a line of text of at most %d characters: %s" % (what, most, short(v)))
    return v


def _plain(v, what, depth=0):
    """JSON the store can keep and its readers read: nesting, whole numbers as SQLite's,
    finite numbers."""
    if depth > MAX_DEPTH:
        raise Invalid("%s is nested too deep" % what)
    if isinstance(v, dict):
        for x in v.values():
            _plain(x, what, depth + 1)
    elif isinstance(v, list):
        for x in v:
            _plain(x, what, depth + 1)
    elif isinstance(v, bool) or v is None or isinstance(v, str):
        pass
    elif isinstance(v, int):
        _int(v, what, -(2**63), 2**63 - 1)
    elif not math.isfinite(v):
        raise Invalid("%s holds %s" % (what, v))
    return v


def short(v):
    text = repr(v)
    return text if len(text) <= 40 else text[:37] + "..."


def _pair(v, what):
    """None, or two (None or a length in mm or m: finite, from 0 to 100,000)."""
    if v is None:
        return
    if not isinstance(v, list) or len(v) != 2:
        raise Invalid("%s is not a pair: %s" % (what, short(v)))
    for x in v:
        if x is not None and (isinstance(x, bool) or not isinstance(x, (int, float)) or not 0 <= x <= 100000):
            raise Invalid("%s holds %s" % (what, short(x)))


def check_device(d):
    if not isinstance(d, dict):
        raise Invalid("not an object: %s" % short(d))
    _text(d.get("uid"), "uid")
    if d.get("firmware") is not None:
        _text(d["firmware"], "firmware")
    if d.get("name") is not None:  # set on the PC (`scorebox boxes`); not in files before it
        _text(d["name"], "name", BOX_NAME)
    _time(d.get("first_seen"), "first_seen", none=False)
    _time(d.get("last_seen"), "last_seen", none=False)


def check_import(m):
    """Invalid unless m is a match of an export whose every field the store and its readers
    take: (device, number, header, log, extras, names) when it is; names, the sides' archers
    as the exporting store names them (renamed, or named after the match), or None."""
    if not isinstance(m, dict):
        raise Invalid("not an object: %s" % short(m))
    uid = _text(m.get("device"), "device")
    number = _int(m.get("number"), "number", 1, 2**31 - 1)
    h, log, extras = m.get("header"), m.get("log"), m.get("extras")
    if not isinstance(h, dict):
        raise Invalid("header is not an object")
    _plain(h, "header")
    _time(h.get("clock"), "header clock")
    _pair(h.get("distance"), "header distance")
    _pair(h.get("shaft_mm"), "header shaft_mm")
    face = h.get("face")
    if face is not None:
        if not isinstance(face, dict):
            raise Invalid("header face is not an object")
        _int(face.get("games", 0), "header face games", 0, 10**6)
        arrows = face.get("arrows")
        if arrows is not None:
            if not isinstance(arrows, list) or len(arrows) != 9:
                raise Invalid("header face arrows are not 9 numbers")
            for a in arrows:
                _int(a, "header face arrows", 0, 10**6)
    archers = h.get("archers")
    if archers is not None:
        if not isinstance(archers, list) or len(archers) != 2 or not all(isinstance(s, list) for s in archers):
            raise Invalid("header archers are not two sides")
        for side in archers:
            for name in side:
                _text(name, "an archer's name", 40)
    names = m.get("names")  # not in files before the PC's names were exported
    if names is not None:
        if not isinstance(names, list) or len(names) != 2 or not all(isinstance(s, list) for s in names):
            raise Invalid("names are not two sides")
        for side in names:
            for name in side:
                _text(name, "an archer's name", 40)
    if not isinstance(log, list) or len(log) > MAX_EVENTS:
        raise Invalid("log is not a list of at most %d events" % MAX_EVENTS)
    for ev in log:
        _int(ev, "an event", 0, 65535)
    if extras is not None and not isinstance(extras, dict):
        raise Invalid("extras is not an object")
    _plain(extras, "extras")
    for k in ("damaged", "stray"):
        if (extras or {}).get(k) is not None:
            _int(extras[k], "extras %s" % k, 0, 2**31)
    lost = (extras or {}).get("lost")
    if lost is not None and (not isinstance(lost, list) or not set(lost) <= {"header", "result"}):
        raise Invalid('extras lost is not a list of "header" and "result"')
    skipped = (extras or {}).get("skipped")
    if skipped is not None and (not isinstance(skipped, list) or not all(isinstance(i, int) for i in skipped)):
        raise Invalid("extras skipped is not a list of positions")
    _time(m.get("imported"), "imported")
    return uid, number, h, log, extras, names


def check_once(sides):
    """Invalid unless each archer (a name in any case) is named once in the two sides: an
    archer shoots for one side, in one place (as Store.name_match refuses)."""
    seen = set()
    for side in sides:
        for name in side:
            if name.casefold() in seen:
                raise Invalid("%s is named twice in the match: an archer shoots once, for one side" % short(name))
            seen.add(name.casefold())


def match_key(m, i):
    """How the summary names match i of the file: DEVICE/NUMBER when both can be shown."""
    try:
        return "%s/%d" % (_text(m["device"], "device", 60), _int(m["number"], "number", 0, 2**63))
    except (Invalid, KeyError, TypeError):
        return "match %d of the file" % (i + 1)


def check_piece(q):
    """(device, file, offset, bytes, imported) of a quarantine piece; Invalid unless sound."""
    if not isinstance(q, dict):
        raise Invalid("not an object: %s" % short(q))
    try:
        raw = base64.b64decode(q.get("data"), validate=True)
    except (TypeError, ValueError):
        raise Invalid("data is not base64")
    return (
        _text(q.get("device"), "device"),
        _text(q.get("file"), "file", 64),
        _int(q.get("offset"), "offset", 0, 2**31),
        raw,
        _time(q.get("imported"), "imported", none=False),
    )


def check_archer(a):
    """(name, retired, added, [(old name, renamed)], full name, home club) of a roster entry;
    Invalid unless sound (an export before clubs has none: the club's own)."""
    if not isinstance(a, dict):
        raise Invalid("not an object: %s" % short(a))
    was = a.get("was")
    if not isinstance(was, list):
        raise Invalid("was is not a list: %s" % short(was))
    olds = []
    for w in was:
        if not isinstance(w, dict):
            raise Invalid("was holds %s" % short(w))
        olds.append((_text(w.get("old"), "an old name", 40), _time(w.get("renamed"), "renamed", none=False)))
    name = _text(a.get("name"), "name", 40)
    if a.get("club") is not None and name in roster.PLACEHOLDERS:  # as RosterDB.set_club refuses it
        raise Invalid("%r is what the box calls an unnamed side, not an archer: it has no club" % name)
    return (
        name,
        _int(a.get("retired"), "retired", 0, 1),
        _time(a.get("added"), "added"),
        olds,
        None if a.get("full_name") is None else _text(a.get("full_name"), "full_name", roster.FULL_MAX),
        None if a.get("club") is None else roster.home_club(_text(a.get("club"), "club", roster.CLUB_MAX)),
    )


def _key(v, what):
    """A match's DEVICE/NUMBER, or None."""
    if v is None:
        return v
    uid, sep, number = _text(v, what, 80).rpartition("/")
    if not sep or not uid or not number.isdigit():
        raise Invalid("%s is not DEVICE/NUMBER: %s" % (what, short(v)))
    return v


def _object(v, what):
    if not isinstance(v, dict):
        raise Invalid("%s is not an object: %s" % (what, short(v)))
    return v


def _list(v, what, most):
    if not isinstance(v, list) or len(v) > most:
        raise Invalid("%s is not a list of at most %d: %s" % (what, most, short(v)))
    return v


EVENT_KEYS = ("name", "day", "game", "options", "format", "targets", "seeding", "time_limit", "created")
ENTRANT_KEYS = ("seed", "withdrawn", "archers")
PAIRING_KEYS = ("round", "number", "leg", "target", "a", "b", "match", "paper", "drawn")
CHANGE_KEYS = ("at", "what", "pairing", "match", "before", "after")


def _keys(v, keys, what):
    _object(v, what)
    missing = [k for k in keys if k not in v]
    if missing:
        raise Invalid("%s lacks %s" % (what, ", ".join(missing)))
    return v


def check_event(e):
    """An event of an export (EventsDB.event_records' form), its entrants, pairings and log
    checked; Invalid unless sound: its game, format and options ones this scorebox plays, its
    archers' names ones the roster takes, the seeds and matches its pairings name its own and
    each once."""
    from scorebox.store.eventsdb import FORMATS, SEEDINGS
    from scorebox_core import games

    _keys(e, EVENT_KEYS, "an event")
    _text(e["name"], "name", 80)
    try:
        if datetime.date.fromisoformat(_text(e["day"], "day", 10)).isoformat() != e["day"]:
            raise ValueError(e["day"])
    except ValueError:
        raise Invalid("day is not YYYY-MM-DD: %s" % short(e["day"]))
    if e["format"] not in FORMATS or e["seeding"] not in SEEDINGS:
        raise Invalid(
            "format %s or seeding %s is not one of this scorebox's" % (short(e["format"]), short(e["seeding"]))
        )
    try:
        game = games.get(_text(e["game"], "game", 40))
        games.part(game, "RULES").options(_plain(_object(e["options"], "options"), "options"))
    except (ValueError, KeyError, TypeError) as why:
        raise Invalid("game %s with options %s: %s" % (short(e["game"]), short(e["options"]), why))
    _int(e.get("targets"), "targets", 1, 99)
    if e.get("time_limit") is not None:
        _int(e.get("time_limit"), "time_limit", 1, 24 * 3600)
    _time(e.get("created"), "created", none=False)
    seeds = set()
    for x in _list(e.get("entrants"), "entrants", 256):
        _keys(x, ENTRANT_KEYS, "an entrant")
        seed = _int(x.get("seed"), "seed", 1, 256)
        if seed in seeds:
            raise Invalid("seed %d is there twice" % seed)
        seeds.add(seed)
        _time(x.get("withdrawn"), "withdrawn")
        names = _list(x.get("archers"), "archers", 2)
        if not names:
            raise Invalid("an entrant without archers")
        for name in names:
            why = roster.problem(_text(name, "an archer's name", 40))
            if why:
                raise Invalid(why)
    places, keys = set(), set()
    for p in _list(e.get("pairings"), "pairings", 10000):
        _keys(p, PAIRING_KEYS, "a pairing")
        place = tuple(_int(p.get(k), k, 1, 10000) for k in ("round", "number", "leg"))
        if place in places:
            raise Invalid("pairing %d.%d (leg %d) is there twice" % place)
        places.add(place)
        if p.get("target") is not None:
            _int(p.get("target"), "target", 1, 99)
        if p.get("a") not in seeds or (p.get("b") is not None and p.get("b") not in seeds):
            raise Invalid("pairing %d.%d names a seed the event has not" % place[:2])
        if p["a"] == p["b"]:
            raise Invalid("pairing %d.%d pairs an entrant with itself" % place[:2])
        if _key(p["match"], "match") is not None:
            if p["match"] in keys:
                raise Invalid("match %s settles two pairings" % p["match"])
            keys.add(p["match"])
        if not isinstance(p.get("paper"), bool):
            raise Invalid("paper is not true or false: %s" % short(p.get("paper")))
        _time(p.get("drawn"), "drawn", none=False)
    for c in _list(e.get("log"), "log", 100000):
        _keys(c, CHANGE_KEYS, "a change")
        _time(c.get("at"), "at", none=False)
        _text(c.get("what"), "what", 40)
        if c.get("pairing") is not None:
            place = _list(c.get("pairing"), "a change's pairing", 3)
            if len(place) != 3 or tuple(place) not in places:
                raise Invalid("a change names a pairing the event has not: %s" % short(place))
        _key(c.get("match"), "a change's match")
        for k in ("before", "after"):
            if c.get(k) is not None:
                _plain(_object(c.get(k), k), k)
    return e
