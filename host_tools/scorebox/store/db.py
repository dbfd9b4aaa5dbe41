"""The club's store: every synced match in one SQLite file.

A match is keyed by (device, its number on the device), so it can never be stored twice.
Each match is checked before it is stored by replaying its events with the rules core the
box runs; the events as keyed (undos included) are kept beside the derived games, turns
and arrows, so nothing the box recorded is lost and everything else can be rebuilt.
"""

import hashlib
import itertools
import json
import os
import sqlite3
import time

from scorebox.errors import ScoreboxError
from scorebox.store import lock
from scorebox_core.match import TICTACBOW, TRYTACTOE, effective, from_header, game_of
from scorebox_core.ttb import rules
from scorebox_core.ttb.rules import Match, Refused, rotation, side_name

SCHEMA_VERSION = 5

# Migration N takes a store from user_version N-1 to N. Append, never edit.
MIGRATIONS = [
    """
    CREATE TABLE devices (
        id INTEGER PRIMARY KEY,
        uid TEXT NOT NULL UNIQUE,
        firmware TEXT,
        first_seen REAL NOT NULL,
        last_seen REAL NOT NULL
    );
    CREATE TABLE archers (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE
    );
    CREATE TABLE matches (
        id INTEGER PRIMARY KEY,
        device_id INTEGER NOT NULL REFERENCES devices(id),
        number INTEGER NOT NULL,
        started REAL,
        options TEXT NOT NULL,
        header TEXT NOT NULL,
        log TEXT NOT NULL,
        extras TEXT NOT NULL,
        winner TEXT,
        wins_a INTEGER NOT NULL,
        wins_b INTEGER NOT NULL,
        draws INTEGER NOT NULL,
        finished INTEGER NOT NULL,
        imported REAL NOT NULL,
        UNIQUE (device_id, number)
    );
    CREATE TABLE match_archers (
        match_id INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
        side TEXT NOT NULL,
        position INTEGER NOT NULL,
        archer_id INTEGER NOT NULL REFERENCES archers(id),
        distance REAL,
        shaft_mm REAL,
        PRIMARY KEY (match_id, side, position)
    );
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        match_id INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
        number INTEGER NOT NULL,
        first TEXT NOT NULL,
        winner TEXT,
        reason TEXT,
        rounds INTEGER NOT NULL,
        UNIQUE (match_id, number)
    );
    CREATE TABLE turns (
        id INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        number INTEGER NOT NULL,
        round INTEGER NOT NULL,
        side TEXT NOT NULL,
        archer_id INTEGER REFERENCES archers(id),
        UNIQUE (game_id, number)
    );
    CREATE TABLE arrows (
        turn_id INTEGER NOT NULL REFERENCES turns(id) ON DELETE CASCADE,
        number INTEGER NOT NULL,
        square INTEGER,
        value INTEGER NOT NULL,
        called INTEGER NOT NULL,
        x_hit INTEGER,
        outcome TEXT NOT NULL,
        PRIMARY KEY (turn_id, number)
    ) WITHOUT ROWID;
    CREATE INDEX turns_by_archer ON turns(archer_id);
    """,
    """
    CREATE TABLE quarantine (
        id INTEGER PRIMARY KEY,
        device_id INTEGER NOT NULL REFERENCES devices(id),
        file TEXT NOT NULL,
        offset INTEGER NOT NULL,
        data BLOB NOT NULL,
        imported REAL NOT NULL,
        UNIQUE (device_id, file, offset, data)
    );
    """,
    # The club's roster (store/roster.py): a retired archer leaves the box's list, keeps history.
    """
    ALTER TABLE archers ADD COLUMN retired INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE archers ADD COLUMN added REAL;
    CREATE TABLE archer_renames (
        old TEXT NOT NULL,
        archer_id INTEGER NOT NULL REFERENCES archers(id),
        renamed REAL NOT NULL
    );
    """,
    # The store's identity, made once (issue 13, item 20): a box acknowledges only to the
    # store it belongs to (sync/pull.py). A box's name, set by `scorebox boxes` (issue 12).
    """
    CREATE TABLE store_info (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    INSERT INTO store_info (key, value) VALUES ('id', lower(hex(randomblob(8))));
    ALTER TABLE devices ADD COLUMN name TEXT;
    """,
    # An archer's full name from a member list, beside the box's name made from it (#21 item 6).
    """
    ALTER TABLE archers ADD COLUMN full_name TEXT;
    """,
]


class StoreError(ScoreboxError):
    """The store cannot do what was asked; str() says why."""


KEPT_EXTRAS = ("result", "confirmed", "notes", "damaged", "stray")  # what the store keeps of a box's match extras


def match_digest(header, log):
    """A hash of a match's header and events as keyed: two copies of a match by the same
    number are the same match only when these are equal (checked before acknowledging)."""
    return hashlib.sha256(json.dumps([header, log], sort_keys=True).encode()).hexdigest()


def schema(db):
    """{(type, name): SQL} of every object in db: tables, indexes, triggers, views (SQLite's
    query-planner statistics aside), whitespace normalised."""
    rows = db.execute("SELECT type, name, sql FROM sqlite_master").fetchall()
    return {(t, n): sql and " ".join(sql.split()) for t, n, sql in rows if not n.startswith("sqlite_stat")}


def schema_problems(db):
    """What in db's schema is not exactly what this scorebox's migrations make for its
    version: a trigger, a view, another table or index, a table with other columns
    (issue 13: a backup carrying triggers that rewrite arrows). Empty when it is ours."""
    version = min(db.execute("PRAGMA user_version").fetchone()[0], SCHEMA_VERSION)
    mem = sqlite3.connect(":memory:")
    try:
        for migration in MIGRATIONS[:version]:
            mem.executescript(migration)
        want = schema(mem)
    finally:
        mem.close()
    have = schema(db)
    out = ["%s %s is not part of a Scorebox store" % k for k in sorted(set(have) - set(want))]
    out += ["no %s %s" % k for k in sorted(set(want) - set(have))]
    out += [
        "%s %s is not as a Scorebox store makes it" % k for k in sorted(set(want) & set(have)) if want[k] != have[k]
    ]
    return out


def default_path():
    """The store in the user's data directory (platformdirs where installed)."""
    try:
        from platformdirs import user_data_dir

        base = user_data_dir("scorebox", appauthor=False)
    except ImportError:
        base = os.path.join(os.path.expanduser("~"), ".local", "share", "scorebox")
    return os.path.join(base, "scorebox.sqlite")


def no_store(path):
    """The one line for a store that is not there."""
    return "no store at %s: check --db, or run scorebox sync first" % path


def open_store(path=None, create=False):
    """The store at path (a command's --db), or the user's own. Only a command that writes
    makes a new one: one that reads refuses a mistyped --db rather than read an empty store."""
    return Store(path or default_path(), create=create)


class Store:
    def __init__(self, path, create=True):
        self.path = path
        self.new = not os.path.lexists(path)  # made here: discard_if_empty() may take it back
        if not create and not os.path.exists(path):  # a link to nothing too: SQLite would make its target
            raise StoreError(no_store(path))
        d = os.path.dirname(os.path.abspath(path))
        self._made, up = None, d  # the highest folder made for it, if any
        while not os.path.exists(up) and os.path.dirname(up) != up:
            self._made, up = up, os.path.dirname(up)
        try:
            os.makedirs(d, exist_ok=True)
        except OSError as e:
            raise StoreError("%s: cannot make its folder: %s" % (path, e.strerror or e))
        try:
            # Transactions by hand; a store another program writes is waited for (store/lock.py).
            self.db = sqlite3.connect(path, isolation_level=None, timeout=lock.TRY, factory=lock.Connection)
            self.db.store = path
            self.db.execute("PRAGMA foreign_keys = ON")
            # WAL. SQLite's busy wait does not cover this switch: a new store that another
            # command is switching at the same moment is "locked", waited for like any lock.
            self.db.execute("PRAGMA journal_mode = WAL")
            self._migrate()
        except sqlite3.DatabaseError as e:
            if isinstance(e, sqlite3.OperationalError) and ("readonly" in str(e) or "unable to open" in str(e)):
                # a read-only store or folder (#13 item 18): SQLite writes beside the store even to read it
                raise StoreError(
                    "%s: cannot write the store or its folder (%s): every command needs both writable" % (path, e)
                )
            raise StoreError("%s: not a Scorebox store (%s)" % (path, e))

    def close(self):
        self.db.close()

    def discard_if_empty(self):
        """Close; a store this Store made that still holds nothing (a sync no box answered)
        is removed, with the folders made for it, so a mistyped --db leaves nothing behind."""
        tables = [r[0] for r in self.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        empty = self.new and not any(
            self.db.execute('SELECT 1 FROM "%s" LIMIT 1' % t).fetchone() for t in tables if t != "store_info"
        )
        self.close()
        if not empty:
            return
        for suffix in ("", "-wal", "-shm", "-journal"):
            try:
                os.remove(self.path + suffix)
            except FileNotFoundError:
                pass
        d = os.path.dirname(os.path.abspath(self.path))
        while self._made and len(d) >= len(self._made):
            try:
                os.rmdir(d)  # only while empty: nothing of anyone else's goes
            except OSError:
                return
            d = os.path.dirname(d)

    def _rollback(self, e):
        """End a failed write transaction. SQLite has already rolled it back after a full
        disk (a second ROLLBACK would hide why with "no transaction is active"); a store
        that cannot be written becomes one StoreError line (issue 13, item 18)."""
        if self.db.in_transaction:
            self.db.execute("ROLLBACK")
        if isinstance(e, sqlite3.OperationalError) and ("full" in str(e) or "readonly" in str(e)):
            raise StoreError(
                "%s: cannot write the store (%s): free disk space or check the file's permissions, "
                "then try again; nothing was stored" % (self.path, e)
            )

    def _migrate(self):
        have = self.db.execute("PRAGMA user_version").fetchone()[0]
        if have > SCHEMA_VERSION:
            raise StoreError(
                "%s: store schema %d is newer than this scorebox (%d): upgrade scorebox"
                % (self.path, have, SCHEMA_VERSION)
            )
        for version in range(have + 1, SCHEMA_VERSION + 1):
            self.db.execute("BEGIN IMMEDIATE")
            # Read again inside the write transaction: another command opening the same new
            # store may have migrated it meanwhile (issue 13, item 17).
            if self.db.execute("PRAGMA user_version").fetchone()[0] >= version:
                self.db.execute("COMMIT")
                continue
            try:
                for stmt in MIGRATIONS[version - 1].split(";"):
                    if stmt.strip():
                        self.db.execute(stmt)
                self.db.execute("PRAGMA user_version = %d" % version)
                self.db.execute("COMMIT")
            except BaseException as e:
                self._rollback(e)
                raise

    # --- writing -----------------------------------------------------------------------
    def device(self, uid, firmware=None):
        """The row id of a device, added or refreshed."""
        now = time.time()
        self.db.execute(
            "INSERT INTO devices (uid, firmware, first_seen, last_seen) VALUES (?, ?, ?, ?) "
            "ON CONFLICT(uid) DO UPDATE SET last_seen = excluded.last_seen, "
            "firmware = COALESCE(excluded.firmware, devices.firmware)",
            (uid, firmware, now, now),
        )
        return self.db.execute("SELECT id FROM devices WHERE uid = ?", (uid,)).fetchone()[0]

    def has_match(self, uid, number):
        row = self.db.execute(
            "SELECT 1 FROM matches m JOIN devices d ON d.id = m.device_id WHERE d.uid = ? AND m.number = ?",
            (uid, number),
        ).fetchone()
        return row is not None

    def last_number(self, uid):
        """The highest match number stored from box uid (0: none)."""
        q = "SELECT max(m.number) FROM matches m JOIN devices d ON d.id = m.device_id WHERE d.uid = ?"
        return self.db.execute(q, (uid,)).fetchone()[0] or 0

    def digests(self, uid, numbers):
        """{number: match_digest} of the matches of numbers the store holds from box uid."""
        out = {}
        q = (
            "SELECT m.number, m.header, m.log FROM matches m JOIN devices d ON d.id = m.device_id "
            "WHERE d.uid = ? AND m.number IN (%s)"
        )
        numbers = [n for n in numbers if isinstance(n, int) and -(2**63) <= n < 2**63]
        for i in range(0, len(numbers), 500):  # SQLite's limit on parameters
            part = numbers[i : i + 500]
            for n, header, log in self.db.execute(q % ",".join("?" * len(part)), [uid] + part):
                try:
                    out[n] = match_digest(json.loads(header), json.loads(log))
                except ValueError:  # an unreadable row: never the same as the box's
                    out[n] = None
        return out

    def add_match(self, uid, number, header, log, extras=None):
        """Check a match by replaying it, then store it. Returns False when (uid, number)
        is already stored: a second sync adds nothing. StoreError when the rules refuse it."""
        (got,) = self.add_matches(uid, [(number, header, log, extras)])
        if isinstance(got, StoreError):
            raise got
        return got

    def add_matches(self, uid, items, from_box=False):
        """Check and store several matches [(number, header, log, extras)] in one
        transaction (one disk sync for the lot). Returns, per match, True (stored), False
        (already held) or the StoreError that kept it out; the others are stored all the
        same. from_box: read refused events as the box does on resume (check_match)."""
        return self.add_checked(uid, [check(*item, from_box=from_box) for item in items])[0]

    def add_checked(self, uid, checked, quarantine=(), damaged=()):
        """add_matches for matches check() has already replayed, with bytes for the
        quarantine table [(file, offset, data)] in the same transaction: quarantine,
        unreadable stretches, and damaged, the bytes of matches that cannot be stored.
        Returns (per match True, False or StoreError; how many quarantine pieces were new)."""
        out = []
        self.db.execute("BEGIN IMMEDIATE")
        try:
            dev = self.device(uid)
            added = self._quarantine(dev, quarantine)
            self._quarantine(dev, damaged)
            rows = _Rows(self.db)
            seen = set()
            for c in checked:
                if isinstance(c, StoreError):
                    out.append(c)
                    continue
                if (
                    c.number in seen
                    or self.db.execute(
                        "SELECT 1 FROM matches WHERE device_id = ? AND number = ?", (dev, c.number)
                    ).fetchone()
                ):
                    out.append(False)
                    continue
                seen.add(c.number)
                rows.add(dev, c)
                out.append(True)
            rows.write()
            self.db.execute("COMMIT")
        except BaseException as e:
            self._rollback(e)
            raise
        return out, added

    # --- reading -----------------------------------------------------------------------
    def matches(self):
        """Stored matches, oldest first, as dicts for listing."""
        rows = self.db.execute(
            "SELECT m.id, d.uid, m.number, m.started, m.winner, m.wins_a, m.wins_b, m.draws, m.finished, "
            "(SELECT group_concat(a.name, ',') FROM match_archers x JOIN archers a ON a.id = x.archer_id "
            " WHERE x.match_id = m.id AND x.side IN ('A', 'X')), "
            "(SELECT group_concat(a.name, ',') FROM match_archers x JOIN archers a ON a.id = x.archer_id "
            " WHERE x.match_id = m.id AND x.side IN ('B', 'O')), "
            "(SELECT count(*) FROM games g WHERE g.match_id = m.id), "
            "(SELECT count(*) FROM arrows r JOIN turns t ON t.id = r.turn_id JOIN games g ON g.id = t.game_id "
            " WHERE g.match_id = m.id), "
            "coalesce(json_extract(m.header, '$.game'), '%s'), d.name, json_extract(m.extras, '$.result.abandoned') "
            "FROM matches m JOIN devices d ON d.id = m.device_id ORDER BY m.id" % TICTACBOW
        ).fetchall()
        keys = ("id", "device", "number", "started", "winner", "wins_a", "wins_b", "draws", "finished")
        out = []
        for r in rows:
            d = dict(zip(keys, r[:9]))
            # A Try-Tac-Toe game: side_a is X, side_b O; wins_a/wins_b its matches won (TTT-6).
            d.update(side_a=r[9], side_b=r[10], games=r[11], arrows=r[12], game=r[13], box_name=r[14])
            d["abandoned"] = bool(r[15])  # opened by mistake, given up with nothing in it
            if d["game"] == TRYTACTOE:
                log = json.loads(self.db.execute("SELECT log FROM matches WHERE id = ?", (d["id"],)).fetchone()[0])
                d["moves"] = sum(1 for e in effective(log) if e <= MISS)  # marks and misses
            out.append(d)
        return out

    def add_quarantine(self, uid, pieces):
        """Keep bytes the box set aside (file, offset, data); returns how many were new."""
        return self.add_checked(uid, [], pieces)[1]

    def _quarantine(self, dev, pieces):
        before = self.db.total_changes
        self.db.executemany(
            "INSERT OR IGNORE INTO quarantine (device_id, file, offset, data, imported) VALUES (?, ?, ?, ?, ?)",
            [(dev, name, off, raw, time.time()) for name, off, raw in pieces],
        )
        return self.db.total_changes - before

    def count(self):
        return self.db.execute("SELECT count(*) FROM matches").fetchone()[0]

    def identity(self):
        """The store's own id, made once by its migration: the box it syncs remembers it."""
        return self.db.execute("SELECT value FROM store_info WHERE key = 'id'").fetchone()[0]

    def boxes(self):
        """[(device id, name or None, matches, last seen)] of every box the store has met."""
        return self.db.execute(
            "SELECT d.uid, d.name, (SELECT count(*) FROM matches m WHERE m.device_id = d.id), d.last_seen "
            "FROM devices d ORDER BY d.uid"
        ).fetchall()

    def box_name(self, uid):
        row = self.db.execute("SELECT name FROM devices WHERE uid = ?", (uid,)).fetchone()
        return row[0] if row else None

    def name_box(self, uid, name):
        """Give box uid a name (None: none); StoreError if the store never met it."""
        cur = self.db.execute("UPDATE devices SET name = ? WHERE uid = ?", (name, uid))
        if not cur.rowcount:
            raise StoreError("no box %s in %s: `scorebox boxes` lists them" % (uid, self.path))

    def check(self):
        """Problems found by SQLite's own checks (empty when the store is sound)."""
        problems = [r[0] for r in self.db.execute("PRAGMA integrity_check") if r[0] != "ok"]
        problems += ["foreign key: %s" % (r,) for r in self.db.execute("PRAGMA foreign_key_check")]
        return problems


MISS = 128  # scorebox_core.ttt.rules.MISS: the highest move event


class _Rows:
    """The rows of a batch of matches, written with one executemany per table. Row ids
    are given here, not by SQLite, so that children can name their parents; this runs
    inside add_matches' write transaction, so nobody else takes an id meanwhile."""

    def __init__(self, db):
        self.db = db
        # Names are one archer whatever their case (store/roster.py): "ann" on a box is Ann; a
        # name an archer had before a rename is still theirs, unless another archer has it now.
        self.archer_ids = {n.casefold(): i for n, i in db.execute("SELECT old, archer_id FROM archer_renames")}
        self.archer_ids.update(
            (n.casefold(), i) for n, i in db.execute("SELECT name, id FROM archers ORDER BY id DESC")
        )
        self.new_archers = []
        self.next = {t: db.execute("SELECT COALESCE(MAX(id), 0) FROM " + t).fetchone()[0] for t in TABLES}
        self.matches, self.match_archers, self.games, self.turns = [], [], [], []
        self.arrows = []  # per game: (turn ids, numbers in turn, events, outcomes), zipped on write
        self.now = time.time()

    def _id(self, table):
        self.next[table] += 1
        return self.next[table]

    def _archer(self, name):
        aid = self.archer_ids.get(name.casefold())
        if aid is None:
            aid = self.archer_ids[name.casefold()] = self._id("archers")
            self.new_archers.append((aid, name))
        return aid

    def add(self, dev, c):
        mid = self._id("matches")
        self.matches.append((mid, dev) + c.row + (self.now,))
        ids = ([], [])
        for side in (0, 1):
            for pos, name in enumerate(c.archers[side]):
                aid = self._archer(name)
                ids[side].append(aid)
                self.match_archers.append((mid, c.sides[side], pos, aid, c.distance[side], c.shaft_mm[side]))
        done = [0, 0]  # turns completed per side, across games: the archer rotation (TTB-2)
        for gno, (first, winner, reason, rounds, turns, events, outcomes) in enumerate(c.games, 1):
            gid = self._id("games")
            self.games.append((gid, mid, gno, first, winner, reason, rounds))
            tids, nums = [], []
            for tno, (side, n) in enumerate(turns, 1):
                tid = self._id("turns")
                self.turns.append(
                    (tid, gid, tno, (tno + 1) // 2, rules.SIDES[side], ids[side][rotation(done[side], len(ids[side]))])
                )
                done[side] += 1
                tids += [tid] * n
                nums += range(1, n + 1)
            self.arrows.append((tids, nums, events, outcomes))

    def write(self):
        db = self.db
        db.executemany("INSERT INTO archers (id, name) VALUES (?, ?)", self.new_archers)
        db.executemany("INSERT INTO matches VALUES (%s)" % ", ".join("?" * 14), self.matches)
        db.executemany("INSERT INTO match_archers VALUES (?, ?, ?, ?, ?, ?)", self.match_archers)
        db.executemany("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?)", self.games)
        db.executemany("INSERT INTO turns VALUES (?, ?, ?, ?, ?, ?)", self.turns)
        # An arrow goes in as its event and outcome; SQLite takes the columns apart, so
        # no Python runs per arrow (the layout of an event: ttb/rules.py).
        db.executemany(ARROW_INSERT, itertools.chain.from_iterable(zip(*a) for a in self.arrows))


TABLES = ("archers", "matches", "games", "turns")
ARROW_INSERT = (
    "INSERT INTO arrows VALUES (?1, ?2, NULLIF(?3 >> 2 & 15, 0), "
    "CASE WHEN ?3 >> 6 = %(hit)d THEN ?3 & 3 ELSE 0 END, ?3 >> 6 = %(called)d, "
    "CASE WHEN ?3 >> 6 = %(called)d THEN ?3 & 1 END, "
    "CASE ?4 %(outcomes)s END)"
    % {
        "hit": rules.HIT,
        "called": rules.CALLED,
        "outcomes": " ".join("WHEN %d THEN '%s'" % kv for kv in enumerate(rules.OUTCOMES)),
    }
)


class Checked:
    """A match the rules core has replayed, reduced to what the store writes: plain
    data, so that a worker process can make it and hand it over (pickled) cheaply."""

    def __init__(self, number, header, log, extras, match):
        self.number = number
        self.extras = dict(extras, skipped=match.skipped) if match.skipped else extras
        self.log_len = len(log)
        self.archers = match.archers if hasattr(match, "archers") else match.players
        self.distance = header.get("distance") or [None, None]
        self.shaft_mm = header.get("shaft_mm") or [None, None]
        # the matches table's columns but id, device_id and imported: these six, then the result's
        head = (
            number,
            header.get("clock"),
            json.dumps(match.opts.to_dict(), sort_keys=True),
            json.dumps(header, sort_keys=True),
            json.dumps(log),
            json.dumps(self.extras, sort_keys=True),
        )
        if getattr(match, "GAME", None) == TRYTACTOE:
            self._ttt(head, match)
            return
        self.sides = rules.SIDES
        self.row = head + (
            side_name(match.result()),
            match.wins[0],
            match.wins[1],
            match.draws,
            1 if match.over() else 0,
        )
        self.games = [
            (
                rules.SIDES[g.first],
                side_name(g.winner),
                g.reason,
                g.rounds_played(),
                [(side, end - start) for side, start, end in g.turn_bounds()],
                bytes(g.arrows),  # arrow events are < 256
                bytes(g.outcomes),
            )
            for g in match.games
        ]

    def _ttt(self, head, game):
        """A Try-Tac-Toe game (docs/reports.md): its moves stay in the match's log (no
        games, turns or arrows rows: those are Tic Tac BOW's); the row holds the game's
        winner (X, O or draw, TTT-6), the matches each side won and the drawn ones, and
        its archers sit on sides X and O."""
        from scorebox_core.ttt.rules import side_name as ttt_side

        self.sides = ("X", "O")
        scores = [(m.score(0), m.score(1)) for m in game.matches if m.over()]
        self.row = head + (
            ttt_side(game.winner()),
            sum(x > o for x, o in scores),
            sum(o > x for x, o in scores),
            sum(x == o for x, o in scores),
            1 if game.over() else 0,
        )
        self.games = []


def check(number, header, log, extras=None, from_box=False):
    """Checked, or the StoreError that says why the rules refuse the match."""
    extras = extras or {}
    try:
        return Checked(number, header, log, extras, check_match(header, log, from_box, extras.get("skipped")))
    except StoreError as e:
        return e


def check_match(header, log, from_box=False, skipped=None):
    """Replay a match's events with the rules core; StoreError says what is wrong.

    from_box: a log the rules refuse is read as the box resumed it after a reboot
    (Match.replay lenient: refused events left out, their positions in match.skipped, kept
    in the match's extras), so that box and PC agree. Otherwise (an import) refused events
    are an error, unless `skipped` (from the match's extras) says they were left out on the
    box, at those very positions."""
    try:
        opts, archers, _ = from_header(header)
    except (KeyError, TypeError, ValueError, IndexError) as e:
        raise StoreError("bad match header: %s" % e)
    if not all(isinstance(name, str) and name for side in archers for name in side):
        raise StoreError("bad match header: archer names must be text, not %r" % (header.get("archers"),))
    rules_of = Match
    if game_of(header) == TRYTACTOE:  # its own rules: never replayed as Tic Tac BOW
        from scorebox_core.ttt.rules import Game as rules_of
    try:
        return rules_of.replay(log, opts, archers)
    except Refused as e:
        if not from_box and not skipped:
            raise StoreError("the rules refuse this match: %s" % e)
        m = rules_of.replay(log, opts, archers, lenient=True)
        if not from_box and m.skipped != list(skipped):
            raise StoreError("the rules refuse this match: %s" % e)
        return m
