"""The stores' schemas made and brought up to date by Alembic: the club's store's (STORE:
store/migrations, its tables store/tables.py) and, on a league's store, the league's own
(league/db.py's LEAGUE: league/migrations), each with its own version table.

A store that is up to date is told by one query of its version table (`Schema.current`),
without loading SQLAlchemy or Alembic; only a store that needs a migration loads them: the
Store's `upgrade` gives `Schema.upgrade` a connection of SQLAlchemy's in a write transaction
under the store's write lock (SQLite's BEGIN IMMEDIATE through store/lock.py, PostgreSQL's
advisory lock of store/postgres.py), where Alembic reads the version again.
"""

import os

from scorebox.store.errors import SchemaMismatch

HERE = os.path.dirname(os.path.abspath(__file__))


class Schema:
    """One schema's migrations: what it is called in messages, the folder of its Alembic
    scripts, its version table and the newest revision this scorebox knows (head;
    tests/pc/test_store_migrations.py holds it to the scripts')."""

    def __init__(self, name, scripts, version_table, head):
        self.name, self.scripts, self.version_table, self.head = name, scripts, version_table, head

    def revision(self, db, made):
        """The revision of the store on db (a Store's connection); None when made (whether
        db holds the version table) is false or the table is empty."""
        if not made:
            return None
        row = db.execute("SELECT version_num FROM %s" % self.version_table).fetchone()
        return row[0] if row else None

    def current(self, have, where):
        """Whether a store at revision have (None: none yet) is up to date; a revision this
        scorebox does not know is a newer scorebox's: SchemaMismatch."""
        if have == self.head:
            return True
        if have is not None and not self.knows(have):
            raise SchemaMismatch(
                "%s: %s schema %s is newer than this scorebox (%s): upgrade scorebox"
                % (where, self.name, have, self.head)
            )
        return False

    def upgrade(self, connection):
        """Bring the store on connection (SQLAlchemy's, in a write transaction) up to head."""
        from alembic import command

        cfg = self._config()
        cfg.attributes.update(connection=connection, version_table=self.version_table)
        command.upgrade(cfg, "head")

    def _config(self):
        from alembic.config import Config

        cfg = Config()
        cfg.set_main_option("script_location", self.scripts)
        return cfg

    def knows(self, revision):
        """Whether revision is one of this scorebox's (head, or an older one it migrates)."""
        from alembic.script import ScriptDirectory

        return revision in {s.revision for s in ScriptDirectory.from_config(self._config()).walk_revisions()}


def run_env():
    """An Alembic env.py's work: the migrations on the connection Schema.upgrade gives, in its
    transaction."""
    from alembic import context

    cfg = context.config
    context.configure(connection=cfg.attributes["connection"], version_table=cfg.attributes["version_table"])
    with context.begin_transaction():
        context.run_migrations()


STORE = Schema("store", os.path.join(HERE, "migrations"), "scorebox_version", "store_1_0")
