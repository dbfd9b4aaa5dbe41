"""The rules' replay of a match before it is stored: a sync, an import and a restore's
check all store or compare only what the rules core makes of the events the box keyed."""

import hashlib
import json

from scorebox.store.errors import Refused
from scorebox_core.match import TRYTACTOE, from_header, game_of
from scorebox_core.ttb import rules
from scorebox_core.ttb.rules import Match, side_name
from scorebox_core.ttb.rules import Refused as RulesRefused

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
        opts, archers, _ = from_header(header)
    except (KeyError, TypeError, ValueError, IndexError) as e:
        raise Refused("bad match header: %s" % e)
    if not all(isinstance(name, str) and name for side in archers for name in side):
        raise Refused("bad match header: archer names must be text, not %r" % (header.get("archers"),))
    rules_of = Match
    if game_of(header) == TRYTACTOE:  # its own rules: never replayed as Tic Tac BOW
        from scorebox_core.ttt.rules import Game as rules_of
    try:
        return rules_of.replay(log, opts, archers)
    except RulesRefused as e:
        if not from_box and not skipped:
            raise Refused("the rules refuse this match: %s" % e)
        m = rules_of.replay(log, opts, archers, lenient=True)
        if not from_box and m.skipped != list(skipped):
            raise Refused("the rules refuse this match: %s" % e)
        return m
