"""The rules' replay of a match before it is stored: a sync, an import and a restore's
check all store or compare only what the rules core makes of the events the box keyed."""

import hashlib
import json

from scorebox.store.errors import Refused
from scorebox_core import games
from scorebox_core.match import from_header
from scorebox_core.sides import Refused as RulesRefused

KEPT_EXTRAS = ("result", "confirmed", "notes", "damaged", "stray")  # what the store keeps of a box's match extras


def match_digest(header, log):
    """A hash of a match's header and events as keyed: two copies of a match by the same
    number are the same match only when these are equal (checked before acknowledging)."""
    return hashlib.sha256(json.dumps([header, log], sort_keys=True).encode()).hexdigest()


class Checked:
    """A match the rules core has replayed, reduced to what the store writes: plain
    data, so that a worker process can make it and hand it over (pickled) cheaply."""

    def __init__(self, number, header, log, extras, match):
        self.number = number
        self.extras = dict(extras, skipped=match.skipped) if match.skipped else extras
        if not isinstance(extras.get("result"), dict):
            # none kept (lost, or an import without one): the rules core's of the events, whose
            # score the words of its result read (text.said; the box's own is kept as it is)
            self.extras = dict(self.extras, result=games.part(games.get(match.GAME), "RULES").result(match))
        self.log_len = len(log)
        self.archers = match.archers
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
        # what the match's game writes of it (its surface's STORE): the sides' letters, the
        # result's columns, its games' rows (none for a game whose moves stay in the log)
        self.sides, result, self.games = games.part(games.get(match.GAME), "STORE").rows(match)
        self.row = head + result


def check(number, header, log, extras=None, from_box=False):
    """Checked, or the Refused (a StoreError) that says why the rules refuse the match."""
    extras = extras or {}
    try:
        return Checked(number, header, log, extras, check_match(header, log, from_box, extras.get("skipped")))
    except Refused as e:
        return e


def check_match(header, log, from_box=False, skipped=None):
    """Replay a match's events with the rules core; Refused says what is wrong.

    from_box: a log the rules refuse is read as the box resumed it after a reboot
    (Match.replay lenient: refused events left out, their positions in match.skipped, kept
    in the match's extras), so that box and PC agree. Otherwise (an import) refused events
    are an error, unless `skipped` (from the match's extras) says they were left out on the
    box, at those very positions."""
    try:
        opts, archers, face = from_header(header)
    except (KeyError, TypeError, ValueError, IndexError) as e:
        raise Refused("bad match header: %s" % e)
    if not all(isinstance(name, str) and name for side in archers for name in side):
        raise Refused("bad match header: archer names must be text, not %r" % (header.get("archers"),))
    rules = games.part(games.of(header), "RULES")  # each game by its own rules
    try:
        return rules.replay(log, opts, archers, face)
    except RulesRefused as e:
        if not from_box and not skipped:
            raise Refused("the rules refuse this match: %s" % e)
        m = rules.replay(log, opts, archers, face, lenient=True)
        if not from_box and m.skipped != list(skipped):
            raise Refused("the rules refuse this match: %s" % e)
        return m
