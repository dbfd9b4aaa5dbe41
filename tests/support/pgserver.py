"""A real PostgreSQL server for the store's tests (issue 26): Debian's server (`apt-get
install postgresql`, which `make test` does), started once per test session in a temporary
folder (initdb, then pg_ctl), listening only on a unix socket there, and stopped at the end.
The server refuses to run as root: as root it runs as the `postgres` user (runuser).

Fixtures (a test module imports those it uses):
- pg_server: the Server (skips in one line where PostgreSQL or psycopg is missing);
- pg_url: a new, empty database on it for one test;
- store_at: where a test's store is, once per store kind (SQLITE and POSTGRES): a file's
  path or a database's URL, given to store.access.open_store as a command's --db;
- module_store_at: the same for a module's store.
started() is the server outside pytest (bench/bench_league.py), missing() why it cannot start.
"""

import contextlib
import glob
import itertools
import os
import shutil
import subprocess
import tempfile

import pytest

SQLITE, POSTGRES = "sqlite", "postgresql"
INSTALL = "PostgreSQL 15 server not installed: apt-get install postgresql (make test installs it)"
_dbs = itertools.count(1)


def _bin(name):
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/" + name))
    return found[-1] if found else shutil.which(name)


def missing():
    """Why no server can be started here, in one line; None when one can."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "psycopg not installed: pip install -e .[test] (make does)"
    if not _bin("initdb") or not _bin("pg_ctl"):
        return INSTALL
    return None


@contextlib.contextmanager
def started(folder=None):
    """A server in a new temporary folder, stopped and removed at the end (the tests' and
    bench/bench_league.py's); or in folder, made there when it has none and kept
    (bench/bench_league_1m.py's cached league)."""
    initdb, pg_ctl = _bin("initdb"), _bin("pg_ctl")
    as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    kept = folder is not None
    if kept:
        os.makedirs(folder, exist_ok=True)
    else:
        folder = tempfile.mkdtemp(prefix="scorebox-pg-")
    if as_user:
        shutil.chown(folder, "postgres")
    data, log = os.path.join(folder, "data"), os.path.join(folder, "server.log")

    def run(*cmd):
        subprocess.run(as_user + list(cmd), check=True, capture_output=True, timeout=120)

    if not os.path.exists(data):
        run(initdb, "-D", data, "-A", "trust", "-U", "scorebox", "-E", "UTF8", "--locale=C.UTF-8")
    opts = "-c listen_addresses='' -k %s -c fsync=off -c synchronous_commit=off -c full_page_writes=off" % folder
    run(pg_ctl, "-D", data, "-l", log, "-o", opts, "-w", "start")
    try:
        yield Server("postgresql://scorebox@/%s?host=" + folder)
    finally:
        run(pg_ctl, "-D", data, "-m", "fast" if kept else "immediate", "-w", "stop")
        if not kept:
            shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def pg_server():
    why = missing()
    if why:
        pytest.skip(why)
    with started() as server:
        yield server


class Server:
    """The test session's server: url % database name is a database's URL."""

    def __init__(self, url):
        self.url = url

    def new_database(self):
        """The URL of a new, empty database on the server."""
        import psycopg

        name = "store%d_%d" % (os.getpid(), next(_dbs))
        with psycopg.connect(self.url % "postgres", autocommit=True) as db:
            db.execute("CREATE DATABASE %s" % name)
        return self.url % name


@pytest.fixture
def pg_url(pg_server):
    return pg_server.new_database()


@pytest.fixture(params=[SQLITE, POSTGRES])
def store_at(request, tmp_path):
    """A new store's place, once a file of SQLite's and once a PostgreSQL database."""
    if request.param == SQLITE:
        return str(tmp_path / "club.sqlite")
    return request.getfixturevalue("pg_server").new_database()


@pytest.fixture(scope="module", params=[SQLITE, POSTGRES])
def module_store_at(request, tmp_path_factory):
    """store_at for a module's store, made once per kind."""
    if request.param == SQLITE:
        return str(tmp_path_factory.mktemp("store") / "club.sqlite")
    return request.getfixturevalue("pg_server").new_database()
