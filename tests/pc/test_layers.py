"""The PC package's layers (ARCHITECTURE.md), read from the source with ast:

- SQL only in the store (and the league's database code), written in SQLAlchemy Core: no
  string constant starts like an SQL statement or a piece of one but in the modules that
  speak one database's own words (OWN_WORDS below), no regular expression near SQL, no
  module outside the store imports sqlite3, and nothing outside the store package reaches
  for a connection (`.db.`, `execute(`): the commands, sync and reports call the Store's
  methods;
- each layer imports only the layers below it (ARCHITECTURE.md's table), every import
  counted, lazy ones inside functions too;
- a package's __init__.py is its docstring only: it runs whenever any of its modules is
  imported, so code there would tie the package's modules together (and into cycles).
"""

import ast
import glob
import os
import re

from mpy import ROOT, SIM_MPY

PACKAGE = os.path.join(ROOT, "host_tools", "scorebox")
STORE = os.path.join(PACKAGE, "store")
# The store's modules that write SQL as text: each in one database's own words, never run on
# the other, and the words of the constructs the two spell differently (sql.py). Every other
# module of the store and of the league's database code writes its statements in SQLAlchemy
# Core, and each database compiles its own SQL (store/sql.py).
OWN_WORDS = {
    "sqlite.py",  # SQLite's pragmas and catalogue
    "schema.py",  # the schema a restore's file is checked against, from SQLite's catalogue
    "lock.py",  # SQLite's transactions, waited for
    "backup.py",  # SQLite's backup and restore
    "postgres.py",  # PostgreSQL's transactions and locks
    "pgrefs.py",  # three foreign keys checked once a statement on PostgreSQL
    "pgcheck.py",  # `scorebox doctor --db`: what a league's database still lacks
    "migrate.py",  # a store's revision read, its migrations run (and store/migrations' scripts)
    "sql.py",  # each construct's words in each database
}
MIGRATIONS = os.path.join(STORE, "migrations")
# The league's database code, on the Store's connection and transactions (league/db.py): its
# accounts and push log, its pages' reads (db.py), what it keeps as matches are stored (keep.py),
# its tables (the Alembic scripts of league/migrations).
LEAGUE_MIGRATIONS = set(glob.glob(os.path.join(PACKAGE, "league", "migrations", "**", "*.py"), recursive=True))
LEAGUE_DB = {os.path.join(PACKAGE, "league", n) for n in ("db.py", "keep.py", "reads.py", "tables.py")}
LEAGUE_DB |= LEAGUE_MIGRATIONS

# Upper case, as the store writes SQL, a statement or a fragment joined to one; any case for a
# statement whose shape only SQL has.
SQL = re.compile(
    r"^\s*(?:(?:SELECT|INSERT|UPDATE|DELETE|REPLACE|CREATE|DROP|ALTER|PRAGMA|BEGIN|COMMIT|ROLLBACK|SAVEPOINT"
    r"|VACUUM|ATTACH|WITH|FROM|WHERE|JOIN|LEFT JOIN|ORDER BY|GROUP BY|HAVING|LIMIT|VALUES)\b"
    r"|(?i:select\b.*\bfrom\b|insert\s+(?:or\s+\w+\s+)?into\b|update\s+\w+\s+set\b|delete\s+from\b"
    r"|create\s+(?:temp\w*\s+|unique\s+)?(?:table|index|view|trigger)\b|pragma\s+\w+))",
    re.S,
)


def sources(root, skip=()):
    for d, subdirs, names in os.walk(root):
        subdirs[:] = [s for s in subdirs if s != "__pycache__" and os.path.join(d, s) not in skip]
        for n in sorted(names):
            if n.endswith(".py"):
                yield os.path.join(d, n)


def parse(path):
    with open(path, encoding="utf-8") as f:
        return ast.parse(f.read(), path)


def sql_in(tree):
    """The string constants of a module that look like SQL."""
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and SQL.match(node.value)
    ]


def imported(tree):
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level:
            out.add(node.module)
            out.update(node.module + "." + a.name for a in node.names)  # `from scorebox import sync`
    return out


OUTSIDE_STORE = [p for p in sources(PACKAGE, skip=(SIM_MPY, STORE)) if p not in LEAGUE_DB]


def test_the_scanner_finds_sql():
    tree = ast.parse(
        "q = 'SELECT id FROM matches'\n"
        "def f(db, t):\n"
        "    db.execute('select count(*) from games')\n"
        "    db.execute(Q + ' WHERE m.id = ?')\n"
        "    db.execute(f'DELETE FROM {t}')\n"
        "    db.executemany('insert or ignore into quarantine VALUES (?)', [])\n"
        "    db.execute('''\n        CREATE TABLE x (id INTEGER)''')\n"
        "    db.execute('PRAGMA user_version')\n"
    )
    assert len(sql_in(tree)) == 7
    prose = ast.parse(
        "'Select a match with the arrows'\n"
        "x = 'update scorebox: pip install -U scorebox'\n"
        "y = 'from the box: %d matches'\n"
        "z = 'delete it and sync again'\n"
    )
    assert sql_in(prose) == []


def test_sql_only_in_the_store_layer():
    assert len(OUTSIDE_STORE) > 10 and not any(p.startswith(STORE + os.sep) for p in OUTSIDE_STORE)
    bad = []
    for path in OUTSIDE_STORE:
        tree = parse(path)
        rel = os.path.relpath(path, ROOT)
        bad += ["%s: %r" % (rel, s[:60]) for s in sql_in(tree)]
        bad += ["%s imports sqlite3" % rel for m in imported(tree) if m == "sqlite3" or m.startswith("sqlite3.")]
    assert bad == []


def test_the_store_layer_holds_the_sql():
    """The scan above would see the store's SQL (so it is not blind to how the store writes it)."""
    found = {os.path.basename(p) for p in sources(STORE) if sql_in(parse(p))}
    assert {"sqlite.py", "schema.py", "backup.py", "postgres.py", "pgrefs.py"} <= found


def test_sql_as_text_only_in_a_databases_own_words():
    """Within the store and the league's database code, what runs on both databases writes
    no SQL as text: SQLAlchemy Core, compiled by each database's dialect (store/sql.py)."""
    bad = []
    for path in list(sources(STORE)) + sorted(LEAGUE_DB - LEAGUE_MIGRATIONS):
        if os.path.basename(path) in OWN_WORDS and path.startswith(STORE + os.sep):
            continue
        if path.startswith(MIGRATIONS + os.sep):
            continue
        tree = parse(path)
        bad += ["%s: %r" % (os.path.relpath(path, ROOT), s[:60]) for s in sql_in(tree)]
        bad += [
            "%s imports sqlite3" % os.path.relpath(path, ROOT) for m in imported(tree) if m.split(".")[0] == "sqlite3"
        ]
    assert bad == []


def test_no_regular_expression_rewrites_sql():
    """A module that writes SQL or runs the store's statements uses no regular expressions:
    a database's own SQL is compiled by its dialect, never made of another's text by pattern."""
    bad = []
    for path in list(sources(STORE)) + sorted(LEAGUE_DB):
        tree = parse(path)
        mods = imported(tree)
        if "re" in mods and (sql_in(tree) or "scorebox.store.sql" in mods):
            bad.append(os.path.relpath(path, ROOT))
    assert bad == []


# A connection used outside the store: an attribute `.db` followed by anything (`store.db.execute`,
# `store.db)` passed on), or a call of execute / executemany / executescript on anything.
CONNECTION = re.compile(r"\.db\b(?!\s*=)|\bexecute(?:many|script)?\s*\(")


def connection_uses(source):
    """(line number, line) of each use of a connection in source, comments and `args.db` aside."""
    out = []
    for n, line in enumerate(source.splitlines(), 1):
        code = line.split("#")[0]
        code = re.sub(r"\bargs\.db\b", "", code)  # a command's --db: a path, not a connection
        code = re.sub(r"^\s*from [\w.]+ import .*", "", code)  # a module's name (scorebox.league.db)
        if CONNECTION.search(code):
            out.append((n, line.strip()))
    return out


def test_the_scanner_finds_connections():
    found = connection_uses(
        "rows = queries.totals(store.db)\n"
        "store.db.execute('x')\n"
        "cur.executemany(q, rows)\n"
        "db = store.db\n"
        "path = args.db or default_path()  # --db\n"
        "from scorebox.league.db import LeagueDB\n"
        "print('a --db file')\n"
    )
    assert [n for n, _ in found] == [1, 2, 3, 4]


def test_nothing_outside_the_store_touches_a_connection():
    bad = []
    for path in OUTSIDE_STORE:
        with open(path, encoding="utf-8") as f:
            bad += ["%s:%d: %s" % (os.path.relpath(path, ROOT), n, line) for n, line in connection_uses(f.read())]
    assert bad == []


def private_uses(tree, names):
    """(line, name) of each of names (beginning with `_`) that a module takes from another:
    imported (`from scorebox.store.queries import _SQL`) or read off anything but self or cls
    (`store._write`)."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            out += [(node.lineno, a.name) for a in node.names if a.name in names]
        elif isinstance(node, ast.Attribute) and node.attr in names:
            if not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
                out.append((node.lineno, node.attr))
    return out


def private_names(paths):
    """The names beginning with `_` (not Python's `__x__`) that these modules define: their
    functions, classes, methods, module names and attributes set on self."""
    out = set()
    for path in paths:
        for node in ast.walk(parse(path)):
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                out.add(node.name)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                out.add(node.id)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                out.add(node.attr)
    return {n for n in out if n.startswith("_") and not n.endswith("__")}


def test_the_scanner_finds_private_names():
    tree = ast.parse(
        "from scorebox.store.queries import _SQL, score\nstore._write(run)\nself._write(run)\nos._exit(1)\n"
    )
    assert private_uses(tree, {"_SQL", "_write"}) == [(1, "_SQL"), (2, "_write")]


def test_nothing_outside_the_store_uses_its_private_names():
    """The Store's interface is its public methods (store/base.py): no module outside the store,
    the league's database code included, imports or calls a name of the store's that begins
    with `_`."""
    names = private_names(sources(STORE))
    assert {"_device", "_quarantine", "_LISTED"} <= names
    bad = []
    for path in OUTSIDE_STORE + sorted(LEAGUE_DB):
        rel = os.path.relpath(path, ROOT)
        bad += ["%s:%d: %s" % (rel, n, name) for n, name in private_uses(parse(path), names)]
    assert bad == []


def test_package_inits_are_docstrings():
    bad = []
    for path in sources(PACKAGE, skip=(SIM_MPY,)):
        if os.path.basename(path) != "__init__.py":
            continue
        body = parse(path).body
        if not (len(body) == 1 and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)):
            bad.append(os.path.relpath(path, ROOT))
    assert bad == []


# Layer -> the layers it may import. Every layer may import the core (scorebox_core), the
# error base class (scorebox.errors), the child-process helper (scorebox.process), the
# terminal's text helpers (scorebox.text) and the user's data folder (scorebox.paths).
BASE = ("errors", "process", "text", "paths")
LAYERS = {
    "cli": ("demo", "league", "web", "events", "commands", "sync", "report", "games", "sim", "device", "store"),
    "league": ("store",),
    "web": ("events", "commands", "sync", "report", "games", "sim", "device", "store"),  # commands: the Push page's
    "commands": ("store",),
    "events": ("games", "store"),  # an evening's or a tournament's pairings, standings and commands
    "demo": ("sync", "report", "sim", "device", "store"),
    "sync": ("device", "store"),
    "report": ("games", "store"),
    "games": ("store",),  # each game's PC part and the registry that finds them
    "sim": ("device",),
    "device": (),
    "store": (),
    "errors": (),
    "process": (),
    "text": (),
    "paths": (),
}


def layer_of(path):
    return os.path.relpath(path, PACKAGE).split(os.sep)[0].replace(".py", "")


def test_each_layer_imports_only_the_layers_below():
    bad = []
    for path in sources(PACKAGE, skip=(SIM_MPY,)):
        if path == os.path.join(PACKAGE, "__init__.py"):
            continue
        layer = layer_of(path)
        assert layer in LAYERS, "%s: a new layer: add it to LAYERS here and to ARCHITECTURE.md" % path
        allowed = (layer,) + LAYERS[layer] + BASE
        for name in sorted(imported(parse(path))):
            parts = name.split(".")
            if parts[0] == "scorebox" and len(parts) > 1 and parts[1] not in allowed:
                bad.append("%s (%s) imports %s" % (os.path.relpath(path, ROOT), layer, name))
    assert bad == []
