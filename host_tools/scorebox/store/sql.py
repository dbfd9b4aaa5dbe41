"""The store's statements, written once in SQLAlchemy Core and compiled by each database's own
dialect: SQLite's for the club's store (store/sqlite.py), PostgreSQL's for a league's
(store/postgres.py). SQLAlchemy builds and compiles here; it does not run them: each store
keeps its own connection (sqlite3, psycopg) and runs the compiled text on it, so that the
write lock, the transactions and the errors stay the store's.

Where a meaning is spelled differently by the two databases it is one construct below,
compiled per dialect (`@compiles`): a field of a JSON text, a case-blind name, the month of a
time, the smaller or larger of two values, a JSON array of a group's values, a group's values
joined by commas.

    run(db, statement, {"uid": uid})    a statement's bound parameters by name
    insert_rows(db, table, columns, rows)  many rows, as tuples in columns' order: SQLite's
                                        executemany, PostgreSQL's COPY
    insert_made(db, table, params, values, rows)  many rows whose columns are made of their
                                        parameters by SQL (values), not by Python a row
    Each(build)                         a statement each database writes with its own
                                        INSERT (ON CONFLICT ...): build(insert) makes it
"""

import functools

from sqlalchemy import Column, MetaData, Table, Text, bindparam, func, insert, select
from sqlalchemy.dialects import sqlite
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.schema import CreateTable
from sqlalchemy.sql.expression import ColumnElement, FunctionElement
from sqlalchemy.sql.selectable import Join
from sqlalchemy.types import BigInteger, Double, Integer, LargeBinary


@functools.cache
def dialect(name):
    """The dialect of the database name ("sqlite" or "postgresql"), with the parameter style
    its driver takes as a dict: sqlite3's `:name`, psycopg's `%(name)s`. PostgreSQL's is
    imported on first use: a club's store never needs it, and it is a tenth of a command's
    start."""
    if name == "sqlite":
        return sqlite.dialect(paramstyle="named")
    from sqlalchemy.dialects.postgresql import psycopg

    return psycopg.dialect(paramstyle="pyformat")


_QMARK = sqlite.dialect(paramstyle="qmark")  # executemany's rows as tuples


@functools.lru_cache(maxsize=2048)
def _compiled(statement, dialect_name):
    c = statement.compile(dialect=dialect(dialect_name))
    return str(c), c


def compiled_text(statement, dialect_name):
    """statement's SQL as the database dialect_name ("sqlite" or "postgresql") spells it."""
    return _compiled(statement, dialect_name)[0]


class Each:
    """A statement written with each database's own INSERT (its ON CONFLICT clauses):
    build(insert) makes it, once for each database, when it first runs there."""

    def __init__(self, build):
        self.build = build
        self.built = {}

    def on(self, dialect_name):
        """The statement as written for the database dialect_name."""
        if dialect_name not in self.built:
            if dialect_name == "sqlite":
                self.built[dialect_name] = self.build(sqlite.insert)
            else:
                from sqlalchemy.dialects.postgresql import insert as postgresql_insert

                self.built[dialect_name] = self.build(postgresql_insert)
        return self.built[dialect_name]


def run(db, statement, params=None):
    """Run statement on a store's connection db (its `dialect` names the database) with
    params, {name: value} for its bindparams; values written into the statement (a literal
    compared with, an IN list) go with them. Returns the driver's cursor."""
    if isinstance(statement, Each):
        statement = statement.on(db.dialect)
    text, c = _compiled(statement, db.dialect)
    if c.post_compile_params:  # an IN list: one parameter of the text per value
        expanded = c.construct_expanded_state(params)
        return db.execute(expanded.statement, expanded.parameters)
    return db.execute(text, c.construct_params(params, _check=False))


def insert_rows(db, table, columns, rows):
    """Insert rows (tuples, in columns' order) into table: one executemany on SQLite; on
    PostgreSQL one COPY, not a statement a row."""
    rows = list(rows)
    if not rows:
        return
    if db.dialect == "postgresql":
        db.copy(table.name, tuple(columns), rows)
    else:
        db.executemany(_insert_text(table, tuple(columns)), rows)


def next_ids(db, table, n):
    """n new ids for table's rows, one after another, from PostgreSQL's identity sequence
    (postgres.py's Connection takes them under a lock of their own, so that another writer's
    come before or after them, never between: a batch's matches are one range of ids).
    SQLite has no sequence: its writer numbers a batch from the highest id, under the store's
    write lock."""
    if not n:
        return []
    with db.taking_ids():
        return [i for (i,) in run(db, _NEXTVAL, {"table": table.name, "n": n})]


_NEXTVAL = select(func.nextval(func.pg_get_serial_sequence(bindparam("table", type_=Text()), "id"))).select_from(
    func.generate_series(1, bindparam("n", type_=Integer()))
)


def run_many(db, statement, rows):
    """statement run once for each of rows ({name: value} each), as executemany."""
    if isinstance(statement, Each):
        statement = statement.on(db.dialect)
    db.executemany(compiled_text(statement, db.dialect), rows)


def compile_ahead(dialect_name, statements=(), inserts=(), made=()):
    """Compile now, for the database dialect_name, what a writer is about to run: statements (as
    run and run_many take them), inserts ((table, columns) as insert_rows takes them) and made
    ((table, params, values) as insert_made takes them), so that their first run finds them
    compiled: a sync compiles what its storing runs while the box sends the first file."""
    made = [_staged(table, params, values, dialect_name) for table, params, values in made]
    for statement in list(statements) + [fill for _, _, fill in made]:
        _compiled(statement.on(dialect_name) if isinstance(statement, Each) else statement, dialect_name)
    if dialect_name == "sqlite":  # PostgreSQL takes these rows by COPY
        for table, columns in list(inserts) + [(staged, staged.c.keys()) for staged, _, _ in made]:
            _insert_text(table, tuple(columns))


def insert_made(db, table, params, values, rows):
    """Insert rows (tuples of the parameters params: ((name, Python type), ...)) into table,
    its columns made of the parameters by SQL: values({name: a parameter's expression}) gives
    {column: its expression}. The rows go into a temporary table of the parameters as
    insert_rows puts them (SQLite's executemany, PostgreSQL's COPY), then one INSERT ... SELECT
    makes the columns of all of them: each parameter is bound once a row, however often the
    columns use it, and no Python runs a row."""
    rows = list(rows)
    if not rows:
        return
    staged, create, fill = _staged(table, params, values, db.dialect)
    with db.savepoint():
        db.execute(create, {})
        insert_rows(db, staged, [name for name, _ in params], rows)
        run(db, fill)
        db.execute("DROP TABLE %s" % STAGED, {})


STAGED = "scorebox_params"  # insert_made's temporary table
_TYPES = {int: BigInteger(), float: Double(), str: Text(), bytes: LargeBinary()}


@functools.lru_cache(maxsize=16)
def _staged(table, params, values, dialect_name):
    """insert_made's temporary table, its CREATE for the database dialect_name, and the INSERT
    from it."""
    staged = Table(STAGED, MetaData(), *(Column(p, _TYPES[k]) for p, k in params), prefixes=["TEMPORARY"])
    made = values({p: staged.c[p] for p, _ in params})
    create = str(CreateTable(staged).compile(dialect=dialect(dialect_name)))
    return staged, create, insert(table).from_select(list(made), select(*made.values()))


@functools.lru_cache(maxsize=64)
def _insert_text(table, columns):
    statement = insert(table).values({c: bindparam(c) for c in columns})
    return str(statement.compile(dialect=_QMARK))


# --- what the two databases spell differently --------------------------------------------


class json_text(FunctionElement):
    """The value at path ("result.abandoned") in a column of JSON text: a string as itself,
    a number or an array as its JSON text (SQLite gives a number as a number), NULL where
    there is none."""

    type = Text()
    inherit_cache = False

    def __init__(self, expr, path):
        self.path = tuple(path.split("."))
        super().__init__(expr)


@compiles(json_text)  # SQLite's words where no database is named (a statement printed)
@compiles(json_text, "sqlite")
def _json_text_sqlite(element, compiler, **kw):
    return "json_extract(%s, '$.%s')" % (compiler.process(element.clauses, **kw), ".".join(element.path))


@compiles(json_text, "postgresql")
def _json_text_pg(element, compiler, **kw):
    return "(%s::jsonb #>> '{%s}')" % (compiler.process(element.clauses, **kw), ",".join(element.path))


class json_truth(FunctionElement):
    """Whether the value at path in a column of JSON text is true (SQLite's 1 or 0, and NULL
    where there is none; PostgreSQL's true or false)."""

    type = Integer()
    inherit_cache = False

    def __init__(self, expr, path):
        self.path = tuple(path.split("."))
        super().__init__(expr)


@compiles(json_truth, "sqlite")
def _json_truth_sqlite(element, compiler, **kw):
    return _json_text_sqlite(element, compiler, **kw)


@compiles(json_truth, "postgresql")
def _json_truth_pg(element, compiler, **kw):
    return "(%s::jsonb #> '{%s}' = 'true'::jsonb)" % (compiler.process(element.clauses, **kw), ",".join(element.path))


class nocase(ColumnElement):
    """A name compared and ordered blind to case (ASCII's letters, as SQLite's NOCASE)."""

    type = Text()
    inherit_cache = False

    def __init__(self, expr):
        self.expr = expr


@compiles(nocase, "sqlite")
def _nocase_sqlite(element, compiler, **kw):
    return "%s COLLATE NOCASE" % compiler.process(element.expr, **kw)


@compiles(nocase, "postgresql")
def _nocase_pg(element, compiler, **kw):
    return 'lower(%s) COLLATE "C"' % compiler.process(element.expr, **kw)


class month(FunctionElement):
    """The month ('2026-12') of a time in seconds since the epoch, in the local time zone
    (PostgreSQL's: the session's, set to the PC's by store/postgres.py)."""

    type = Text()
    inherit_cache = False


@compiles(month, "sqlite")
def _month_sqlite(element, compiler, **kw):
    return "strftime('%Y-%m', " + compiler.process(element.clauses, **kw) + ", 'unixepoch', 'localtime')"


@compiles(month, "postgresql")
def _month_pg(element, compiler, **kw):
    return "to_char(to_timestamp(%s), 'YYYY-MM')" % compiler.process(element.clauses, **kw)


class least(FunctionElement):
    """The smaller of the values (SQLite's min of several, PostgreSQL's least)."""

    inherit_cache = False


class greatest(FunctionElement):
    """The larger of the values (SQLite's max of several, PostgreSQL's greatest)."""

    inherit_cache = False


@compiles(least, "sqlite")
def _least_sqlite(element, compiler, **kw):
    return "min(%s)" % compiler.process(element.clauses, **kw)


@compiles(greatest, "sqlite")
def _greatest_sqlite(element, compiler, **kw):
    return "max(%s)" % compiler.process(element.clauses, **kw)


@compiles(least, "postgresql")
def _least_pg(element, compiler, **kw):
    return "least(%s)" % compiler.process(element.clauses, **kw)


@compiles(greatest, "postgresql")
def _greatest_pg(element, compiler, **kw):
    return "greatest(%s)" % compiler.process(element.clauses, **kw)


class json_array(FunctionElement):
    """The JSON text of an array of a group's values, in the order they come ('[]' for none)."""

    type = Text()
    inherit_cache = False


@compiles(json_array, "sqlite")
def _json_array_sqlite(element, compiler, **kw):
    return "json_group_array(%s)" % compiler.process(element.clauses, **kw)


@compiles(json_array, "postgresql")
def _json_array_pg(element, compiler, **kw):
    # SQLite's text, no space after a comma (json_agg's has one): a read gives it as it is
    return "coalesce(array_to_json(array_agg(%s))::text, '[]')" % compiler.process(element.clauses, **kw)


class distinct_strings(FunctionElement):
    """A group's distinct values joined by commas, in no given order (SQLite's group_concat
    of DISTINCT takes no separator: its own, a comma, is the one)."""

    type = Text()
    inherit_cache = False


@compiles(distinct_strings, "sqlite")
def _distinct_strings_sqlite(element, compiler, **kw):
    return "group_concat(DISTINCT %s)" % compiler.process(element.clauses, **kw)


@compiles(distinct_strings, "postgresql")
def _distinct_strings_pg(element, compiler, **kw):
    return "string_agg(DISTINCT %s, ',')" % compiler.process(element.clauses, **kw)


class strings(FunctionElement):
    """A group's values joined by commas, in the order they come."""

    type = Text()
    inherit_cache = False


@compiles(strings, "sqlite")
def _strings_sqlite(element, compiler, **kw):
    return "group_concat(%s, ',')" % compiler.process(element.clauses, **kw)


@compiles(strings, "postgresql")
def _strings_pg(element, compiler, **kw):
    return "string_agg(%s, ',')" % compiler.process(element.clauses, **kw)


# --- a join in the order written ----------------------------------------------------------------
class cross_join(Join):
    """cross_join(left, right, onclause): a join whose tables SQLite's planner takes in the
    order written (its CROSS JOIN ... ON), where its own order would be slower (historydb.py's
    arrows in play order: no sort); PostgreSQL's plain JOIN."""

    inherit_cache = True


@compiles(cross_join)
def _cross_join(element, compiler, **kw):
    return compiler.visit_join(element, **kw)


@compiles(cross_join, "sqlite")
def _cross_join_sqlite(element, compiler, **kw):
    kw.pop("asfrom", None)
    return "%s CROSS JOIN %s ON %s" % (
        element.left._compiler_dispatch(compiler, asfrom=True, **kw),
        element.right._compiler_dispatch(compiler, asfrom=True, **kw),
        element.onclause._compiler_dispatch(compiler, **kw),
    )
