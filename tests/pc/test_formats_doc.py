"""docs/formats.md's table of the formats kept from 1.0 on holds each stated version to the
code's constant, and the release's version to the CHANGELOG's newest entry: the doc and the
code cannot drift apart unnoticed."""

import os
import re

import scorebox_core
from scorebox.device import link as pc_link
from scorebox.league.db import LEAGUE
from scorebox.store import export
from scorebox.store.migrate import STORE
from scorebox_core import frames, records

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def read(*path):
    with open(os.path.join(ROOT, *path), encoding="utf-8") as f:
        return f.read()


def doc_versions():
    """{format: version} from the table's rows: | format | `version` | ..."""
    found = {}
    for line in read("docs", "formats.md").splitlines():
        m = re.match(r"\|\s*([^|]+?)\s*\|\s*`([^`]+)`\s*\|", line)
        if m:
            found[m.group(1)] = m.group(2)
    return found


def box_protocol():
    """firmware/box/link.py's PROTOCOL, read from the source (it imports the box's modules)."""
    m = re.search(r"^PROTOCOL = (\d+)", read("firmware", "box", "link.py"), re.M)
    return int(m.group(1))


def test_the_table_states_every_format_at_the_codes_version():
    doc = doc_versions()
    expected = {
        "release": scorebox_core.VERSION,
        "journal records": str(records.VERSION),
        "journal on FAT (CircuitPython)": str(records.VERSION),
        "sync frames": str(frames.VERSION),
        "sync protocol (HELLO's `protocol`)": str(pc_link.PROTOCOL),
        "club's store (SQLite, PostgreSQL)": STORE.head,
        "league's store (PostgreSQL)": LEAGUE.head,
        "export files (`matches.json`, arrows)": str(export.VERSION),
        "push API": str(export.VERSION),
        "backup file": STORE.head,
    }
    assert doc == expected


def test_both_ends_of_the_sync_speak_one_protocol():
    assert box_protocol() == pc_link.PROTOCOL


def test_the_release_is_1_0_0_and_the_changelogs_newest_entry():
    newest = re.search(r"^## \[([^\]]+)\] - (\d{4}-\d\d-\d\d)$", read("CHANGELOG.md"), re.M)
    assert scorebox_core.VERSION == "1.0.0" == newest.group(1)
    assert newest.group(2) == "2026-12-06"
    assert '"version": "%s"' % scorebox_core.VERSION in read("package.json")


def test_the_store_versions_are_their_tables_names():
    assert (STORE.version_table, LEAGUE.version_table) == ("scorebox_version", "league_version")
