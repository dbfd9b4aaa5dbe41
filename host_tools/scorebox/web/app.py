"""The club's desk: the store's commands as web pages (`scorebox serve`, docs/web.md).

Flask, because it renders with Jinja2, which the report already uses (the same autoescaped
templates), it is small (Werkzeug, Jinja2, itsdangerous, click, blinker), well kept by the
Pallets project, needs no JavaScript build step and runs its own server for one club PC.

Every page reads and writes through what the commands use: the Store's methods
(store/access.py's open_store, opened per request so that a restore swaps the file under
no open connection), store/backup.py, report/html.py and report/show.py, sync/pull.py
(in a process of its own: syncjob.py). No SQL here (tests/pc/test_layers.py).

Security (docs/web.md): every POST carries the session's CSRF token; a request whose Host
is not the app's own address, or whose Origin (or Referer) is another site's, is refused;
archer names are escaped by Jinja2's autoescape; uploads are saved under names the app
makes in its own folder, and a download is a file it has just made there.
"""

import datetime
import hmac
import os
import secrets
import tempfile
import time
import zipfile
from urllib.parse import urlsplit

from flask import Flask, abort, flash, redirect, render_template, request, send_from_directory, session, url_for

from scorebox.errors import ScoreboxError
from scorebox.report import face, html, show, stats
from scorebox.store import backup, export
from scorebox.store.access import default_path, open_store
from scorebox.store.errors import NoStore
from scorebox.text import csv_head, date_text, plural, said
from scorebox.web import flags, members, push, syncjob, throttle
from scorebox_core import games

HERE = os.path.dirname(os.path.abspath(__file__))
PAGE = 200  # matches a list page shows
SAFE = ("GET", "HEAD", "OPTIONS")
UPLOADS = ("import_archers", "restore")  # the forms that carry a file; the others are small
FORM_BYTES = 1 << 20
CSP = "default-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'"


def create_app(db=None, hosts=("127.0.0.1", "localhost"), port=None, password=None, workdir=None):
    """The desk on the store db (None: the user's own). hosts, port: the addresses the app is
    reached at (the Host a request must name; None: any, for a desk on every address of
    the PC, which then has a password); password: asked before any page when given."""
    app = Flask(__name__, template_folder=os.path.join(HERE, "templates"), static_folder=os.path.join(HERE, "static"))
    app.secret_key = secrets.token_bytes(32)  # a session (and its CSRF token) lasts as long as the server
    app.config.update(MAX_CONTENT_LENGTH=1 << 30, SESSION_COOKIE_SAMESITE="Strict", SESSION_COOKIE_HTTPONLY=True)
    app.config.update(MAX_FORM_PARTS=members.FORM_PARTS, MAX_FORM_MEMORY_SIZE=16 << 20)  # an import's Save
    app.jinja_env.autoescape = True  # .html.j2 too: every name a box or a member list gave is escaped
    app.jinja_env.filters["date"] = date_text
    app.jinja_env.globals["plural"] = plural
    app.jinja_env.globals["said"] = said  # a match's result in words, as every screen gives it
    db = db or default_path()
    work = workdir or tempfile.mkdtemp(prefix="scorebox-serve-")
    uploads, downloads = os.path.join(work, "uploads"), os.path.join(work, "downloads")
    os.makedirs(uploads, exist_ok=True)
    os.makedirs(downloads, exist_ok=True)
    allowed = None if hosts is None else {h if port is None else "%s:%d" % (h, port) for h in hosts}
    app.config.update(STORE=db, UPLOADS=uploads, DOWNLOADS=downloads)

    def store(create=False):
        return open_store(db, create=create)

    def upload(field):
        """The uploaded file of a form's field, saved under a name the app makes."""
        f = request.files.get(field)
        if f is None or not f.filename:
            raise ScoreboxError("choose a file first")
        path = os.path.join(uploads, secrets.token_hex(16))
        try:
            f.save(path)
        except OSError as e:
            if os.path.exists(path):
                os.remove(path)
            raise ScoreboxError(_no_room(e))
        return path

    def done(message, to):
        flash(message, "ok")
        return redirect(to)

    @app.before_request
    def guard():
        if allowed is not None and request.host not in allowed:
            abort(400, "this desk answers at its own address only")
        locked = password and not session.get("in") and request.endpoint not in ("login", "static")
        if request.method not in SAFE:
            source = request.headers.get("Origin") or request.headers.get("Referer")
            if source and urlsplit(source).netloc != request.host:
                abort(403, "a form from another site is refused")
            # Refused before the body is read: Werkzeug spools an upload to disk as it reads
            # the form, and a stranger's post must not fill the disk.
            token = session.get("csrf")
            if not token:
                abort(403, "the form is out of date (its token does not match): reload the page and try again")
            if locked:
                return redirect(url_for("login"))
            if request.endpoint not in UPLOADS:
                request.max_content_length = FORM_BYTES
            try:  # Werkzeug keeps a large upload in a temporary file while it reads the form
                given = request.form.get("csrf", "").encode()  # bytes: compare_digest refuses a str beyond ASCII
            except OSError as e:
                raise ScoreboxError(_no_room(e))
            if request.mimetype == "multipart/form-data" and request.content_length and not request.form:
                # Werkzeug reads a cut form as an empty one: said as what it is, not as a bad token
                raise ScoreboxError("the upload did not arrive whole (the connection broke?): choose the file again")
            if not token or not hmac.compare_digest(token.encode(), given):
                abort(403, "the form is out of date (its token does not match): reload the page and try again")
        if locked:
            return redirect(url_for("login"))
        return None

    @app.context_processor
    def tokens():
        if "csrf" not in session:
            session["csrf"] = secrets.token_urlsafe(32)
        return {"csrf": session["csrf"], "store_path": db}

    @app.after_request
    def headers(resp):
        resp.headers.setdefault("Content-Security-Policy", CSP)
        resp.headers["X-Frame-Options"] = "DENY"
        resp.headers["X-Content-Type-Options"] = "nosniff"
        resp.headers["Referrer-Policy"] = "same-origin"
        return resp

    @app.template_global()
    def match_notes(mid, sides):
        """A match page's confirmations and damage in words (web/flags.py): (confirmed or
        None, [damage]). Read apart from the match route's query, which is tuned on its own
        for a large store."""
        s = store()
        try:
            got = s.match_flags(mid)
        finally:
            s.close()
        return (flags.confirmed(got, sides), flags.damage(got)) if got else (None, [])

    @app.errorhandler(ScoreboxError)
    def refused(e):
        """A command's one-line error, on the page it came from: nothing was changed."""
        flash(str(e), "error")
        back = request.referrer
        if not back or urlsplit(back).netloc != request.host or back == request.url:
            back = url_for("matches")
        return redirect(back)

    guesses = app.config["THROTTLE"] = throttle.Throttle()

    @app.route("/login", methods=["GET", "POST"])
    def login():
        """The password, once a session; guessed slowly (web/throttle.py): while an address
        waits, its tries are refused unread, the right password too."""
        if request.method == "POST":
            wait = guesses.wait(request.remote_addr)
            if wait:
                flash("too many wrong passwords: wait %s, then try again" % plural(wait, "second"), "error")
                return render_template("login.html.j2"), 429
            if password and hmac.compare_digest(request.form.get("password", "").encode(), password.encode()):
                guesses.passed(request.remote_addr)
                session["in"] = True
                return redirect(url_for("matches"))
            guesses.failed(request.remote_addr)
            flash("wrong password", "error")
        return render_template("login.html.j2")

    @app.route("/")
    def home():
        return redirect(url_for("matches"))

    # --- matches ------------------------------------------------------------------------
    @app.route("/matches")
    def matches():
        """`scorebox matches`, PAGE at a time, newest first (?before=ID: the page after), its
        filters read through the store's indexes (Store.match_list): a page of 100,000 matches
        is as quick as one of ten (docs/web.md, "Speed")."""
        f = {k: request.args.get(k, "").strip() for k in ("archer", "date", "game", "box")}
        before = request.args.get("before", type=int)
        try:
            s = store()
        except NoStore:
            return render_template("matches.html.j2", rows=[], total=0, f=f, games=games.every(), boxes=[], empty=True)
        try:
            day = _day(f["date"]) if f["date"] else None
            if day is False:  # no such day: no match on it
                rows, total = [], 0
            else:  # one more than a page: whether an older page follows
                wanted = {k: f[k] or None for k in ("archer", "game", "box")}
                rows, total = s.match_list(started=day, before=before, n=PAGE + 1, **wanted)
            boxes = s.boxes()
        finally:
            s.close()
        older = rows[PAGE - 1]["id"] if len(rows) > PAGE else None
        return render_template(
            "matches.html.j2",
            rows=rows[:PAGE],
            total=total,
            f=f,
            before=before,
            older=older and dict({k: v for k, v in f.items() if v}, before=older),
            games=games.every(),
            boxes=boxes,
            empty=False,
            game_of=games.get,
        )

    @app.route("/matches/<int:mid>")
    def match(mid):
        s = store()
        try:
            m = s.load_match(mid)
        finally:
            s.close()
        game = games.of(m["header"])
        unnamed = [n for side in m["names"] for n in side if n in show.UNNAMED]
        return render_template(
            "match.html.j2", m=m, game=game, lines=show.show_lines(m), unnamed=bool(unnamed), sides=game.SIDES
        )

    @app.route("/matches/<int:mid>/names", methods=["POST"])
    def name_match(mid):
        """`scorebox show N --names A,B [--add] [--force]`."""
        s = store()
        try:
            m = s.load_match(mid)
            count = len(m["names"][0]) + len(m["names"][1])
            names = [request.form.get("name%d" % i, "").strip() for i in range(count)]
            if not all(names):
                raise ScoreboxError("give every archer's name")
            if not request.form.get("force") and show._replaced(m["names"], names):
                raise ScoreboxError("this match has its archers' names already: tick 'replace' to replace them")
            got = s.name_match(mid, names, add=bool(request.form.get("add")))
        finally:
            s.close()
        a, b = games.of(m["header"]).SIDES
        return done(
            "match %s: %s %s, %s %s" % (m["key"], a, ", ".join(got[0]), b, ", ".join(got[1])), url_for("match", mid=mid)
        )

    # --- archers ------------------------------------------------------------------------
    @app.route("/archers")
    def archers():
        retired = bool(request.args.get("retired"))
        try:
            s = store()
        except NoStore:
            return render_template("archers.html.j2", rows=[], retired=retired)
        try:
            rows = s.archers(retired=retired)
        finally:
            s.close()
        return render_template("archers.html.j2", rows=rows, retired=retired)

    @app.route("/archers/add", methods=["POST"])
    def add_archer():
        name = request.form.get("name", "")
        s = store(create=True)  # a club may list its archers before its first sync
        try:
            got = s.add_archer(name)
        finally:
            s.discard_if_empty()
        said = {"added": "added %s", "back": "%s is back on the roster"}.get(got, "%s is on the roster already")
        return done(said % name.strip(), url_for("archers"))

    @app.route("/archers/rename", methods=["POST"])
    def rename_archer():
        s = store()
        try:
            was, now = s.rename_archer(request.form.get("old", ""), request.form.get("new", ""))
        finally:
            s.close()
        return done("renamed %s to %s: their matches and statistics follow" % (was, now), url_for("archers"))

    @app.route("/archers/retire", methods=["POST"])
    def retire_archer():
        s = store()
        try:
            name = s.retire_archer(request.form.get("name", ""))
        finally:
            s.close()
        return done("retired %s: off the box's list at the next sync; matches kept" % name, url_for("archers"))

    @app.route("/archers/club", methods=["POST"])
    def archer_club():
        """`scorebox archers club NAME CLUB`: a guest archer's home club (empty: this club's)."""
        s = store()
        try:
            name, club = s.set_club(request.form.get("name", ""), request.form.get("club", ""))
        finally:
            s.close()
        said = "%s is of %s: the league files their matches under that club" % (name, club) if club else None
        return done(said or "%s is of this club" % name, url_for("archers"))

    @app.route("/archers/import", methods=["POST"])
    def import_archers():
        """`scorebox archers import FILE`, always as a preview first: the columns found (mapped
        by hand when they are not the command's headings), each new archer's box name made and
        editable, the names on the roster already and repeated; then Save (`--save`) with the
        mapping and the names as edited. The file waits in the uploads folder under the app's
        name for it, which the forms carry."""
        token = request.form.get("file", "")
        if token:
            if not _token(token) or not os.path.isfile(os.path.join(uploads, token)):
                raise ScoreboxError("that member list is gone: choose the file again")
            path = os.path.join(uploads, token)
        else:
            path = upload("members")
        head, found = csv_head(path, ScoreboxError)
        cols = members.columns(request.form) or found
        save = bool(token) and not request.form.get("preview")
        edits = members.edits(request.form) if save else {}
        view = {"file": os.path.basename(path), "head": head, "cols": cols, "edits": edits}
        if cols is None:  # no heading the command knows: the mapping is asked for first
            return render_template("imported.html.j2", got=None, **view)
        s = store(create=True)
        try:
            try:
                got = s.import_members(path, confirmed=True, columns=cols, boxes=edits, preview=not save)
            except ScoreboxError as e:
                if not save:
                    raise
                flash(str(e), "error")  # the preview again, the names as edited on it: nothing lost
                got = s.import_members(path, columns=cols, preview=True)
        finally:
            s.discard_if_empty()
        if got.saved:
            os.remove(path)
        return render_template("imported.html.j2", got=got, **view)

    # --- boxes --------------------------------------------------------------------------
    @app.route("/boxes")
    def boxes():
        try:
            s = store()
        except NoStore:
            return render_template("boxes.html.j2", rows=[])
        try:
            rows = s.boxes()
            firmware = {d["uid"]: d["firmware"] for d in s.device_records()}  # as the box said it at its last sync
            spaces = s.box_spaces()  # as its last sync read it
        finally:
            s.close()
        from scorebox.store import boxes as names

        capacity = {uid: names.capacity(spaces.get(uid)) for uid, *_ in rows}
        return render_template("boxes.html.j2", rows=rows, firmware=firmware, capacity=capacity)

    @app.route("/boxes/name", methods=["POST"])
    def name_box():
        from scorebox.store import boxes as names

        name = names.clean(request.form.get("name", ""))
        uid = request.form.get("box", "")
        s = store()
        try:
            s.name_box(uid, name)
        finally:
            s.close()
        return done("box %s is now %s" % (uid, name), url_for("boxes"))

    # --- safety -------------------------------------------------------------------------
    @app.route("/safety")
    def safety():
        return render_template("safety.html.j2")

    @app.route("/safety/backup", methods=["POST"])
    def make_backup():
        name = "scorebox-backup-%s.sqlite" % datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
        tmp = os.path.join(downloads, secrets.token_hex(8))
        os.makedirs(tmp)
        backup.backup(db, os.path.join(tmp, name))
        return send_from_directory(tmp, name, as_attachment=True)

    @app.route("/safety/export", methods=["POST"])
    def make_export():
        """`scorebox export --format F`: the files zipped, made in a new folder of the app's own."""
        fmt = request.form.get("format", "")
        if fmt not in ("csv", "json"):
            raise ScoreboxError("choose csv or json")
        folder = os.path.join(downloads, secrets.token_hex(8))
        out = os.path.join(folder, "scorebox-export")
        s = store()
        try:
            got = export.export(s, out, fmt)
        finally:
            s.close()
        name = "scorebox-export-%s.zip" % fmt
        with zipfile.ZipFile(os.path.join(folder, name), "w", zipfile.ZIP_DEFLATED) as z:
            for path in got:
                z.write(path, os.path.basename(path))
        return send_from_directory(folder, name, as_attachment=True)

    @app.route("/safety/restore", methods=["POST"])
    def restore():
        path = upload("backup")
        try:
            n, old = backup.restore(db, path)
        finally:
            if os.path.exists(path):
                os.remove(path)
        said = "restored the store from %s: %s, checked" % (
            request.files["backup"].filename,
            plural(n, "match", "matches"),
        )
        return done(said + ("; the store that was there is kept as %s" % old if old else ""), url_for("safety"))

    # --- the report ---------------------------------------------------------------------
    @app.route("/report")
    def report():
        return render_template("report.html.j2")

    @app.route("/report/view", defaults={"download": False})
    @app.route("/report/download", defaults={"download": True})
    def report_page(download):
        s = store()
        try:
            page = html.render(html.build(s))
        finally:
            s.close()
        resp = app.response_class(page, mimetype="text/html")
        # the report is one offline file with its own inline script and styles: framed by no one
        resp.headers["Content-Security-Policy"] = (
            "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; "
            "frame-ancestors 'none'"
        )
        if download:
            resp.headers["Content-Disposition"] = "attachment; filename=scorebox-report.html"
        return resp

    # --- statistics ---------------------------------------------------------------------
    @app.route("/stats")
    def statistics():
        """`scorebox stats [ARCHER]`: everyone's line, or one archer's detail and head to head;
        then the figures of each game whose figures are its own (its surface's STATS)."""
        name = request.args.get("archer", "").strip()
        key = name.casefold()
        s = store()
        try:
            every = stats.compute(s, name or None)  # one archer's page computes theirs only
            h2h = stats.head_to_head(s, name) if name else {}
            own = []  # (game, its STATS module, its figures: one archer's on their page)
            for g in games.every():
                if g.STATS:
                    part = games.part(g, "STATS")
                    got = part.compute(s)
                    own.append((g, part, {k: v for k, v in got.items() if k.casefold() == key} if name else got))
            if name and not every and s.find_archer(name) is None and not any(f for _, _, f in own):
                raise ScoreboxError("no archer called %r: the Archers page shows who is there" % name)
        finally:
            s.close()
        arrows = ", ".join(g.NAME for g in games.every() if not g.STATS)  # the games whose figures stats.py makes
        if name:
            one = list(every.values())
            return render_template(
                "archer.html.j2",
                name=one[0]["name"] if one else name,
                arrows=arrows,
                detail=stats.detail_lines(one[0])[1:] if one else [],
                own=[(g.NAME, part.lines(f)[2:]) for g, part, f in own if f],  # after its blank and title lines
                h2h=sorted(((c, v) for (r, c), v in h2h.items() if r.casefold() == key), key=lambda x: x[0].casefold()),
            )
        own = [(g.NAME, part.lines(f)[2:]) for g, part, f in own if f]
        return render_template("stats.html.j2", every=every.values(), arrows=arrows, own=own, recent=stats.RECENT)

    # --- faces --------------------------------------------------------------------------
    @app.route("/faces")
    def faces():
        return render_template("faces.html.j2", faces=face.FACES, papers=list(face.PAPERS), sizes=face.SIZES)

    @app.route("/faces", methods=["POST"])
    def make_face():
        """`scorebox face FACE --size MM --paper P`: the PDF, or the SVG sheets in a zip
        where no Chromium prints one; written in a new folder of the app's own."""
        try:
            size = float(request.form.get("size", ""))
        except ValueError:
            raise ScoreboxError("the size is a number of millimetres")
        kind, paper = request.form.get("face", ""), request.form.get("paper", "")
        if kind not in face.FACES or paper not in face.PAPERS:  # before a path is made of them
            raise ScoreboxError("choose a face (%s) and a paper (%s)" % (", ".join(face.FACES), ", ".join(face.PAPERS)))
        out = os.path.join(downloads, secrets.token_hex(8), face.default_out(kind, size))
        folder, stem = os.path.dirname(out), os.path.basename(out)[:-4]
        written, _, note = face.write(kind, size, out, paper)
        if note is None:
            return send_from_directory(folder, os.path.basename(written[-1]), as_attachment=True)
        with zipfile.ZipFile(os.path.join(folder, stem + ".zip"), "w") as z:
            for path in written:
                z.write(path, os.path.basename(path))
        return send_from_directory(folder, stem + ".zip", as_attachment=True)

    # --- sync ---------------------------------------------------------------------------
    job = syncjob.Job()

    @app.route("/sync")
    def sync_page():
        return render_template("sync.html.j2", st=job.st, running=job.running(), ports=syncjob.ports())

    @app.route("/sync", methods=["POST"])
    def sync_now():
        take_over = request.form.get("take_over") == "1"  # `--take-over`: a box of another store made this one's
        source = request.form.get("source")
        port = request.form.get("port", "").strip() if source == "port" else None
        if source == "port" and not port:
            flash("name the box's port first (for example /dev/ttyACM0 or COM3)", "error")
        elif not job.start(db, source == "sim", app.config.get("SIM_STATE"), take_over, port):
            flash("a sync is running already: wait for it to end", "error")
        return redirect(url_for("sync_page"))

    push.register(app, store)  # the Push page: `scorebox push URL` (web/push.py)
    return app


def _no_room(e):
    """What a full disk (or a file-size limit) under an upload is, in words."""
    return "no room on this PC's disk to keep the upload (%s): free some space, then try again; nothing was changed" % (
        e.strerror or e
    )


def _token(name):
    """A name the app made for an upload (hex only): nothing that could leave the folder."""
    return len(name) == 32 and all(c in "0123456789abcdef" for c in name)


def _day(text):
    """(first, end) seconds of the local day "YYYY-MM-DD", as the list shows dates (date_text);
    False when the text is no such day (no match is on it)."""
    try:
        d = datetime.date.fromisoformat(text)
        return time.mktime(d.timetuple()), time.mktime((d + datetime.timedelta(days=1)).timetuple())
    except (ValueError, OverflowError):
        return False
