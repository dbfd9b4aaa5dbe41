"""`scorebox export` and `scorebox import`: the store's history as plain files.

An export is a folder with two files (docs/reports.md):

- `arrows.csv` / `arrows.json`: one row per arrow (match, game, round, turn, side, archer,
  arrow, square, value, called, x_hit, outcome), in play order;
- `matches.csv` / `matches.json`: one row per match. The JSON one also holds what the store
  needs to rebuild itself (each match's header, its events as keyed with the undos, its
  extras, the boxes and the quarantined bytes) and the names set on the PC (each match's
  `names`, the boxes' names, the roster with its renames, the club's events with their
  pairings and log), so `scorebox import` of it into
  an empty store gives a store whose export is byte for byte the same.

Nothing derived is trusted on import: every match is replayed by the rules core again
(Store.add_matches), exactly as a sync stores it.
"""

import csv
import datetime
import json
import operator
import os

from scorebox.errors import ScoreboxError
from scorebox.store import files, imports
from scorebox.store.errors import StoreError
from scorebox.text import plural, said, score_of
from scorebox_core.games import GAMES

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
ARROW_TEXTS = tuple(ARROW_COLUMNS.index(c) for c in ("match", "side", "archer", "outcome"))  # the rest are numbers

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
    "result",  # in words, as every screen gives it (text.said): "X wins 14-11", "draw 2-2", "open"
    "finished",
    "games",
    "arrows",
    "imported",  # local time, as started
    "game",  # tictacbow or try-tac-toe (whose side_a is X, side_b O, games 0: docs/reports.md)
)

# A cell a spreadsheet would run as a formula: these first characters, after
# which the cell is shown as text with a leading apostrophe (OWASP's CSV injection advice).
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


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


class Unreadable(StoreError):
    """A stored match whose JSON cannot be read (a damaged store); str() names it."""


def _read(key, what, text):
    try:
        return json.loads(text)
    except (ValueError, TypeError) as e:
        raise Unreadable("match %s: its %s in the store cannot be read (damaged: %s)" % (key, what, e))


def match_rows(store, unreadable=None):
    """Each match as a dict for the matches file, in store order. A match whose stored JSON
    cannot be read raises Unreadable, or, given unreadable(error), is told to it and left out."""
    for r in store.match_records():
        try:
            row = _match_row(r)
        except Unreadable as e:
            if unreadable is None:
                raise
            unreadable(e)
            continue
        yield row


def _match_row(r):
    uid, number, started, winner, wa, wb, dr, fin, imported, header, log, extras, sa, sb, games, arrows = r
    key = "%s/%d" % (uid, number)
    if isinstance(started, float) and started.is_integer():
        started = int(started)  # the box's clock is whole seconds (a REAL column)
    header = _read(key, "header", header)
    if not isinstance(header, dict):
        raise Unreadable("match %s: its header in the store is not an object (damaged)" % key)
    sa, sb = _read(key, "names", sa), _read(key, "names", sb)
    log, extras = _read(key, "log", log), _read(key, "extras", extras)
    return {
        "match": key,
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
        "game": header.get("game", GAMES[0][0]),  # a header without one: the registry's first
        "header": header,  # the names as keyed on the box
        "names": [sa, sb],  # as the store names them now: renamed, or named after the match
        "log": log,
        "extras": extras,
    }


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

    def rows(self, rows, texts):
        """Rows whose text is only in the columns texts (the others numbers or empty): the
        csv module writes a batch at C speed when none of its texts is formula-like or holds
        a CR, as nearly all are (the texts of an arrows file repeat: a handful of boxes,
        sides, archers and outcomes); a batch with one goes cell by cell."""
        seen = set()
        for i in texts:
            seen.update(map(operator.itemgetter(i), rows))
        if any(isinstance(v, str) and (v.startswith(FORMULA_START) or "\r" in v) for v in seen):
            for r in rows:
                self.row(r)
        else:
            self.plain.writerows(rows)


def _date(t, utc=False):
    """A time as a spreadsheet reads it (YYYY-MM-DD HH:MM:SS), local unless utc."""
    return _when(t, datetime.timezone.utc if utc else None, "%Y-%m-%d %H:%M:%S")


def _open(path):
    return open(path, "w", encoding="utf-8", newline="")


def write_arrows_csv(store, path):
    n = 0
    with _open(path) as f:
        w = _Csv(f)
        w.row(ARROW_COLUMNS)
        for rows in store.arrow_batches():
            w.rows(rows, ARROW_TEXTS)
            n += len(rows)
    return n


def write_arrows_json(store, path):
    """{"format", "version", "columns", "rows": [[...], ...]}: one arrow a line."""
    n = 0
    dumps = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode
    with _open(path) as f:
        f.write('{"format":"%s-arrows","version":%d,"columns":%s,"rows":[' % (FORMAT, VERSION, dumps(ARROW_COLUMNS)))
        sep = "\n"
        for rows in store.arrow_batches():
            # One encoder call per batch (C speed), then one row a line.
            text = dumps(rows)[1:-1].replace("],[", "],\n[")
            f.write(sep + text)
            sep = ",\n"
            n += len(rows)
        f.write("\n]}\n")
    return n


def write_matches_csv(store, path):
    n = 0
    with _open(path) as f:
        w = _Csv(f)
        w.row(MATCH_COLUMNS)
        for m in match_rows(store):
            m["started"], m["started_utc"] = _date(m["started"]), _date(m["started"], utc=True)
            m["imported"] = _date(m["imported"])
            record = m["extras"].get("result") if isinstance(m["extras"], dict) else None
            abandoned = isinstance(record, dict) and bool(record.get("abandoned"))
            m["result"] = said(m["winner"], score_of(record), abandoned)
            w.row([m[k] for k in MATCH_COLUMNS])
            n += 1
    return n


def write_matches_json(store, path):
    """The matches file that `scorebox import` reads: one match a line."""
    n = 0
    dumps = json.JSONEncoder(separators=(",", ":"), sort_keys=True, ensure_ascii=False).encode
    with _open(path) as f:
        f.write('{"format":"%s","version":%d,\n"devices":%s,\n' % (FORMAT, VERSION, dumps(store.device_records())))
        f.write('"archers":%s,\n' % dumps(store.archer_records()))
        f.write('"events":%s,\n' % dumps(store.event_records()))
        f.write('"quarantine":%s,\n"matches":[' % dumps(store.quarantine_records()))
        sep = "\n"
        for m in match_rows(store):
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
            rows = writer(store, tmp)
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
    for key in ("devices", "archers", "matches", "quarantine", "events"):
        if not isinstance(data.get(key) or [], list):
            raise ImportError_("%s: %s is not a list" % (path, key))
    try:
        for d in data.get("devices") or []:
            imports.check_device(d)
    except imports.Invalid as e:
        raise ImportError_("%s: a box in the file is not valid: %s" % (path, e))
    return path, data


class ImportSummary:
    def __init__(self):
        self.stored = 0
        self.held = 0  # already in the store
        self.refused = []  # (match key, why)
        self.unnamed = []  # (match key, why): stored, but the file's names for it could not be set
        self.quarantine = 0
        self.events = 0

    def lines(self):
        out = ["%s imported, %d already held" % (plural(self.stored, "match", "matches"), self.held)]
        if self.quarantine:
            out.append("%s imported" % plural(self.quarantine, "quarantined piece"))
        if self.events:
            out.append("%s imported" % plural(self.events, "event"))
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
            imports.check_import(m)
        except imports.Invalid as e:
            s.refused.append((imports.match_key(m, i), str(e)))
            continue
        matches.append(m)
    pieces = []
    for i, q in enumerate(data.get("quarantine") or []):
        try:
            pieces.append(imports.check_piece(q))
        except imports.Invalid as e:
            s.refused.append(("quarantine piece %d" % (i + 1), str(e)))
    roll = []
    for i, a in enumerate(data.get("archers") or []):
        try:
            roll.append(imports.check_archer(a))
        except imports.Invalid as e:
            s.refused.append(("archer %d of the file" % (i + 1), str(e)))
    boxes = data.get("devices") or []
    known = store.device_ids()
    for d in boxes:  # first, so that the boxes keep their order
        if d["uid"] not in known:
            store.device(d["uid"], d.get("firmware"))
    store.import_roster(roll)  # before the matches, so that their keyed names map as they did there
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
        store.keep_import_times(run_uid, [(m["imported"], m["number"]) for m in fresh if m.get("imported") is not None])
        _set_names(store, run_uid, fresh, s)
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
            s.quarantine += store.import_quarantine(uid, name, offset, raw, imported)
    except (KeyError, TypeError, ValueError) as e:
        raise ImportError_("a match or piece in the file is incomplete: %r" % (e,))
    for d in boxes:
        store.import_device(d, d["uid"] in known)
    for i, e in enumerate(data.get("events") or []):  # after the matches their pairings name
        try:
            imports.check_event(e)
        except imports.Invalid as why:
            s.refused.append(("event %d of the file" % (i + 1), str(why)))
            continue
        for name in {n for x in e["entrants"] for n in x["archers"]}:
            if store.find_archer(name) is None:
                store.add_archer(name)  # a guest of the event the file's roster left out
        s.events += store.import_event(e)
    return s


def _set_names(store, uid, fresh, s):
    """Name the sides of the matches just stored as the file's store named them (renamed, or
    named after the match: Store.name_match, turns following TTB-2's rotation) where the box's
    names, mapped through the roster, say otherwise."""
    for m in fresh:
        want = m.get("names")
        if want is None:
            continue
        want = want[0] + want[1]
        mid, have = store.match_names(uid, m["number"])
        if [n.casefold() for n in have] == [n.casefold() for n in want]:
            continue
        try:
            store.name_match(mid, want)
        except StoreError as e:
            s.unnamed.append(("%s/%d" % (uid, m["number"]), str(e)))
