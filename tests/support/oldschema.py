"""A store as an older scorebox left it, for the tests of the migrations that bring it up to
date: what the migrations after a version made (tables, indexes, added columns) taken off."""

import re

from scorebox.store.schema import MIGRATIONS


def rewind(db, version):
    """Take db (an sqlite3 connection to a store) back to schema `version`, its rows kept."""
    for migration in reversed(MIGRATIONS[version:]):
        for kind, name in reversed(re.findall(r"CREATE (TABLE|INDEX) (\w+)", migration)):
            db.execute("DROP %s IF EXISTS %s" % (kind, name))
        for table, column in reversed(re.findall(r"ALTER TABLE (\w+) ADD COLUMN (\w+)", migration)):
            db.execute("ALTER TABLE %s DROP COLUMN %s" % (table, column))
    db.execute("PRAGMA user_version = %d" % version)
    db.commit()
