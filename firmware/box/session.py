"""The match being played: the rules core's Match kept in step with the journal.

Every event goes to the journal (flushed) before it is applied, so the journal is the
single truth: after a power cut `resume()` folds the journal's events again and the board
comes back as it was, down to the arrow.

The header's `game` says which game's rules fold the events: the registry
(scorebox_core/games) gives its surface, and only that game's modules are imported.
"""

from scorebox_core import games
from scorebox_core.match import from_header, header
from scorebox_core.sides import Face


class Session:
    def __init__(self, journal, store):
        self.journal = journal
        self.store = store
        self.match = None
        self.number = None
        self.header = None
        self.game = None  # the match's game: its surface (scorebox_core/games)
        self.confirmed = [False, False]
        self.finished = False
        self.skipped = 0  # journal events the rules refused when the match was resumed

    def face(self):
        s = self.store
        return Face(s.get("face_games"), s.get("face_arrows"))

    def start(self, game, opts, archers, dist=(20, 20), unit="yd", shaft=(70, 70)):
        """Open a new match of game (a surface of scorebox_core/games; opts its Options,
        archers its sides' teams) in the journal; returns None or why it cannot (storage full)."""
        face = self.face()
        h = header(opts, archers, dist, unit, shaft, face, game.ID)
        try:
            n = self.journal.start_match(h)
        except Exception as e:  # JournalFull says why (reason), as does an I/O error
            return str(e) or "storage error"
        self.number = n
        self.header = h
        self.game = game
        self.match = games.part(game, "RULES").replay([], opts, archers, face)
        self.confirmed = [False, False]
        self.finished = False
        return None

    def resume(self):
        """Rebuild the open match from the journal; False when there is none."""
        got = self.journal.open_match()
        if not got:
            return False
        n, h, events = got
        self._load(n, h, events)
        self.confirmed = [False, False]
        self.finished = False
        return True

    def resume_unconfirmed(self):
        """After a reboot between the result and both confirmations: bring that match back
        for confirming. False when there is none."""
        u = self.journal.unconfirmed()
        if not u:
            return False
        n, res, confirmed = u
        if isinstance(res, dict) and res.get("abandoned"):
            # Abandoned with nothing in it (box/home.py); the power went before both
            # confirmations were written: there is no result to show, write them now.
            try:
                for side in (0, 1):
                    if not confirmed[side]:
                        self.journal.confirm(side)
            except Exception:
                pass  # the flash will not take them: New match works all the same
            return False
        h, events, _ = self.journal.read_match(n)
        self._load(n, h, events)
        self.confirmed = [bool(confirmed[0]), bool(confirmed[1])]
        self.finished = True
        return True

    def _load(self, n, h, events):
        """The match folded from its journal events. The journal holds only events that
        were applied; one the rules refuse now (a firmware with other rules, damage a CRC
        missed) is left out rather than lose the match (Match.replay lenient: the PC reads
        the match the same way) and counted in self.skipped for the screen."""
        self.game = games.of(h)
        opts, archers, face = from_header(h)
        m = games.part(self.game, "RULES").replay(events, opts, archers, face, True)
        self.skipped = len(m.skipped)
        self.number = n
        self.header = h
        self.match = m

    def shoot(self, ev):
        """Apply event ev (arrow, UNDO, NEW_GAME, NEW_FACE; a Try-Tac-Toe move, MISS, UNDO,
        NEXT_MATCH, END): None, or why it is refused."""
        m = self.match
        why = m.why_not(ev)
        if why:
            return why
        self.journal.append(ev)
        m.apply(ev)
        return None

    def finish(self):
        """Close the match in the journal with its game's result record (once); then the
        game keeps what it keeps on the box (Tic Tac BOW: the face's wear)."""
        if self.finished:
            return
        m = self.match
        rules = games.part(self.game, "RULES")
        self.journal.finish(rules.result(m))
        self.finished = True
        rules.finished(self.store, m)

    def confirm(self, side):
        """A side confirms the match result (both must, before it counts)."""
        if not self.finished:
            self.finish()
        if not self.confirmed[side]:
            self.journal.confirm(side)
            self.confirmed[side] = True
        return self.confirmed[0] and self.confirmed[1]

    def close(self):
        """The match is closed. A game whose surface says LET_GO has its modules go now (the
        menus do without Try-Tac-Toe's 30 KB of tables); another's stay until a match of
        another game starts (box/setup.py): Tic Tac BOW's, dropped here, were kept alive all
        the same and the next match loaded a second copy (bench_app measured it)."""
        g = self.game
        self.match = None
        self.number = None
        self.game = None
        if g is not None:
            from box import games as box_games  # with a match only (app.py _box_part)

            if box_games.of(g).LET_GO:
                games.drop(box_games.package(g))
                games.forget((g.ID,))
