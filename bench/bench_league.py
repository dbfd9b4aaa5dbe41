"""The league at scale (issue 26 item 5, docs/league.md's Speed section), on a PostgreSQL 15
started as the tests start it (tests/support/pgserver.py: a temporary folder, fsync off):

- push_seconds_1000: `scorebox push` run as a command (wall seconds, Python's start
  included) sending a club's SQLite store of 1,000 realistic matches (storegen.py) to
  `scorebox serve --league` run as a process of its own; the median of PUSHES pushes, each
  to a new league (the machine is shared: one run alone says little); the goal is 2 s.
- league_push_seconds_2x1000: two clubs' pushes of 1,000 each started at once, until the
  last has ended; the median of PUSHES; the goal: at most 1.3 times push_seconds_1000.
- league_standings_p95_ms, league_club_page_p95_ms: 50 requests each through Flask's test
  client of the league's app (league/server.py: its pages, the Store opened per request),
  the standings of both games and of Tic Tac BOW in turn, each club's page in turn; the 95th
  percentile (nearest rank) in milliseconds. The league is filled for about FILL seconds
  (league_pages_matches says how many it then holds): CLUBS clubs of BOXES boxes each,
  round by round a batch of each box's own generated matches (storegen.py's match_items),
  replayed by the rules core (store/checks.py) and stored with the Store's add_checked, as a
  push stores them, without HTTP in between; every GUESTS-th match's side B is a guest of
  the next club (filed under it, as a push names a guest's club), so that a club's page
  lists matches away beside its boxes'.

Without PostgreSQL (or psycopg) it prints one line and reports nothing.
"""

import itertools
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

import pgserver
from bench_web import p95_ms
from storegen import generate, match_items

from scorebox.league import tokens
from scorebox.league.clubs import league_store
from scorebox.league.server import create_app
from scorebox.store.checks import check

PUSHED = 1000
PUSHES = 3  # push_seconds_1000 is their median
FILL = 120  # seconds spent filling the pages' league
CLUBS, BOXES, BATCH = 20, 2, 250
GUESTS = 10  # every tenth match has a guest side
REQUESTS = 50
OTHER_BOXES = ["e6614103f0a1b2c3", "e6614103f0d4e5f6"]  # a second club's: a box is one club's
CLI = [sys.executable, "-c", "import sys; from scorebox.cli import main; sys.exit(main())"]


def add_club(url, name):
    """The new club's (id, token)."""
    store, league = league_store(url)
    try:
        token, token_id, token_hash = tokens.make()
        league.add_club(name, token_id, token_hash)
        return league.club_by_token(token_id)[0], token
    finally:
        store.close()


def push_seconds(url, clubs):
    """Wall seconds from the start of one `scorebox push` a club (each store's PUSHED matches,
    each a new club's), all at once, to the server process, until the last has ended."""
    tokens = [add_club(url, "Pushers %d" % i)[1] for i in range(len(clubs))]
    server = subprocess.Popen(
        CLI + ["serve", "--league", "--db", url, "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,  # gunicorn's warnings
        text=True,
        env=dict(os.environ, PYTHONUNBUFFERED="1"),
    )
    try:
        line = server.stdout.readline()
        if not line.startswith("the league's server: http://"):
            raise RuntimeError("the league's server said: %r" % line)
        answered(line.split()[3])  # its workers started: a push is not timed against their start
        t0 = time.perf_counter()
        pushes = [
            subprocess.Popen(
                CLI + ["push", line.split()[3], "--db", club],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                env=dict(os.environ, SCOREBOX_LEAGUE_TOKEN=token),
            )
            for club, token in zip(clubs, tokens)
        ]
        said = [p.communicate() for p in pushes]
        seconds = time.perf_counter() - t0
    finally:
        server.terminate()
        server.wait(timeout=30)
    for p, (out, err) in zip(pushes, said):
        if p.returncode != 0 or not out.startswith("%d new matches sent" % PUSHED):
            raise RuntimeError("scorebox push: %s%s" % (out, err))
    return round(seconds, 2)


def answered(address, seconds=60):
    """Wait until the server at address answers its pages."""
    end = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(address, timeout=seconds):
                return
        except OSError:
            if time.monotonic() > end:
                raise
            time.sleep(0.1)


def fill(url):
    """CLUBS clubs' boxes filled round by round for about FILL seconds; (club ids, matches)."""
    ids, boxes = [], []
    for c in range(CLUBS):
        cid, _ = add_club(url, "Club %02d" % c)
        ids.append(cid)
    for c, cid in enumerate(ids):
        for b in range(BOXES):
            uid = "e66141%02x%08x" % (c, b)
            boxes.append((cid, ids[(c + 1) % CLUBS], uid, match_items(10**9, seed=c * BOXES + b, devices=[uid])))
    store, league = league_store(url)
    total = 0
    t0 = time.perf_counter()
    try:
        for cid, guests_club, uid, items in itertools.cycle(boxes):
            if time.perf_counter() - t0 > FILL:
                break
            checked = [check(*item) for _, item in itertools.islice(items, BATCH)]
            league.claim_boxes(cid, [uid])
            league.sides_clubs = {(uid, c.number): [cid, guests_club] for c in checked[::GUESTS]}
            got, _ = store.add_checked(uid, checked)
            if not all(g is True for g in got):
                raise RuntimeError("the league refused generated matches: %s" % got[:3])
            total += len(got)
        size = store.db.execute("SELECT pg_database_size(current_database())").fetchone()[0]
        print(
            "# league: %d matches stored in %.0f s, the database %.0f MB"
            % (total, time.perf_counter() - t0, size / 1e6),
            file=sys.stderr,
        )
    finally:
        store.close()
    return ids, total


def run():
    why = pgserver.missing()
    if why:
        print("# league: skipped: %s" % why, file=sys.stderr)
        return {}
    work = tempfile.mkdtemp(prefix="bench-league-")
    try:
        with pgserver.started() as pg:
            club, other = os.path.join(work, "club.sqlite"), os.path.join(work, "other.sqlite")
            generate(club, PUSHED, seed=26)
            generate(other, PUSHED, seed=27, devices=OTHER_BOXES)
            out = {}
            for name, clubs in (("push_seconds_1000", [club]), ("league_push_seconds_2x1000", [club, other])):
                runs = sorted(push_seconds(pg.new_database(), clubs) for _ in range(PUSHES))
                print("# league: %s, each run: %s s" % (name, runs), file=sys.stderr)
                out[name] = runs[PUSHES // 2]
            url = pg.new_database()
            clubs, total = fill(url)
            client = create_app(url).test_client()
            standings = ["/league/", "/league/?game=tictacbow"] * (REQUESTS // 2)
            pages = ["/league/clubs/%d" % clubs[i % len(clubs)] for i in range(REQUESTS)]
            out["league_pages_matches"] = total
            out["league_standings_p95_ms"] = p95_ms(client, standings)
            out["league_club_page_p95_ms"] = p95_ms(client, pages)
            return out
    finally:
        shutil.rmtree(work, ignore_errors=True)
