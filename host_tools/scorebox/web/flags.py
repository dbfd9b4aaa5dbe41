"""A match page's confirmations and damage, in words (Store.match_flags: what the box said
of the match beyond its events, docs/journal.md and docs/sync.md)."""

from scorebox.text import plural


def confirmed(flags, sides):
    """ "confirmed by both sides", "confirmed by A, not by B", ...; None when the box said
    nothing of it (a match imported from an older export)."""
    c = flags["confirmed"]
    if not isinstance(c, list) or len(c) != 2:
        return None
    if all(c):
        return "confirmed by both sides (%s and %s)" % tuple(sides)
    if not any(c):
        return "confirmed by neither side"
    yes, no = (sides[0], sides[1]) if c[0] else (sides[1], sides[0])
    return "confirmed by %s, not by %s" % (yes, no)


def damage(flags):
    """What was damaged, a phrase each; empty for a sound match."""
    out = []
    if "header" in flags["lost"]:
        out.append("its header record was lost: stored with the rules' defaults and names that say so")
    if "result" in flags["lost"]:
        out.append("its result record was lost: the result is replayed from its events")
    if flags["damaged"]:
        out.append("%s inside it on the box" % plural(flags["damaged"], "unreadable stretch", "unreadable stretches"))
    if flags["stray"]:
        out.append("%s outside any match beside it" % plural(flags["stray"], "stray record"))
    if flags["skipped"]:
        out.append("%s left out: the box resumed it after a reboot" % plural(len(flags["skipped"]), "refused event"))
    return out
