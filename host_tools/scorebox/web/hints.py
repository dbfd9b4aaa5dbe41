"""The commands' lines as the desk says them. A store's, an import's or a sync's line is
written for a terminal: where it tells its reader a command to run ("give its id from
`scorebox matches`", "--add adds them"), the desk's page says what to do on the desk instead,
with a link to the page that does it. The rest of the line is the command's own, escaped."""

import re

from flask import url_for
from markupsafe import Markup, escape

# (a command's hint in a line, what the desk says instead: its words, where the link goes
# in them as {}, and the link's page and text; None: words without a link)
HINTS = (
    (
        r" \(give its id from `scorebox matches`, or DEVICE/NUMBER\)",
        ": pick one on {}",
        ("matches.matches", "the Matches page"),
    ),
    (r" \(see `scorebox archers list`\)", ": {} lists who is there", ("archers.archers", "the Archers page")),
    (r" in .*: `scorebox boxes` lists them$", ": {} lists them", ("boxes.boxes", "the Boxes page")),
    (r": check --db, or run scorebox sync first$", ": {} a box first", ("sync.sync_page", "sync")),
    (r" in .*: `scorebox event list` shows them$", ": {} lists them", ("events.events", "the Events page")),
    (r": `scorebox event show \d+` lists them \(e\.g\. 1\.2\)$", ": the event's page lists them (e.g. 1.2)", None),
    (r" \(`scorebox event show` says them\)$", " (the event's page says them)", None),
    (
        r"; check the spelling, or --add adds them as new archers$",
        "; check the spelling, or tick 'add names not on the roster'",
        None,
    ),
    (
        r": `scorebox archers add` a name the box can show$",
        ": add the archer with a name the box can show on {}",
        ("archers.archers", "the Archers page"),
    ),
    (r"; `scorebox archers add` adds one$", "; {} adds one", ("archers.archers", "the Archers page")),
    (
        r"; `scorebox sync --take-over` makes this store its own",
        '; tick "make this store the box\'s own" and sync again',
        None,
    ),
)
PATTERNS = [(re.compile(p), words, link) for p, words, link in HINTS]


def on_page(line, here=None):
    """line (a command's) as the desk's page says it: Markup, its command hint replaced by
    what the page's user can do on the desk, the rest escaped. here: the endpoint of the page
    that will show it, which a hint names as "this page", not by a link to itself."""
    line = str(line)
    for pattern, words, link in PATTERNS:
        m = pattern.search(line)
        if m:
            said = Markup(words)
            if link and link[0] == here:
                said = said.format("this page" if link[1].startswith("the ") else link[1])
            elif link:
                said = said.format(Markup('<a href="%s">%s</a>') % (url_for(link[0]), link[1]))
            return escape(line[: m.start()]) + said + escape(line[m.end() :])
    return escape(line)
