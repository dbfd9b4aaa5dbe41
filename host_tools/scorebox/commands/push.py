"""`scorebox push URL`: the club's matches the league does not have yet, sent to its server
(league/server.py, docs/league.md) with the club's token.

Incremental and resumable: the client first asks the league which of the store's matches it
holds (ASK at a time, in store order) and sends only the others, in batches, so a push cut
short sends, next time, only what did not arrive, and a match is never sent twice once the
league has it. Each push carries a new push_id: the league refuses one it has seen (a
replayed request). The token is read from --token or SCOREBOX_LEAGUE_TOKEN and never printed.
Few requests: one question for up to ASK matches, then pushes of up to BATCH.
Each match carries its archers' clubs (`clubs`, beside `names`): a guest archer's home club as
the club's roster keeps it (`scorebox archers club`), None for the club's own.
"""

import ipaddress
import itertools
import json
import os
import secrets
import socket
import ssl
import sys
import urllib.error
import urllib.parse
import urllib.request

from scorebox.errors import ScoreboxError
from scorebox.store.access import open_store
from scorebox.store.export import match_rows
from scorebox.text import plural

TOKEN_ENV = "SCOREBOX_LEAGUE_TOKEN"
BATCH = 500  # matches a push at most: the server's MAX_BATCH (league/server.py)
BODY = 4 * 1024 * 1024  # bytes of matches a push at most: half the server's MAX_BODY
ASK = 5000  # matches asked for at a time: the server's MAX_HAVE
TIMEOUT = 60  # seconds a request may take


def check_url(url):
    """The league's URL; plain http only to this PC (a token must not cross a network in clear).
    Its pages' address (`scorebox serve --league` prints it: ...HOST/league/) is read as the
    league's: its API is under /league/ too."""
    u = urllib.parse.urlsplit(url)
    if u.scheme not in ("http", "https") or not u.hostname:
        raise ScoreboxError("%s: the league's address is https://HOST/..." % url)
    if u.scheme == "http":
        try:
            local = u.hostname == "localhost" or ipaddress.ip_address(u.hostname).is_loopback
        except ValueError:
            local = False
        if not local:
            raise ScoreboxError("%s: a token goes to a league only over https://" % url)
    url = url if url.endswith("/") else url + "/"
    return url[: -len("league/")] if u.path.rstrip("/").endswith("/league") else url


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """A redirect is refused, not followed: urllib would carry the token's header to wherever
    it points, over plain http too."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


_OPENER = urllib.request.build_opener(_NoRedirect)


class League:
    """The league's API at url, with a club's token."""

    def __init__(self, url, token):
        self.url, self.token = check_url(url), token

    def call(self, path, data):
        req = urllib.request.Request(
            urllib.parse.urljoin(self.url, path),
            data=json.dumps(data, separators=(",", ":")).encode(),
            headers={"Content-Type": "application/json", "Authorization": "Bearer " + self.token},
            method="POST",
        )
        try:
            with _OPENER.open(req, timeout=TIMEOUT) as resp:
                return json.loads(resp.read())
        except urllib.error.HTTPError as e:
            try:
                why = json.loads(e.read()).get("error") or e.reason
            except (ValueError, AttributeError):
                why = e.reason
            raise ScoreboxError("the league refused (%d): %s" % (e.code, why))
        except (urllib.error.URLError, OSError, ValueError) as e:
            raise Cut("cannot reach the league at %s: %s" % (self.url, unreachable(getattr(e, "reason", e))))


def unreachable(why):
    """Why the league could not be reached (urllib's reason: an OSError, or text), in words."""
    if isinstance(why, ConnectionRefusedError):
        return "nothing answers there: check the address, and that the league's server is running"
    if isinstance(why, socket.gaierror):
        return "no computer has that name: check the address, and this PC's network"
    if isinstance(why, TimeoutError):
        return "no answer in %d s: check this PC's network, then push again" % TIMEOUT
    if isinstance(why, ssl.SSLCertVerificationError):
        return "its certificate is not one this PC trusts (%s)" % why.verify_message
    return getattr(why, "strerror", None) or str(why)


class Cut(ScoreboxError):
    """The connection failed: what the league has stored is kept, the rest goes next time."""


def push(store, league, batch=BATCH, warn=None, unsent=None):
    """Send the store's matches the league lacks; (stored, held before). warn(line): a line
    for each match not sent as its stored JSON cannot be read (the others are sent), whose
    line is added to unsent (a list) too."""

    def unreadable(e):
        line = "%s: not sent" % e
        if unsent is not None:
            unsent.append(line)
        if warn is not None:
            warn(line)

    stored = held = 0
    guests = store.guest_clubs()
    rows = (dict(m, clubs=clubs_of(m["names"], guests)) for m in match_rows(store, unreadable))
    part = list(itertools.islice(rows, ASK))
    while True:
        # asked even with nothing to send: the league and the token are tried all the same
        # with the names and clubs the club gives each match: one it named since it was sent
        # (or whose guest's club it set since) is sent again
        keys = [[m["device"], m["number"], m["names"]] for m in part]
        clubs = [m["clubs"] for m in part]  # beside the keys, side by side as their names
        have = league.call("league/api/have", {"matches": keys, "clubs": clubs})["have"]
        have = {tuple(k) for k in have}
        new = [m for m in part if (m["device"], m["number"]) not in have]
        held += len(part) - len(new)
        for matches in batches(new, batch):
            try:
                got = league.call("league/api/push", {"push_id": secrets.token_hex(16), "matches": matches})
            except Cut as e:
                raise Cut(
                    "%s; %s stored before the cut: push again to send the rest"
                    % (e, plural(stored, "match", "matches"))
                )
            stored += got["stored"]
            held += got["held"]
        part = list(itertools.islice(rows, ASK))
        if not part:
            return stored, held


def clubs_of(names, guests):
    """Each archer's home club beside their name, side by side as names (None: this club's),
    from guests (the store's guest_clubs): the league files a guest under their own club."""
    return [[guests.get(n.casefold()) for n in side] for side in names]


def batches(matches, most):
    """matches in lists of at most `most` matches and BODY bytes of JSON (one longer than
    that alone: the server says it is too large)."""
    out, size = [], 0
    for m in matches:
        n = len(json.dumps(m, separators=(",", ":"))) + 1
        if out and (len(out) == most or size + n > BODY):
            yield out
            out, size = [], 0
        out.append(m)
        size += n
    if out:
        yield out


def cmd_push(args):
    token = args.token or os.environ.get(TOKEN_ENV)
    if not token:
        raise ScoreboxError("no token: give --token, or set %s to the token the league gave your club" % TOKEN_ENV)
    league = League(args.url, token)
    store = open_store(args.db)
    unsent = []
    try:
        stored, held = push(store, league, warn=lambda line: print(line, file=sys.stderr), unsent=unsent)
    finally:
        store.close()
    print(said(stored, held))
    return 1 if unsent else 0


def said(stored, held):
    """What a push did, in words (the command's line, the desk's Push page)."""
    return "%s sent to the league; %s it had already" % (
        plural(stored, "new match", "new matches"),
        plural(held, "match", "matches"),
    )


def add_parser(sub):
    p = sub.add_parser("push", help="send the club's new matches to the league's server (docs/league.md)")
    p.add_argument("url", help="the league's address, https://...")
    p.add_argument("--db", help="the club's store (default: in your user data folder)")
    p.add_argument("--token", help="the club's token (default: %s; never printed)" % TOKEN_ENV)
    p.set_defaults(run=cmd_push)
