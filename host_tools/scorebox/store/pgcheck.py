"""`scorebox doctor --db URL` on a PostgreSQL store: what a league organiser still lacks, in one
line. The server's own message says which step is missing (no server at the address, no such
role, no such database, no right to create tables); it is read here and said in the words of
docs/league.md's steps, the server's own line kept after it for anything else.

The server's messages are in English unless its lc_messages says otherwise; a message not
recognised is shown as the server gave it.
"""

import psycopg

from scorebox.store.migrate import STORE
from scorebox.store.urls import shown

# (what the server says, what is missing, what to do): the first that matches is said.
_MISSING = (
    ("does not exist", "role", "no role %(role)s on the server: make it (docs/league.md, step 1)"),
    ("does not exist", "database", "no database %(db)s on the server: make it (docs/league.md, step 1)"),
    ("password authentication failed", "", "the server refused role %(role)s's password"),
    ("no pg_hba.conf entry", "", "the server does not let role %(role)s in from this PC (its pg_hba.conf)"),
    ("Peer authentication failed", "", "the server takes role %(role)s only from the OS user of that name"),
    ("No such file or directory", "", "no server at %(url)s (is PostgreSQL running? docs/league.md, step 1)"),
    ("Connection refused", "", "no server at %(url)s (is PostgreSQL running? docs/league.md, step 1)"),
    ("failed to resolve host", "", "no such host in %(url)s"),
)


def _missing(error, url, params):
    text = str(error)
    for said, what, line in _MISSING:
        if said in text and ('%s "' % what in text if what else True):
            return line % dict(params, url=shown(url))
    return "cannot reach %s: %s" % (shown(url), text.strip().splitlines()[0])


def check(url):
    """(ok, line): whether the store at url can be opened and made, and the one line that
    says so or says what is missing."""
    try:
        params = psycopg.conninfo.conninfo_to_dict(url)
    except psycopg.ProgrammingError as e:
        return False, "not a PostgreSQL address: %s" % str(e).splitlines()[0]
    params = {"role": params.get("user") or "(your login)", "db": params.get("dbname") or "(your login's)"}
    try:
        db = psycopg.connect(url, autocommit=True, connect_timeout=10)
    except psycopg.Error as e:
        return False, _missing(e, url, params)
    with db:
        role, name = db.execute("SELECT current_user, current_database()").fetchone()
        version = db.execute("SHOW server_version").fetchone()[0]
        where = "database %s on PostgreSQL %s" % (name, version)
        if db.execute("SELECT to_regclass(%s)", (STORE.version_table,)).fetchone()[0] is not None:
            have = db.execute("SELECT version_num FROM %s" % STORE.version_table).fetchone()
            return True, "%s: the store is there (schema %s), opened as role %s" % (where, have and have[0], role)
        try:
            # The store makes its tables on first use: that right, tried and taken back.
            with db.transaction(force_rollback=True):
                db.execute("CREATE TABLE scorebox_doctor_probe (x integer)")
        except psycopg.errors.InsufficientPrivilege:
            return False, "role %s may not create tables in %s: as its owner, GRANT CREATE ON SCHEMA public TO %s" % (
                role,
                where,
                role,
            )
    return True, "%s: no store yet; role %s may create its tables" % (where, role)
