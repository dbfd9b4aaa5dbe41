"""The Store's interface: every method the commands, sync, reports, the desk and the league call.
access.py's open_store gives one (SQLite's, store/sqlite.py, or PostgreSQL's, store/postgres.py);
nothing outside the store reads a name of it that begins with `_` (tests/pc/test_layers.py), and
both implementations give exactly these methods (tests/pc/test_store_interface.py). Each
implementation's docstrings say the details; here, what each is for.

    with open_store(path) as store:
        with store.transaction():
            ...
"""

from contextlib import AbstractContextManager
from typing import Protocol

from scorebox.store.roster import BOX_MAX


class Store(Protocol):
    path: str  # the store's file, or its URL without the password: for messages
    db: object  # its connection, for database code beside it only (league/db.py)

    # --- the store itself --------------------------------------------------------------------
    def __enter__(self) -> "Store": ...

    def __exit__(self, *exc) -> None:
        """Close."""

    def close(self):
        """Close the connection."""

    def discard_if_empty(self):
        """Close; a store made by this Store that holds nothing is removed (a mistyped --db)."""

    def transaction(self, shared=False) -> AbstractContextManager:
        """One write transaction: all written inside it is stored, or none; inside another, part of it.
        shared: it only adds matches, and may run beside others that do (PostgreSQL's pushes)."""

    def upgrade(self, schema):
        """Bring schema (store/migrate.py's: the store's own as it opens, a league's) up to date."""

    def identity(self):
        """The store's own id: the box it syncs remembers it."""

    def check(self):
        """Problems found in the store itself (empty when it is sound)."""

    def count(self):
        """How many matches it holds."""

    # --- boxes and their matches ---------------------------------------------------------------
    def device(self, uid, firmware=None):
        """The row id of box uid, added or refreshed."""

    def keep_space(self, uid, free, total, fit):
        """What box uid's sync read of its space: free and total bytes, the matches that still fit."""

    def has_match(self, uid, number):
        """Whether match number of box uid is stored."""

    def last_number(self, uid):
        """The highest match number stored from box uid (0: none)."""

    def digests(self, uid, numbers):
        """{number: match_digest} of those of numbers stored from box uid."""

    def add_matches(self, uid, items, from_box=False):
        """Check and store matches [(number, header, log, extras)] in one transaction; per match
        True (stored), False (held already) or the Refused that kept it out."""

    def add_checked(self, uid, checked, quarantine=(), damaged=(), on_stored=None):
        """add_matches for matches already checked, with quarantined bytes; on_stored(first id, last
        id) is called in the same transaction once the new matches are stored."""

    def compile_writes(self):
        """Compile what add_checked runs ahead of its first call (a sync, while the box sends)."""

    def add_quarantine(self, uid, pieces):
        """Keep bytes the box set aside [(file, offset, data)]; how many were new."""

    def matches(self):
        """Every stored match, oldest first, as dicts for listing."""

    def match_flags(self, mid):
        """What the box said of stored match mid beyond its events (confirmed, lost, damaged...)."""

    def boxes(self):
        """[(box uid, name or None, matches, last seen)] of every box the store has met."""

    def box_spaces(self):
        """{box uid: (free bytes, total bytes, matches that fit)} as each box's last sync read them."""

    def box_name(self, uid):
        """Box uid's name, or None."""

    def name_box(self, uid, name):
        """Give box uid a name (None: none)."""

    # --- the roster -----------------------------------------------------------------------------
    def find_archer(self, name):
        """(id, name, retired) of the archer called name in any case, or None."""

    def archers(self, retired=False):
        """The roster's lines: name, retired, matches, last match, full name, home club."""

    def add_archer(self, name):
        """Add an archer (or bring a retired one back); what happened."""

    def rename_archer(self, old, new):
        """Rename an archer: every match follows; (old name, new name)."""

    def set_club(self, name, club):
        """A guest archer's home club (None: the club's own); (name, club)."""

    def guest_clubs(self):
        """{casefolded name: home club} of the guests."""

    def retire_archer(self, name):
        """Retire an archer; their name."""

    def import_members(self, path, confirmed=False, columns=None, boxes=None, preview=False):
        """The MemberList of a CSV file of members, saved unless it needs confirming or is a preview."""

    def box_names(self, limit=BOX_MAX):
        """The names a sync sends to a box, most recently shot first."""

    def merge_from_box(self, names):
        """Add the names on a box that the store lacks; (added, left out)."""

    def name_match(self, match_id, names, add=True):
        """Set who shot a stored match (side A's names, then B's); the names as stored."""

    # --- what the reports read ------------------------------------------------------------------
    def load_match(self, ref):
        """A stored match by store id or DEVICE/NUMBER."""

    def newest_matches(self, n):
        """The n newest matches, newest first."""

    def matches_by_box(self):
        """Every match, box by box in the order of their numbers."""

    def matches_of(self, game, n=None):
        """The matches of one game, oldest first (its n newest)."""

    def match_list(self, archer=None, started=None, game=None, box=None, before=None, n=200):
        """A page of the matches list, newest first, and how many matches pass its filters."""

    def finished_games(self):
        """{match id: games of it that ended}."""

    def totals(self):
        """How much the store holds: matches, games, arrows, boxes; the first and last start."""

    def months(self, shown):
        """The matches but those of ids in shown, summed up by month, newest first."""

    def archer_names(self):
        """{archer id: name}."""

    def match_results(self, only=None):
        """(archer id, side, match winner, matches) for every archer and result."""

    def game_results(self, only=None):
        """(archer id, side, game winner, games) for every archer and result."""

    def arrow_counts(self, only=None):
        """(archer id, square, called, outcome, arrows, sum of values) by archer."""

    def claims_lost(self, only=None):
        """(archer id, claims lost) by archer."""

    def head_to_head(self, only=None):
        """Each archer's record against each opponent."""

    def points_by_match(self, only=None):
        """(archer id, started, match id, arrows, points) per archer and match."""

    # --- events (store/eventsdb.py; their rules are scorebox/events') ----------------------------
    def add_event(self, name, day, game, options, fmt, targets, seeding, time_limit, entrants):
        """Keep a new event with its entrants (lists of archer ids, in seed order); its id."""

    def events(self):
        """Every event, newest day first, with its pairings and how many are settled."""

    def event(self, event_id):
        """One event's row; NotFound when there is none."""

    def event_entrants(self, event_id):
        """[(entrant id, seed, withdrawn or None, [(archer id, name)])] in seed order."""

    def event_pairings(self, event_id):
        """Every pairing of the event in order, with the result of the match that settled it."""

    def add_pairings(self, event_id, rows):
        """Keep pairings drawn: [(round, number, leg, target, entrant a, entrant b or None)]."""

    def attach_match(self, pairing_id, match_id, paper=False, logged=True):
        """Settle a pairing by a stored match (logged when done at the desk)."""

    def seat_pairing(self, pairing_id, target):
        """Move a pairing not yet shot to another target (logged)."""

    def set_pairing_sides(self, pairing_id, entrant_a, entrant_b, what="swap"):
        """Put other entrants in a pairing not yet shot, or make it a bye (logged as what)."""

    def withdraw_entrant(self, event_id, entrant_id, name):
        """Withdraw an entrant (logged)."""

    def log_renamed(self, archer_id, old, new):
        """Keep an archer's rename in the log of each event they are in."""

    def event_log(self, event_id):
        """Every change made to an event, oldest first."""

    def match_pairing(self, match_id):
        """The event and pairing a stored match settles, or None."""

    def match_event_log(self, match_id):
        """The changes made at the desk that concern a stored match."""

    # --- export's reads and import's writes -----------------------------------------------------
    def match_records(self):
        """Each match in store order, as an export writes it."""

    def arrow_batches(self, size=20000):
        """Every arrow in play order, in lists of up to size rows."""

    def device_records(self):
        """Every box's record, as an export writes it."""

    def archer_records(self):
        """The roster, with the names each archer had before a rename."""

    def quarantine_records(self):
        """Every quarantined piece, as an export writes it."""

    def event_records(self):
        """Every event, its entrants, pairings and log, as an export writes them."""

    def import_event(self, d):
        """An export's event, kept unless the store holds it; whether it was new."""

    def device_ids(self):
        """The set of the uids of the boxes the store has met."""

    def import_device(self, d, known):
        """A box's record from an export."""

    def import_roster(self, roll):
        """An export's roster: the archers the store lacks."""

    def keep_import_times(self, uid, times):
        """When matches of box uid were first imported: [(imported, number)]."""

    def match_names(self, uid, number):
        """(store id, the names as stored) of match number of box uid."""

    def import_quarantine(self, uid, name, offset, raw, imported):
        """A quarantined piece from an export; whether it was new."""
