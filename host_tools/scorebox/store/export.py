"""`scorebox export` and `scorebox import`: the store's history as plain files.

An export is a folder with two files (docs/reports.md):

- `arrows.csv` / `arrows.json`: one row per arrow (match, game, round, turn, side, archer,
  arrow, square, value, called, x_hit, outcome), in play order;
- `matches.csv` / `matches.json`: one row per match. The JSON one also holds what the store
  needs to rebuild itself (each match's header, its events as keyed with the undos, its
  extras, the boxes and the quarantined bytes) and the names set on the PC (each match's
  `names`, the boxes' names, the roster with its renames), so `scorebox import` of it into
  an empty store gives a store whose export is byte for byte the same.

Nothing derived is trusted on import: every match is replayed by the rules core again
(Store.add_matches), exactly as a sync stores it.
"""

import base64
import csv
import datetime
import json
import math
import os

from scorebox.errors import ScoreboxError
from scorebox.store import files, roster
from scorebox.store.boxes import MAX_NAME as BOX_NAME
from scorebox.store.db import StoreError, open_store
from scorebox.text import plural

FORMAT = "scorebox-export"
VERSION = 1

ARROW_COLUMNS = (
    "match",  # DEVICE/NUMBER: the box and the match's number on it (stable across stores)
    "game",
    "round",
    "turn",  # turn number in the game
    "side",
    "archer",
    "arrow",  # arrow number in the turn
    "square",  # 1-9, empty for a miss
    "value",  # 0-3 keyed for a hit; 0 for a miss or a called shot
    "called",  # 1 for a called flip shot
    "x_hit",  # called shots: 1 hit the X, 0 missed it
    "outcome",  # scored, claimed, dead, missed, flipped, flip missed
)

MATCH_COLUMNS = (  # matches.csv: what a spreadsheet reads; the box's raw record is in matches.json
    "match",
    "device",
    "number",
    "started",  # the PC's local time, YYYY-MM-DD HH:MM:SS (a date to a spreadsheet)
    "started_utc",
    "side_a",
    "side_b",
    "winner",
    "wins_a",
    "wins_b",
    "draws",
    "finished",
    "games",
    "arrows",
    "imported",  # local time, as started
    "game",  # tictacbow or try-tac-toe (whose side_a is X, side_b O, games 0: docs/reports.md)
)

# A cell a spreadsheet would run as a formula (#13 item 10): these first characters, after
# which the cell is shown as text with a leading apostrophe (OWASP's CSV injection advice).
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")

_ARROWS_SQL = (
    "SELECT d.uid || '/' || m.number, g.number, t.round, t.number, t.side, a.name, r.number, r.square, r.value, "
    "r.called, r.x_hit, r.outcome FROM matches m CROSS JOIN games g ON g.match_id = m.id "
    "CROSS JOIN turns t ON t.game_id = g.id CROSS JOIN arrows r ON r.turn_id = t.id "
    "JOIN devices d ON d.id = m.device_id LEFT JOIN archers a ON a.id = t.archer_id "
    "ORDER BY m.id, g.number, t.number, r.number"
)

_MATCHES_SQL = (
    "SELECT d.uid, m.number, m.started, m.winner, m.wins_a, m.wins_b, m.draws, m.finished, m.imported, "
    "m.header, m.log, m.extras, "
    "(SELECT json_group_array(name) FROM (SELECT a.name FROM match_archers x JOIN archers a ON a.id = x.archer_id "
    " WHERE x.match_id = m.id AND x.side IN ('A', 'X') ORDER BY x.position)), "
    "(SELECT json_group_array(name) FROM (SELECT a.name FROM match_archers x JOIN archers a ON a.id = x.archer_id "
    " WHERE x.match_id = m.id AND x.side IN ('B', 'O') ORDER BY x.position)), "
    "(SELECT count(*) FROM games g WHERE g.match_id = m.id), "
    "(SELECT count(*) FROM games g JOIN turns t ON t.game_id = g.id JOIN arrows r ON r.turn_id = t.id "
    " WHERE g.match_id = m.id) "
    "FROM matches m JOIN devices d ON d.id = m.device_id ORDER BY m.id"
)


class ImportError_(ScoreboxError):
    """The file cannot be imported; str() says why."""


def _utc(t):
    return _when(t, datetime.timezone.utc, "%Y-%m-%dT%H:%M:%SZ")


def _when(t, tz, fmt):
    """t as date text; None where there is no time or none a calendar has (a clock of 1e300
    stored before import checked it: the raw column keeps the number)."""
    if t is None:
        return None
    try:
        return datetime.datetime.fromtimestamp(t, tz).strftime(fmt)
    except (OverflowError, OSError, ValueError, TypeError):
        return None


def match_rows(db):
    """Each match as a dict for the matches file, in store order."""
    for r in db.execute(_MATCHES_SQL):
        uid, number, started, winner, wa, wb, dr, fin, imported, header, log, extras, sa, sb, games, arrows = r
        if isinstance(started, float) and started.is_integer():
            started = int(started)  # the box's clock is whole seconds (a REAL column)
        sa, sb = json.loads(sa), json.loads(sb)
        yield {
            "match": "%s/%d" % (uid, number),
            "device": uid,
            "number": number,
            "started": started,
            "started_utc": _utc(started),
            "side_a": ",".join(sa) or None,
            "side_b": ",".join(sb) or None,
            "winner": winner,
            "wins_a": wa,
            "wins_b": wb,
            "draws": dr,
            "finished": fin,
            "games": games,
            "arrows": arrows,
            "imported": imported,
            "game": json.loads(header).get("game", "tictacbow"),
            "header": json.loads(header),  # the names as keyed on the box
            "names": [sa, sb],  # as the store names them now: renamed, or named after the match
            "log": json.loads(log),
            "extras": json.loads(extras),
        }


def devices(db):
    return [
        {"uid": u, "name": n, "firmware": f, "first_seen": a, "last_seen": b}
        for u, n, f, a, b in db.execute("SELECT uid, name, firmware, first_seen, last_seen FROM devices ORDER BY id")
    ]


def archers(db):
    """The roster (store/roster.py): every archer, retired or not, with the names they had
    before a rename (which a box may still key, and which the store maps to them)."""
    was = {}
    for old, aid, t in db.execute("SELECT old, archer_id, renamed FROM archer_renames ORDER BY rowid"):
        was.setdefault(aid, []).append({"old": old, "renamed": t})
    return [
        {"name": n, "full_name": f, "retired": r, "added": t, "was": was.get(i, [])}
        for i, n, f, r, t in db.execute("SELECT id, name, full_name, retired, added FROM archers ORDER BY id")
    ]


def quarantine(db):
    return [
        {"device": u, "file": f, "offset": o, "data": base64.b64encode(d).decode("ascii"), "imported": t}
        for u, f, o, d, t in db.execute(
            "SELECT d.uid, q.file, q.offset, q.data, q.imported FROM quarantine q "
            "JOIN devices d ON d.id = q.device_id ORDER BY q.id"
        )
    ]


# --- writing -------------------------------------------------------------------------------
def cell(v):
    """A CSV cell a spreadsheet shows as it is: a text starting like a formula gets a "'"."""
    return "'" + v if isinstance(v, str) and v.startswith(FORMULA_START) else v


class _Csv:
    """csv.writer for rows of cell()s; a row with a CR in a text is written all quoted, as the
    csv module leaves a CR bare when lines end in LF, and a spreadsheet would break the row there."""

    def __init__(self, f):
        self.plain = csv.writer(f, lineterminator="\n")
        self.quoted = csv.writer(f, lineterminator="\n", quoting=csv.QUOTE_ALL)

    def row(self, values):
        row = [cell(v) for v in values]
        cr = any(isinstance(v, str) and "\r" in v for v in row)
        (self.quoted if cr else self.plain).writerow(row)


def _date(t, utc=False):
    """A time as a spreadsheet reads it (YYYY-MM-DD HH:MM:SS), local unless utc."""
    return _when(t, datetime.timezone.utc if utc else None, "%Y-%m-%d %H:%M:%S")


def _open(path):
    return open(path, "w", encoding="utf-8", newline="")


def write_arrows_csv(db, path):
    n = 0
    with _open(path) as f:
        w = _Csv(f)
        w.row(ARROW_COLUMNS)
        cur = db.execute(_ARROWS_SQL)
        while True:
            rows = cur.fetchmany(20000)
            if not rows:
                return n
            for row in rows:
                w.row(row)
            n += len(rows)


def write_arrows_json(db, path):
    """{"format", "version", "columns", "rows": [[...], ...]}: one arrow a line."""
    n = 0
    dumps = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode
    with _open(path) as f:
        f.write('{"format":"%s-arrows","version":%d,"columns":%s,"rows":[' % (FORMAT, VERSION, dumps(ARROW_COLUMNS)))
        cur = db.execute(_ARROWS_SQL)
        sep = "\n"
        while True:
            rows = cur.fetchmany(20000)
            if not rows:
                break
            # One encoder call per batch (C speed), then one row a line.
            text = dumps(rows)[1:-1].replace("],[", "],\n[")
            f.write(sep + text)
            sep = ",\n"
            n += len(rows)
        f.write("\n]}\n")
    return n


def write_matches_csv(db, path):
    n = 0
    with _open(path) as f:
        w = _Csv(f)
        w.row(MATCH_COLUMNS)
        for m in match_rows(db):
            m["started"], m["started_utc"] = _date(m["started"]), _date(m["started"], utc=True)
            m["imported"] = _date(m["imported"])
            w.row([m[k] for k in MATCH_COLUMNS])
            n += 1
    return n


def write_matches_json(db, path):
    """The matches file that `scorebox import` reads: one match a line."""
    n = 0
    dumps = json.JSONEncoder(separators=(",", ":"), sort_keys=True, ensure_ascii=False).encode
    with _open(path) as f:
        f.write('{"format":"%s","version":%d,\n"devices":%s,\n' % (FORMAT, VERSION, dumps(devices(db))))
        f.write('"archers":%s,\n' % dumps(archers(db)))
        f.write('"quarantine":%s,\n"matches":[' % dumps(quarantine(db)))
        sep = "\n"
        for m in match_rows(db):
            f.write(sep + dumps(m))
            sep = ",\n"
            n += 1
        f.write("\n]}\n")
    return n


def export(store, folder, fmt):
    """Write the matches and arrows files into folder; returns {path: rows}."""
    if fmt not in ("csv", "json"):
        raise ValueError("format must be csv or json, not %r" % fmt)
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise files.FileError("%s exists and is not a folder: give a folder with --out" % folder)
    writers = (
        ("matches", write_matches_csv if fmt == "csv" else write_matches_json),
        ("arrows", write_arrows_csv if fmt == "csv" else write_arrows_json),
    )
    for name, _ in writers:  # all checked before either is written
        files.check_target(os.path.join(folder, "%s.%s" % (name, fmt)), _ours(name, fmt), "a Scorebox export")
    out = {}
    for name, writer in writers:
        path = os.path.join(folder, "%s.%s" % (name, fmt))
        tmp = files.temporary(path)
        try:
            rows = writer(store.db, tmp)
        except BaseException:
            files.discard(tmp)
            raise
        files.replace(tmp, path, _ours(name, fmt), "a Scorebox export")  # a file is there whole or not at all
        out[path] = rows
    return out


def _ours(name, fmt):
    """Whether a file's first bytes are an earlier export's (the only file export replaces)."""
    if fmt == "json":
        start = ('{"format":"%s%s",' % (FORMAT, "" if name == "matches" else "-arrows")).encode()
    else:
        start = (",".join((MATCH_COLUMNS if name == "matches" else ARROW_COLUMNS)[:3]) + ",").encode()
    return lambda head: head.startswith(start)


# --- importing -----------------------------------------------------------------------------
def read_matches_file(path):
    if os.path.isdir(path):
        path = os.path.join(path, "matches.json")
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except OSError as e:
        raise ImportError_("%s: cannot read: %s" % (path, e.strerror or e))
    except (ValueError, UnicodeDecodeError) as e:
        raise ImportError_("%s: not a Scorebox matches.json (%s)" % (path, e))
    except RecursionError:
        raise ImportError_("%s: not a Scorebox matches.json (nested too deep)" % path)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ImportError_("%s: not a Scorebox matches.json (format %r)" % (path, FORMAT))
    if data.get("version") != VERSION:
        raise ImportError_("%s: export version %r, this scorebox reads %d" % (path, data.get("version"), VERSION))
    for key in ("devices", "archers", "matches", "quarantine"):
        if not isinstance(data.get(key) or [], list):
            raise ImportError_("%s: %s is not a list" % (path, key))
    try:
        for d in data.get("devices") or []:
            _device(d)
    except Invalid as e:
        raise ImportError_("%s: a box in the file is not valid: %s" % (path, e))
    return path, data


# --- what an import takes: every field's type and range, before anything is stored ----------
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
        raise Invalid("%s is not a time: %s" % (what, _short(v)))
    return v


def _int(v, what, lo, hi):
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise Invalid("%s is not a whole number from %d to %d: %s" % (what, lo, hi, _short(v)))
    return v


def _text(v, what, most=200):
    if not isinstance(v, str) or not v or len(v) > most or not v.isprintable():
        raise Invalid("%s is not a line of text of at most %d characters: %s" % (what, most, _short(v)))
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


def _short(v):
    text = repr(v)
    return text if len(text) <= 40 else text[:37] + "..."


def _pair(v, what):
    """None, or two (None or a length in mm or m: finite, from 0 to 100,000)."""
    if v is None:
        return
    if not isinstance(v, list) or len(v) != 2:
        raise Invalid("%s is not a pair: %s" % (what, _short(v)))
    for x in v:
        if x is not None and (isinstance(x, bool) or not isinstance(x, (int, float)) or not 0 <= x <= 100000):
            raise Invalid("%s holds %s" % (what, _short(x)))


def _device(d):
    if not isinstance(d, dict):
        raise Invalid("not an object: %s" % _short(d))
    _text(d.get("uid"), "uid")
    if d.get("firmware") is not None:
        _text(d["firmware"], "firmware")
    if d.get("name") is not None:  # set on the PC (`scorebox boxes`); not in files before it
        _text(d["name"], "name", BOX_NAME)
    _time(d.get("first_seen"), "first_seen", none=False)
    _time(d.get("last_seen"), "last_seen", none=False)


def check_import(m):
    """Invalid unless m is a match of an export whose every field the store and its readers
    take: (device, number, header, log, extras) when it is."""
    if not isinstance(m, dict):
        raise Invalid("not an object: %s" % _short(m))
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
    skipped = (extras or {}).get("skipped")
    if skipped is not None and (not isinstance(skipped, list) or not all(isinstance(i, int) for i in skipped)):
        raise Invalid("extras skipped is not a list of positions")
    _time(m.get("imported"), "imported")
    return uid, number, h, log, extras


def _key(m, i):
    """How the summary names match i of the file: DEVICE/NUMBER when both can be shown."""
    try:
        return "%s/%d" % (_text(m["device"], "device", 60), _int(m["number"], "number", 0, 2**63))
    except (Invalid, KeyError, TypeError):
        return "match %d of the file" % (i + 1)


def _check_piece(q):
    """(device, file, offset, bytes, imported) of a quarantine piece; Invalid unless sound."""
    if not isinstance(q, dict):
        raise Invalid("not an object: %s" % _short(q))
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


def _check_archer(a):
    """(name, retired, added, [(old name, renamed)], full name) of a roster entry; Invalid unless sound."""
    if not isinstance(a, dict):
        raise Invalid("not an object: %s" % _short(a))
    was = a.get("was")
    if not isinstance(was, list):
        raise Invalid("was is not a list: %s" % _short(was))
    olds = []
    for w in was:
        if not isinstance(w, dict):
            raise Invalid("was holds %s" % _short(w))
        olds.append((_text(w.get("old"), "an old name", 40), _time(w.get("renamed"), "renamed", none=False)))
    return (
        _text(a.get("name"), "name", 40),
        _int(a.get("retired"), "retired", 0, 1),
        _time(a.get("added"), "added"),
        olds,
        None if a.get("full_name") is None else _text(a.get("full_name"), "full_name", roster.FULL_MAX),
    )


class ImportSummary:
    def __init__(self):
        self.stored = 0
        self.held = 0  # already in the store
        self.refused = []  # (match key, why)
        self.unnamed = []  # (match key, why): stored, but the file's names for it could not be set
        self.quarantine = 0

    def lines(self):
        out = ["%s imported, %d already held" % (plural(self.stored, "match", "matches"), self.held)]
        if self.quarantine:
            out.append("%s imported" % plural(self.quarantine, "quarantined piece"))
        for key, why in self.refused[:20]:
            out.append("  %s NOT imported: %s" % (key, why))
        if len(self.refused) > 20:
            out.append("  ... and %d more refused" % (len(self.refused) - 20))
        for key, why in self.unnamed[:20]:
            out.append("  %s stored with the box's names: %s" % (key, why))
        if len(self.unnamed) > 20:
            out.append("  ... and %d more stored with the box's names" % (len(self.unnamed) - 20))
        return out


def import_history(store, data, batch=2000):
    """Put the matches of an export's matches.json into the store, as a sync would (each
    replayed by the rules core), keeping their import times, the boxes' first and last
    sightings and the quarantine. Matches the store already holds are left as they are."""
    s = ImportSummary()
    matches = []
    for i, m in enumerate(data.get("matches") or []):
        try:
            check_import(m)
        except Invalid as e:
            s.refused.append((_key(m, i), str(e)))
            continue
        matches.append(m)
    pieces = []
    for i, q in enumerate(data.get("quarantine") or []):
        try:
            pieces.append(_check_piece(q))
        except Invalid as e:
            s.refused.append(("quarantine piece %d" % (i + 1), str(e)))
    roll = []
    for i, a in enumerate(data.get("archers") or []):
        try:
            roll.append(_check_archer(a))
        except Invalid as e:
            s.refused.append(("archer %d of the file" % (i + 1), str(e)))
    boxes = data.get("devices") or []
    known = {r[0] for r in store.db.execute("SELECT uid FROM devices")}
    for d in boxes:  # first, so that the boxes keep their order
        if d["uid"] not in known:
            store.device(d["uid"], d.get("firmware"))
    _roster(store.db, roll)  # before the matches, so that their keyed names map as they did there
    run, run_uid = [], None

    def flush():
        if not run:
            return
        got = store.add_matches(run_uid, [(m["number"], m["header"], m["log"], m.get("extras")) for m in run])
        fresh = []
        for m, r in zip(run, got):
            if r is True:
                s.stored += 1
                fresh.append(m)
            elif r is False:
                s.held += 1
            else:
                s.refused.append(("%s/%s" % (run_uid, m["number"]), str(r)))
        _keep_times(store.db, run_uid, fresh)
        _set_names(store.db, run_uid, fresh, s)
        del run[:]

    try:
        for m in matches:
            uid = m["device"]
            if uid != run_uid or len(run) >= batch:
                flush()
                run_uid = uid
            run.append(m)
        flush()
        for uid, name, offset, raw, imported in pieces:
            if store.add_quarantine(uid, [(name, offset, raw)]):
                s.quarantine += 1
                store.db.execute(
                    "UPDATE quarantine SET imported = ? WHERE file = ? AND offset = ? AND "
                    "device_id = (SELECT id FROM devices WHERE uid = ?)",
                    (imported, name, offset, uid),
                )
    except (KeyError, TypeError, ValueError) as e:
        raise ImportError_("a match or piece in the file is incomplete: %r" % (e,))
    for d in boxes:
        if d["uid"] in known:  # seen here before: the earliest and the latest of both records, its name here
            store.db.execute(
                "UPDATE devices SET firmware = COALESCE(firmware, ?), first_seen = min(first_seen, ?), "
                "last_seen = max(last_seen, ?), name = COALESCE(name, ?) WHERE uid = ?",
                (d.get("firmware"), d["first_seen"], d["last_seen"], d.get("name"), d["uid"]),
            )
        else:
            store.db.execute(
                "UPDATE devices SET firmware = ?, first_seen = ?, last_seen = ?, name = ? WHERE uid = ?",
                (d.get("firmware"), d["first_seen"], d["last_seen"], d.get("name"), d["uid"]),
            )
    return s


def _roster(db, roll):
    """The file's roster into the store: archers it lacks (any case), as named, retired and
    added there; the names they had before a rename, unless the store maps them already."""
    if not roll:
        return
    db.execute("BEGIN IMMEDIATE")
    try:
        renamed = {r[0].casefold() for r in db.execute("SELECT old FROM archer_renames")}
        for name, retired, added, was, full in roll:
            row = roster.find(db, name)
            if row is None:
                aid = db.execute(
                    "INSERT INTO archers (name, retired, added, full_name) VALUES (?, ?, ?, ?)",
                    (name, retired, added, full),
                ).lastrowid
            else:
                aid = row[0]
            for old, t in was:
                if old.casefold() not in renamed:
                    renamed.add(old.casefold())
                    db.execute("INSERT INTO archer_renames (old, archer_id, renamed) VALUES (?, ?, ?)", (old, aid, t))
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise


def _set_names(db, uid, fresh, s):
    """Name the sides of the matches just stored as the file's store named them (renamed, or
    named after the match: roster.name_match, turns following TTB-2's rotation) where the box's
    names, mapped through the roster, say otherwise."""
    for m in fresh:
        want = m.get("names")
        if want is None:
            continue
        want = want[0] + want[1]
        rows = db.execute(
            "SELECT m.id, a.name FROM matches m LEFT JOIN match_archers x ON x.match_id = m.id "
            "LEFT JOIN archers a ON a.id = x.archer_id WHERE m.device_id = (SELECT id FROM devices WHERE uid = ?) "
            "AND m.number = ? ORDER BY x.side IN ('B', 'O'), x.position",
            (uid, m["number"]),
        ).fetchall()
        if [n.casefold() for _, n in rows if n is not None] == [n.casefold() for n in want]:
            continue
        try:
            roster.name_match(db, rows[0][0], want)
        except StoreError as e:
            s.unnamed.append(("%s/%d" % (uid, m["number"]), str(e)))


def _keep_times(db, uid, fresh):
    if not fresh:
        return
    db.execute("BEGIN IMMEDIATE")
    try:
        db.executemany(
            "UPDATE matches SET imported = ? WHERE number = ? AND device_id = (SELECT id FROM devices WHERE uid = ?)",
            [(m["imported"], m["number"], uid) for m in fresh if m.get("imported") is not None],
        )
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:  # a full disk has rolled it back already: keep its own error
            db.execute("ROLLBACK")
        raise


# --- the commands --------------------------------------------------------------------------
def cmd_export(args):
    store = open_store(args.db)
    got = export(store, args.out, args.format)
    for path, rows in got.items():
        print("%s: %s" % (path, plural(rows, "row")))
    return 0


def cmd_import(args):
    path, data = read_matches_file(args.file)
    store = open_store(args.db, create=True)  # a new PC's first import makes its store
    try:
        s = import_history(store, data)
    except ImportError_ as e:
        raise ImportError_("%s: %s" % (path, e))
    for line in s.lines():
        print(line)
    print("store: %s (%s)" % (store.path, plural(store.count(), "match", "matches")))
    return 1 if s.refused or s.unnamed else 0


def add_parser(sub):
    p = sub.add_parser("export", help="write the store's matches and arrows as CSV or JSON files")
    p.add_argument("--format", choices=("csv", "json"), default="csv", help="file format (default csv)")
    p.add_argument("--out", default="scorebox-export", help="folder for the files (default scorebox-export)")
    p.add_argument("--db", help="store file (default: in your user data folder)")
    p.set_defaults(run=cmd_export)
    i = sub.add_parser("import", help="import an export's matches.json into the store (e.g. on a new PC)")
    i.add_argument("file", help="an export folder or its matches.json")
    i.add_argument("--db", help="store file (default: in your user data folder)")
    i.set_defaults(run=cmd_import)
