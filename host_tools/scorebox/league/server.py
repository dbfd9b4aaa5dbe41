"""`scorebox serve --league`: the league's server, a Flask app of its own (not the club's
desk), on the league's PostgreSQL store. Its API, for `scorebox push` (commands/push.py):

- POST /league/api/have {"matches": [[BOX, NUMBER, NAMES], ...], "clubs": [CLUBS, ...]}: which
  of these the league holds (of the pushing club's boxes) under these names (NAMES: the
  sides' archers as the club's store names them; without it, under any) and clubs (CLUBS:
  their home clubs, side by side as NAMES, None the club's own; without them, under any), so
  that a push cut short goes on where it stopped and a match the club named since, or whose
  guest's club it set since, is sent again;
- POST /league/api/push {"push_id": ..., "matches": [...]}: new matches, each in the form of
  an export's matches.json (store/export.py), filed under its `names` (the club's) and its
  archers' `clubs` (a guest's home club by the league's name for it; none: every archer the
  pushing club's), the push's matches stored in one transaction: all or none. A match the
  league holds whose names or clubs changed is filed anew, its totals moved with it. The
  answer: {"stored": N, "held": N}.

Each request carries the club's token (`Authorization: Bearer sbl1....`, league/tokens.py).
A push is refused with one line and nothing stored when its token is not a club's (401), its
body is not JSON of this form (400) or too large (413), its push_id was received before (a
replayed push, 409), a match is of a box another club pushed first (403), a match held
already differs from it (409: a stored match is never changed), or the rules refuse a match
(422: replayed by the rules core as an import is, store/checks.py), or names an archer
twice (422), or a club's name no league club could have (400), or a club the league does
not have, or two clubs for one side, or neither side the pushing club's, or a club for an
unnamed side (A, B, X, O: store/roster.py PLACEHOLDERS, no archer) (422). A push
the store cannot take (503) stores nothing. Every push is logged (league/db.py),
refused ones too; one the store cannot log is in the server's log.
Its pages (GET /league/: the standings, a club's, a match's) are league/pages.py.
docs/league.md.
"""

import errno
import socket

from flask import Blueprint, Flask, current_app, jsonify, redirect, request

from scorebox.errors import ScoreboxError
from scorebox.league import pages, tokens, workers
from scorebox.league.clubs import MAX_NAME, league_store
from scorebox.league.request_store import close_stores, stores
from scorebox.store import imports
from scorebox.store.checks import check, match_digest
from scorebox.store.errors import Refused
from scorebox.store.roster import PLACEHOLDERS
from scorebox_core.match import archers_of

PAGES = "/league/"  # the pages' address on the server, and its API's (commands/push.py takes either)
MAX_BODY = 8 * 1024 * 1024  # bytes of one request: a batch of MAX_BATCH long matches fits
MAX_BATCH = 500  # matches in one push
MAX_HAVE = 5000  # keys in one question


class Refusal(Exception):
    def __init__(self, status, message):
        super().__init__(message)
        self.status, self.message = status, message


def create_app(db):
    """The league's app on the store at db (a postgresql:// URL): the push API and the pages
    (league/pages.py), each request's store opened once on flask.g (league/request_store.py)."""
    app = Flask(__name__, static_folder=None)
    app.config.update(MAX_CONTENT_LENGTH=MAX_BODY, LEAGUE_DB=db)
    app.teardown_appcontext(close_stores)
    app.register_blueprint(api)
    app.register_blueprint(pages.bp)  # the standings, clubs' and matches' pages
    # the server's own address, opened in a browser: its pages
    app.add_url_rule("/", "root", lambda: redirect(PAGES))
    return app


api = Blueprint("api", __name__, url_prefix="/league/api")


@api.post("/have")
def have():
    store, league = stores()
    return answer(league, lambda club, data: held(store, league, club, data))


@api.post("/push")
def push():
    store, league = stores()
    return answer(league, lambda club, data: take(store, league, club, data))


@api.app_errorhandler(413)
def too_large(e):
    message = "a push is at most %d bytes: send fewer matches at a time; nothing stored" % MAX_BODY
    _, league = stores()
    try:
        club = club_of(league)[0]
    except Refusal:
        club = None
    league.log_push(club, None, request.remote_addr, 0, 0, 0, 413, message)
    return jsonify(error=message), 413


@api.app_errorhandler(ScoreboxError)
def store_down(e):
    # the league's store cannot be reached (a push's own failures are answer's)
    if request.path.endswith("/push"):
        current_app.logger.error("a push not logged: the league's store cannot be reached: %s", e)
    return jsonify(error="the league cannot take a push now (%s): push again later" % e), 503


def club_of(league):
    """(id, name) of the club whose token the request carries; Refusal 401 otherwise."""
    auth = request.headers.get("Authorization", "")
    parts = tokens.split(auth[7:] if auth.startswith("Bearer ") else "")
    row = parts and league.club_by_token(parts[0])
    if not row or not tokens.verify(row[2], parts[1]):
        raise Refusal(401, "not a club's token: check the token the league gave your club; nothing stored")
    return row[0], row[1]


def body():
    data = request.get_json(silent=True)
    if not isinstance(data, dict) or not isinstance(data.get("matches"), list):
        raise Refusal(400, "not a push: JSON with a list of matches expected; nothing stored")
    return data


def answer(league, fn):
    """fn(club, data) as JSON, or the Refusal's line with its status; the push logged."""
    club, sent, push_id, got = None, 0, None, {"stored": 0, "held": 0}
    try:
        club = club_of(league)
        if request.path.endswith("/have"):
            return jsonify(fn(club, body()))
        data = body()
        push_id, sent = data.get("push_id"), len(data["matches"])
        if not isinstance(push_id, str) or not 8 <= len(push_id) <= 64 or not push_id.isalnum():
            raise Refusal(400, "a push has a push_id of 8 to 64 letters and digits; nothing stored")
        if league.push_seen(club[0], push_id):
            raise Refusal(409, "push %s was received already: a replayed push is refused; nothing stored" % push_id)
        got = fn(club, data)
        status, outcome = 200, "stored %d, held already %d" % (got["stored"], got["held"])
        if got.get("refiled"):
            outcome += ", filed anew %d" % got["refiled"]
    except Refusal as e:
        status, outcome = e.status, e.message
    except ScoreboxError as e:
        if request.path.endswith("/have"):
            raise  # a question, not a push: store_down's answer
        # the store cannot be reached or written: the push's transaction was undone
        status, outcome = 503, "the league cannot take a push now (%s): push again later; nothing stored" % e
    try:
        league.log_push(
            club and club[0], push_id, request.remote_addr, sent, got["stored"], got["held"], status, outcome
        )
    except ScoreboxError as e:
        current_app.logger.error(
            "a push not logged (club %s, push_id %s, %d: %s): %s", club, push_id, status, outcome, e
        )
    if status != 200:
        return jsonify(error=outcome), status
    return jsonify(got)


def held(store, league, club, data):
    keys = data["matches"]
    if len(keys) > MAX_HAVE:
        raise Refusal(400, "at most %d matches a question" % MAX_HAVE)
    said = data.get("clubs")  # each match's archers' clubs, beside the keys (without them: any)
    if not (isinstance(said, list) and len(said) == len(keys)):
        said = None
    numbers, names, clubs = {}, {}, {}
    for i, k in enumerate(keys):
        if not (isinstance(k, list) and len(k) in (2, 3) and isinstance(k[0], str) and isinstance(k[1], int)):
            raise Refusal(400, "a match is asked for as [BOX, NUMBER] or [BOX, NUMBER, NAMES]")
        numbers.setdefault(k[0], []).append(k[1])
        if len(k) == 3:
            names[k[0], k[1]] = k[2]
            if said is not None:
                clubs[k[0], k[1]] = said[i]
    owners = league.box_owners(numbers)
    named = Clubs(league, club)
    out = []
    for uid, nums in numbers.items():
        if owners.get(uid) == club[0]:  # another club's boxes are not told
            have = sorted(store.digests(uid, nums))
            filed = league.names(uid, [n for n in have if (uid, n) in names])
            # one filed under other names or clubs is not held as the club holds it: it is sent again
            out += [
                [uid, n]
                for n in have
                if n not in filed
                or _folded(filed[n][1]) == _folded(names[uid, n])
                and ((uid, n) not in clubs or named.asked(clubs[uid, n], filed[n][1]) == filed[n][2])
            ]
    return {"have": out}


def take(store, league, club, data):
    """Check every match of the push, then store them all in one transaction (all or none),
    and file the held ones the club named since under their new names; a Refusal before
    anything is stored."""
    matches = data["matches"]
    if len(matches) > MAX_BATCH:
        raise Refusal(413, "a push is at most %d matches: send fewer at a time; nothing stored" % MAX_BATCH)
    items = {}
    for i, m in enumerate(matches):
        try:
            uid, number, header, log, extras, names = imports.check_import(m)
        except imports.Invalid as e:
            raise Refusal(400, "%s: %s; nothing stored" % (imports.match_key(m, i), e))
        items.setdefault(uid, []).append((number, header, log, extras, names, m.get("clubs")))
    _own(league.box_owners(items), club)
    checked, held, named, guests = {}, 0, {}, {}
    clubs = Clubs(league, club)
    for uid, its in items.items():
        digests = store.digests(uid, [it[0] for it in its])
        checked[uid] = []
        for number, header, log, extras, names, said in its:
            sides = _filed(uid, number, header, names)
            sides_clubs = clubs.of(uid, number, sides, said)
            if number in digests:
                if digests[number] != match_digest(header, log):
                    raise Refusal(
                        409,
                        "%s/%d is held with other events: a stored match is never changed; nothing stored"
                        % (uid, number),
                    )
                held += 1
                # the club may have named it, or set a guest's club, since it was pushed
                named.setdefault(uid, {})[number] = (sides if names is not None else None, sides_clubs)
                continue
            c = check(number, header, log, extras)  # the rules core's replay, as an import's
            if isinstance(c, Refused):
                raise Refusal(422, "%s/%d: %s; nothing stored" % (uid, number, c))
            c.archers = sides  # its rows are the club's names'
            checked[uid].append(c)
            if sides_clubs != [club[0], club[0]]:  # a guest's side: kept under its club (LeagueDB.keep)
                guests[uid, number] = sides_clubs

    stored = []  # each batch's range of new match ids (add_checked's on_stored)

    # a push is stored whole or not at all; other clubs' pushes beside it (it only adds matches)
    with store.transaction(shared=True):
        _own(league.claim_boxes(club[0], items), club)  # a box no club had is this club's from now on
        got = {"stored": 0, "held": held}
        for uid, cs in checked.items():
            done, _ = store.add_checked(uid, cs, on_stored=lambda first, last: stored.append((first, last)))
            got["stored"] += sum(1 for g in done if g is True)
            got["held"] += sum(1 for g in done if g is False)  # the same match twice in one push
        league.keep_pushed(stored, guests)  # the new matches in the league's tables
        for uid, want in named.items():
            for number, (mid, names, sides_clubs) in league.names(uid, want).items():
                new_names, new_clubs = want[number]
                names = new_names if new_names is not None and _folded(names) != _folded(new_names) else None
                sides_clubs = new_clubs if new_clubs != sides_clubs else None
                if names is not None or sides_clubs is not None:
                    league.refile(mid, names, sides_clubs)
                    got["refiled"] = got.get("refiled", 0) + 1  # said only when some were
        return got


class Clubs:
    """The league's clubs by the names a push gives its archers' clubs (`clubs`, beside
    `names`: a guest archer's home club, None for the pushing club's own), read once."""

    def __init__(self, league, club):
        self.league, self.club, self.ids, self.folded = league, club, None, None

    def _id(self, name):
        """The id of the club of this name (any case when no other club's differs only in
        case), or None."""
        if self.ids is None:
            every = self.league.clubs()
            self.ids = {c["name"]: c["id"] for c in every}
            folded = {}
            for c in every:
                folded.setdefault(c["name"].casefold(), []).append(c["id"])
            self.folded = {k: v[0] for k, v in folded.items() if len(v) == 1}
        return self.ids.get(name) or self.folded.get(name.casefold())

    def of(self, uid, number, sides, said):
        """[the club id of the first side, of the other] of a match whose archers are sides:
        each side is one club's; said: the push's clubs of its archers, side by side as sides
        (None: an older push's, every archer the pushing club's). Refusal 400 when said is not
        that or a club's name is not a line of text a league club's name can be, 422 when a
        club is not the league's, a side's archers are of two clubs, neither side is the
        pushing club's (the trust rule: a club files its own archers' matches, docs/league.md),
        or an unnamed side (PLACEHOLDERS) is given a club (every such side would be that club's)."""
        if said is None:
            return [self.club[0], self.club[0]]
        if not (
            isinstance(said, list)
            and [len(s) if isinstance(s, list) else None for s in said] == [len(s) for s in sides]
            and all(c is None or isinstance(c, str) for s in said for c in s)
        ):
            raise Refusal(400, "%s/%d: its clubs are not its archers', side by side; nothing stored" % (uid, number))
        for c in (c for s in said for c in s if c is not None):
            if len(c) > MAX_NAME or not c.isprintable():  # a league club's name could not be it
                raise Refusal(
                    400,
                    "%s/%d: a club's name is a line of text of at most %d characters: %s; nothing stored"
                    % (uid, number, MAX_NAME, imports.short(c)),
                )
        out = []
        for names, clubs in zip(sides, said):
            ids = set()
            for name, c in zip(names, clubs):
                if c is not None and c.strip() and name in PLACEHOLDERS:  # as `scorebox archers club` refuses it
                    raise Refusal(
                        422,
                        "%s/%d: %r is what the box calls an unnamed side, not an archer: it has no club; "
                        "nothing stored" % (uid, number, name),
                    )
                cid = self.club[0] if c is None or not c.strip() else self._id(c.strip())
                if cid is None:
                    raise Refusal(
                        422,
                        "%s/%d: %s's club %s is not a club of the league: give a guest the club's name as the "
                        "league's standings show it; nothing stored" % (uid, number, name, imports.short(c)),
                    )
                ids.add(cid)
            if len(ids) > 1:
                raise Refusal(
                    422,
                    "%s/%d: %s are of two clubs: a side shoots for one club; nothing stored"
                    % (uid, number, ", ".join(names)),
                )
            out.append(ids.pop() if ids else self.club[0])
        if self.club[0] not in out:  # it would count for other clubs only, in the pushing club's words
            raise Refusal(
                422,
                "%s/%d: neither side is of %s: a club pushes the matches its own archers shoot, "
                "against a guest or each other; nothing stored" % (uid, number, self.club[1]),
            )
        return out

    def asked(self, said, sides):
        """of() for a question's match (sides: the names it is filed under), or None when it
        is not one the league files (sent again, and refused or filed then)."""
        try:
            return self.of("", 0, sides, said)
        except Refusal:
            return None


def _filed(uid, number, header, names):
    """The sides' archers a match is filed under: the club's names for it (None: the box's),
    each archer once (Refusal 422), as many a side as the box's."""
    box = archers_of(header)
    sides = [list(s) for s in (box if names is None else names)]
    if [len(s) for s in sides] != [len(s) for s in box]:
        raise Refusal(400, "%s/%d: its names are not its archers, side by side; nothing stored" % (uid, number))
    try:
        imports.check_once(sides)
    except imports.Invalid as e:
        raise Refusal(422, "%s/%d: %s; nothing stored" % (uid, number, e))
    return sides


def _folded(sides):
    """Two sides' names as compared (one archer whatever their case); None when not names."""
    try:
        return [[n.casefold() for n in side] for side in sides]
    except (TypeError, AttributeError):
        return None


def _own(owners, club):
    for uid, owner in sorted(owners.items()):
        if owner != club[0]:
            raise Refusal(
                403, "box %s belongs to another club: a club pushes only its own boxes' matches; nothing stored" % uid
            )


def bind(db, host, port):
    """The socket the league's server listens on, host:port (0: a free one), its store and
    league tables made first (or their one line); (socket, the address of its pages)."""
    league_store(db)[0].close()
    try:
        sock = socket.create_server((host, port), family=socket.AF_INET6 if ":" in host else socket.AF_INET)
    except OSError as e:
        why = "another program holds that port" if e.errno == errno.EADDRINUSE else (e.strerror or str(e))
        raise ScoreboxError("cannot listen on %s:%d: %s" % (host, port, why))
    return sock, "http://%s:%d%s" % (host, sock.getsockname()[1], PAGES)


def cmd_serve(args):
    if args.workers is not None and args.workers < 1:
        raise ScoreboxError("--workers: at least 1 worker process")
    sock, url = bind(args.db, args.host, args.port)
    count = args.workers or workers.default_count()
    print(
        "the league's server: %s (its pages; clubs push to it; %d worker processes; put it behind a TLS proxy: "
        "docs/league.md; Ctrl-C stops it)" % (url, count),
        flush=True,
    )
    return workers.serve(create_app(args.db), sock.detach(), count)
