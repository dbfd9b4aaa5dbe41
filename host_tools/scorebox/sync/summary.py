"""What a sync tells: the progress bar and the summary's lines (`scorebox sync`, the desk's
Sync page), in words, for the sync over the link (sync/pull.py) and the rescue (rescue.py)."""

import sys

from scorebox.device import space
from scorebox.sync.plan import RUN
from scorebox.text import plural, some, told


class Progress:
    """A one-line progress bar on a terminal; silent elsewhere."""

    def __init__(self, total, stream=None):
        self.total = total
        self.stream = stream or sys.stderr
        self.on = total > 30 and self.stream.isatty()

    def show(self, done):
        if self.on:
            width = 30
            full = width * done // max(self.total, 1)
            self.stream.write("\r[%s%s] %d/%d matches" % ("#" * full, "." * (width - full), done, self.total))
            self.stream.flush()

    def end(self):
        if self.on:
            self.stream.write("\n")


class Summary:
    def __init__(self):
        self.device = None
        self.new = []  # (number, result text)
        self.refused = []  # (number, why): left on the box
        self.damaged = []  # (number, why, bytes): kept in the quarantine table, acknowledged
        self.differ = []  # (number, why): the store holds another match by that number: both kept, not acknowledged
        self.acked = 0
        self.quarantined = 0  # pieces of set-aside bytes imported (rescue)
        self.space = None
        self.battery_mv = None  # the box's battery (VSYS) as HELLO said it: the desk's Sync page shows it
        self.firmware = None  # the box's firmware version, as HELLO said it
        self.seconds = 0.0
        self.roster = []  # what became of the roster (push_roster)
        self.foreign = None  # the other store the box belongs to: nothing acknowledged
        self.taken_from = None  # the store the box belonged to before --take-over
        self.restarted = None  # (box's number, base): its journal started again (journal_run)
        self.base = 0  # the store numbers the box's match n base + n (journal_run)
        self.open = False  # a match is still open on the box: it comes with a later sync
        self.restart = None  # the line saying whether the box's app runs again (rescue)
        self.notes = []  # lines of what could not be checked (rescue)

    def heard(self, hello):
        """The box's facts from its HELLO (protocol.check_hello's); returns its device id."""
        self.device, self.firmware = hello["device"], hello.get("firmware")
        self.battery_mv = hello.get("battery_mv")
        self.open = hello.get("open") is True
        return self.device

    def unsettled(self, new, held, given):
        """What a sync's storing left: of new (the numbers it was to store), those not
        stored, left on the box; of held (the store's already), those neither compared nor
        acknowledged (given: the numbers given to acknowledge)."""
        stored = {n for n, _ in self.new} | {d[0] for d in self.damaged}
        for n in sorted(new - stored):
            self.refused.append((n, "not found whole in the box's journal (a damaged record?)"))
        compared = stored | {n for n, _ in self.differ} | given
        for n in sorted(held - compared):
            self.differ.append((n, "held in the store, but not found whole on the box to compare"))

    def add_new(self, number, extras, events):
        """A match newly stored, with its result as the box recorded it."""
        r = (extras or {}).get("result") or {}
        lost = (extras or {}).get("lost")
        if lost and "result" in lost:
            text = "result replayed from its events (%s)" % plural(events, "event")
        elif r.get("abandoned"):  # opened by mistake, nothing in effect: no result (docs/journal.md)
            text = "abandoned (%s)" % plural(events, "event")
        else:
            text = "%s (%s)" % (told(r), plural(events, "event"))
        if lost:
            text += ", stored as damaged: its %s record lost" % " and ".join(lost)
        elif (extras or {}).get("damaged"):
            text += ", with damaged records"
        self.new.append((number, text))

    def lines(self):
        out = ["box %s: %s stored" % (self.device, plural(len(self.new), "new match", "new matches"))]
        if self.restarted:
            n, base = self.restarted
            out.append(
                "  the box's journal was started again (its files wiped, its id kept): its match %d is not the "
                "store's match %d, so its matches are stored as its journal %d, numbered from %d on"
                % (n, n, base // RUN + 1, base + 1)
            )
        for n, text in self.new[:20]:  # `scorebox show` opens the store's number
            stored = " (stored as %d)" % (self.base + n) if self.base else ""
            out.append("  match %d%s: %s" % (n, stored, text))
        if len(self.new) > 20:
            out.append("  ... and %d more" % (len(self.new) - 20))
        for n, why in self.refused:
            out.append("  match %d NOT stored, left on the box: %s" % (n, why))
        for n, why in self.differ:
            out.append("  match %d NOT acknowledged, left on the box: %s" % (n, why))
        for n, why, size in self.damaged:
            out.append(
                "  match %d damaged (%s): its %s kept in the store's quarantine" % (n, why, plural(size, "byte"))
            )
        if self.quarantined:
            out.append(
                "%s of damaged or torn records kept in the store's quarantine" % plural(self.quarantined, "piece")
            )
        if self.open:
            out.append("a match is still open on the box: finish it (or abandon it), then sync again to store it")
        if self.foreign is not None:
            copied = len(self.new) + len(self.damaged)
            out.append(
                "%s: the box belongs to %s; `scorebox sync --take-over` makes this store its own"
                % (
                    "%s copied but NOT acknowledged" % plural(copied, "match", "matches")
                    if copied
                    else "no new match to copy, none acknowledged",
                    "another store (%s)" % self.foreign,
                )
            )
        if self.taken_from is not None:
            out.append("this store took the box over from store %s" % self.taken_from)
        out += self.roster
        if self.space:
            out.append("space on the box: %s" % space.text(self.space))
        out += self.notes
        if self.restart:
            out.append(self.restart)
        return out


def roster_line(names, added, kept=False):
    """The summary's one roster line: the box's list as the sync left it, then the names
    the box brought to the store. Both names, never the added alone: read alone, a list
    of the new names read as the whole roster. kept: the box's own list, left as it is."""
    line = "roster on the box%s: %s" % (" (its store's, left as it is)" if kept else "", plural(len(names), "archer"))
    return line + (": %s" % some(names) if names else "") + added_text(added)


def not_sent(e, added):
    """The line of a roster not sent: the names the merge added to the store are still said."""
    return "roster not sent (the matches are synced): %s" % e + added_text(added)


def added_text(added):
    return "; added to the store from the box: %s" % some(added) if added else ""
