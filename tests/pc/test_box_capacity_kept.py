"""The Boxes page's capacity: what a box's last sync read of its space (SPACE: free and total
bytes, and the matches that still fit as `scorebox sync` counts them, device/space.py) is kept
per box in the store and shown on the Boxes page and by `scorebox boxes`; a box no sync has
read says "not known yet" until its next sync.
The box is `scorebox sim`'s virtual Pico with a match keyed on it (docs/demo.keys), synced by
`scorebox sync --sim`, on both stores (SQLite's file and PostgreSQL)."""

import os
import re
import subprocess
import sys

from bothstore import TTT_BOX, both_games

from scorebox import cli
from scorebox.store.access import open_store
from scorebox.web.app import create_app

pytest_plugins = ("pgserver",)  # store_at: a file of SQLite's, then a PostgreSQL database

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCOREBOX = os.path.join(os.path.dirname(sys.executable), "scorebox")
NOT_KNOWN = "not known yet"


def scorebox(*argv):
    got = subprocess.run([SCOREBOX] + list(argv), capture_output=True, text=True, timeout=300)
    assert got.returncode == 0, got.stdout + got.stderr
    return got.stdout


def synced(state, db):
    """(the box's id, the matches that fit as the sync said it) after `scorebox sync --sim`
    of the virtual Pico at state, a match keyed on it first."""
    scorebox("sim", "--keys", os.path.join(ROOT, "docs", "demo.keys"), "--state", state)
    out = scorebox("sync", "--sim", state, "--db", db)
    fit = re.search(r"space on the box: \d+% full, about ([\d,]+) more matches fit", out)
    assert fit, out
    uid = re.search(r"\bv-[0-9a-f]+\b", out)
    assert uid, out
    return uid.group(0), fit.group(1)


def boxes_command(db, capsys):
    """{box id: its line} of `scorebox boxes`."""
    assert cli.main(["boxes", "--db", db]) == 0
    return {line.split()[0]: line for line in capsys.readouterr().out.splitlines()[1:-1]}


def boxes_page(db, tmp_path):
    """{box id: its row's text} of the Boxes page, tags and runs of white space taken out."""
    page = create_app(db, workdir=str(tmp_path / "work")).test_client().get("/boxes").get_data(as_text=True)
    rows = {}
    for row in re.findall(r"<tr>(.*?)</tr>", page, re.S):
        uid = re.search(r"<code>([^<]+)</code>", row)
        if uid:
            rows[uid.group(1)] = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", row)).strip()
    return rows


def test_a_sync_keeps_the_box_capacity_for_the_boxes_page_and_command(store_at, tmp_path, capsys):
    uid, fit = synced(str(tmp_path / "sim.flash"), store_at)
    s = open_store(store_at)
    try:
        free, total, kept_fit = s.box_spaces()[uid]
    finally:
        s.close()
    assert "{:,}".format(kept_fit) == fit  # the figure the sync printed, kept
    assert 0 < free < total  # the box's LittleFS: a match on it, room for many more
    room = "about %s more matches (%s of %s KB free)" % (fit, format(free // 1024, ","), format(total // 1024, ","))
    assert room in boxes_command(store_at, capsys)[uid]
    assert room in boxes_page(store_at, tmp_path)[uid]


def test_a_box_no_sync_has_read_says_not_known_until_it_syncs(tmp_path, capsys):
    """Boxes whose matches came into the store without a sync of theirs (stored from their
    matches alone, as an import stores them): each box's capacity is not known until that box
    syncs."""
    db = both_games(str(tmp_path / "club.sqlite"))
    s = open_store(db)
    try:
        assert s.box_spaces() == {} and s.check() == []
        met = [row[0] for row in s.boxes()]
    finally:
        s.close()
    assert TTT_BOX in met and len(met) == 2
    for uid in met:
        assert boxes_command(db, capsys)[uid].endswith(NOT_KNOWN)
        assert boxes_page(db, tmp_path)[uid].count(NOT_KNOWN) == 1
    uid, fit = synced(str(tmp_path / "sim.flash"), db)  # the virtual Pico syncs: its capacity is known now
    lines, rows = boxes_command(db, capsys), boxes_page(db, tmp_path)
    assert "about %s more matches" % fit in lines[uid] and NOT_KNOWN not in lines[uid]
    assert "about %s more matches" % fit in rows[uid] and NOT_KNOWN not in rows[uid]
    for other in met:  # the boxes that have not synced since
        assert lines[other].endswith(NOT_KNOWN) and NOT_KNOWN in rows[other]
