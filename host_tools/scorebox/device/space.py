"""How many more matches a box holds, from its space report (HELLO's `space`, the box's
Journal.space()): the figure `scorebox sync` and `scorebox doctor` print.

The box divides its free bytes by what a match takes: 256 bytes until it has measured the
finished matches of its newest group file, then their average. A few short matches (a demo
match is about 150 bytes) made the figure jump up by half, to more than the flash holds
with matches of a typical size. So the PC counts 256 bytes a match, or
the box's own average when its matches are larger: the figure only goes down as the flash
fills, never past what 256-byte matches would fill (docs/journal.md, "Capacity").
"""

MATCH_BYTES = 256  # a typical match takes about 220 bytes of flash (docs/journal.md)


def matches_fit(sp):
    """About how many more matches fit, from a box's space report (a dict)."""
    left = sp.get("matches_left", 0)
    per = sp.get("per_match")
    if not isinstance(per, int) or isinstance(per, bool) or per <= 0:
        return left  # an older box's report: its own figure
    return left * per // max(per, MATCH_BYTES)  # its free bytes (left * per) over the larger size


def text(sp):
    """ "3% full, about 5,504 more matches fit" """
    return "%d%% full, about %s more matches fit" % (sp.get("percent_full", 0), format(matches_fit(sp), ","))


def _bytes(v):
    return v if isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 2**40 else None


def kept(sp):
    """(free bytes, total bytes, matches that fit) of a space report, as the store keeps them
    for the Boxes page (Store.keep_space): None for a byte figure the box did not give."""
    blocks, size = _bytes(sp.get("blocks")), _bytes(sp.get("block_size"))
    total = None if blocks is None or size is None else _bytes(blocks * size)
    return _bytes(sp.get("free")), total, matches_fit(sp)
