"""`scorebox export` and `scorebox import`: the store's history as plain files.

An export is a folder with two files (docs/reports.md):

- `arrows.csv` / `arrows.json`: one row per arrow (match, game, round, turn, side, archer,
  arrow, square, value, called, x_hit, outcome), in play order;
- `matches.csv` / `matches.json`: one row per match. The JSON one also holds what the store
  needs to rebuild itself (each match's header, its events as keyed with the undos, its
  extras, the boxes and the quarantined bytes), so `scorebox import` of it into an empty
  store gives a store whose export is byte for byte the same.

Nothing derived is trusted on import: every match is replayed by the rules core again
(Store.add_matches), exactly as a sync stores it.
"""

import base64
import csv
import datetime
import json
import os

from scorebox.errors import ScoreboxError
from scorebox.store.db import open_store

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

MATCH_COLUMNS = (
    "match",
    "device",
    "number",
    "started",
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
    "imported",
    "header",
    "log",
    "extras",
)

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
    "(SELECT group_concat(name, ',') FROM (SELECT a.name FROM match_archers x JOIN archers a ON a.id = x.archer_id "
    " WHERE x.match_id = m.id AND x.side = 'A' ORDER BY x.position)), "
    "(SELECT group_concat(name, ',') FROM (SELECT a.name FROM match_archers x JOIN archers a ON a.id = x.archer_id "
    " WHERE x.match_id = m.id AND x.side = 'B' ORDER BY x.position)), "
    "(SELECT count(*) FROM games g WHERE g.match_id = m.id), "
    "(SELECT count(*) FROM games g JOIN turns t ON t.game_id = g.id JOIN arrows r ON r.turn_id = t.id "
    " WHERE g.match_id = m.id) "
    "FROM matches m JOIN devices d ON d.id = m.device_id ORDER BY m.id"
)


class ImportError_(ScoreboxError):
    """The file cannot be imported; str() says why."""


def _compact(v):
    return json.dumps(v, separators=(",", ":"), sort_keys=True)


def _utc(t):
    if t is None:
        return None
    return datetime.datetime.fromtimestamp(t, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def match_rows(db):
    """Each match as a dict for the matches file, in store order."""
    for r in db.execute(_MATCHES_SQL):
        uid, number, started, winner, wa, wb, dr, fin, imported, header, log, extras, sa, sb, games, arrows = r
        if isinstance(started, float) and started.is_integer():
            started = int(started)  # the box's clock is whole seconds (a REAL column)
        yield {
            "match": "%s/%d" % (uid, number),
            "device": uid,
            "number": number,
            "started": started,
            "started_utc": _utc(started),
            "side_a": sa,
            "side_b": sb,
            "winner": winner,
            "wins_a": wa,
            "wins_b": wb,
            "draws": dr,
            "finished": fin,
            "games": games,
            "arrows": arrows,
            "imported": imported,
            "header": json.loads(header),
            "log": json.loads(log),
            "extras": json.loads(extras),
        }


def devices(db):
    return [
        {"uid": u, "firmware": f, "first_seen": a, "last_seen": b}
        for u, f, a, b in db.execute("SELECT uid, firmware, first_seen, last_seen FROM devices ORDER BY id")
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
def _open(path):
    return open(path, "w", encoding="utf-8", newline="")


def write_arrows_csv(db, path):
    n = 0
    with _open(path) as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(ARROW_COLUMNS)
        cur = db.execute(_ARROWS_SQL)
        while True:
            rows = cur.fetchmany(20000)
            if not rows:
                return n
            w.writerows(rows)
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
        w = csv.writer(f, lineterminator="\n")
        w.writerow(MATCH_COLUMNS)
        for m in match_rows(db):
            m["header"], m["log"], m["extras"] = _compact(m["header"]), _compact(m["log"]), _compact(m["extras"])
            w.writerow([m[k] for k in MATCH_COLUMNS])
            n += 1
    return n


def write_matches_json(db, path):
    """The matches file that `scorebox import` reads: one match a line."""
    n = 0
    dumps = json.JSONEncoder(separators=(",", ":"), sort_keys=True, ensure_ascii=False).encode
    with _open(path) as f:
        f.write('{"format":"%s","version":%d,\n"devices":%s,\n' % (FORMAT, VERSION, dumps(devices(db))))
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
    os.makedirs(folder, exist_ok=True)
    out = {}
    for name, writer in (
        ("matches", write_matches_csv if fmt == "csv" else write_matches_json),
        ("arrows", write_arrows_csv if fmt == "csv" else write_arrows_json),
    ):
        path = os.path.join(folder, "%s.%s" % (name, fmt))
        tmp = path + ".part"
        rows = writer(store.db, tmp)
        os.replace(tmp, path)  # a file is there whole or not at all
        out[path] = rows
    return out


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
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ImportError_("%s: not a Scorebox matches.json (format %r)" % (path, FORMAT))
    if data.get("version") != VERSION:
        raise ImportError_("%s: export version %r, this scorebox reads %d" % (path, data.get("version"), VERSION))
    return path, data


class ImportSummary:
    def __init__(self):
        self.stored = 0
        self.held = 0  # already in the store
        self.refused = []  # (match key, why)
        self.quarantine = 0

    def lines(self):
        out = ["%d matches imported, %d already held" % (self.stored, self.held)]
        if self.quarantine:
            out.append("%d quarantined pieces imported" % self.quarantine)
        for key, why in self.refused[:20]:
            out.append("  %s NOT imported: %s" % (key, why))
        if len(self.refused) > 20:
            out.append("  ... and %d more refused" % (len(self.refused) - 20))
        return out


def import_history(store, data, batch=2000):
    """Put the matches of an export's matches.json into the store, as a sync would (each
    replayed by the rules core), keeping their import times, the boxes' first and last
    sightings and the quarantine. Matches the store already holds are left as they are."""
    s = ImportSummary()
    matches = data.get("matches") or []
    boxes = data.get("devices") or []
    known = {r[0] for r in store.db.execute("SELECT uid FROM devices")}
    for d in boxes:  # first, so that the boxes keep their order
        if d["uid"] not in known:
            store.device(d["uid"], d.get("firmware"))
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
        del run[:]

    try:
        for m in matches:
            uid = m["device"]
            if uid != run_uid or len(run) >= batch:
                flush()
                run_uid = uid
            run.append(m)
        flush()
        for q in data.get("quarantine") or []:
            raw = base64.b64decode(q["data"])
            if store.add_quarantine(q["device"], [(q["file"], q["offset"], raw)]):
                s.quarantine += 1
                store.db.execute(
                    "UPDATE quarantine SET imported = ? WHERE file = ? AND offset = ? AND "
                    "device_id = (SELECT id FROM devices WHERE uid = ?)",
                    (q["imported"], q["file"], q["offset"], q["device"]),
                )
    except (KeyError, TypeError, ValueError) as e:
        raise ImportError_("a match or piece in the file is incomplete: %r" % (e,))
    for d in boxes:
        if d["uid"] in known:  # seen here before: the earliest and the latest of both records
            store.db.execute(
                "UPDATE devices SET firmware = COALESCE(firmware, ?), first_seen = min(first_seen, ?), "
                "last_seen = max(last_seen, ?) WHERE uid = ?",
                (d.get("firmware"), d["first_seen"], d["last_seen"], d["uid"]),
            )
        else:
            store.db.execute(
                "UPDATE devices SET firmware = ?, first_seen = ?, last_seen = ? WHERE uid = ?",
                (d.get("firmware"), d["first_seen"], d["last_seen"], d["uid"]),
            )
    return s


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
        db.execute("ROLLBACK")
        raise


# --- the commands --------------------------------------------------------------------------
def cmd_export(args):
    store = open_store(args.db)
    got = export(store, args.out, args.format)
    for path, rows in got.items():
        print("%s: %d rows" % (path, rows))
    return 0


def cmd_import(args):
    path, data = read_matches_file(args.file)
    store = open_store(args.db)
    try:
        s = import_history(store, data)
    except ImportError_ as e:
        raise ImportError_("%s: %s" % (path, e))
    for line in s.lines():
        print(line)
    print("store: %s (%d matches)" % (store.path, store.count()))
    return 1 if s.refused else 0


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
