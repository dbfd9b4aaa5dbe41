"""PostgreSQL's dialect of the store's SQL: the one place where the SQLite SQL that the
store's shared parts write (queries.py, rosterdb.py, historydb.py, rows.py, sqlite.py) is
made PostgreSQL's, for store/postgres.py.

Two kinds of difference, each in one place here (the schema is declared once, store/tables.py,
and each database makes it in its own words: store/migrations):
- the statement's text (`pg_sql`): placeholders (`?`, `?N` as `%s`), a few words SQLite
  has and PostgreSQL spells otherwise (REWRITES), a subquery's name; an INSERT of many
  rows (executemany's) as COPY (`pg_copy`, `pg_staged`), not a statement a row;
- SQLite's functions the queries call (json_extract, json_group_array, group_concat,
  strftime, sum of a truth value): defined in the PostgreSQL store itself (FUNCTIONS), with
  SQLite's meaning, so that the queries stay one text for both.
"""

import functools
import re

# SQLite's words in a statement and PostgreSQL's for them.
REWRITES = (
    (re.compile(r"\b(\w+(?:\.\w+)?) COLLATE NOCASE"), r'lower(\1) COLLATE "C"'),  # SQLite's NOCASE: ASCII only
    (re.compile(r"\bmin\((\w+), "), r"least(\1, "),  # SQLite's min and max of two values
    (re.compile(r"\bmax\((\w+), "), r"greatest(\1, "),
    (re.compile(r"(?<![.\w\"])offset\b"), '"offset"'),  # a column of quarantine: a keyword to PostgreSQL
    (re.compile(r"\bCROSS JOIN\b"), "JOIN"),  # SQLite's way of fixing the join order takes ON; PostgreSQL's not
    (re.compile(r"\bORDER BY rowid\b"), "ORDER BY ctid"),  # a table only ever added to: the order rows came in
    (re.compile(r"^BEGIN IMMEDIATE$"), "BEGIN"),  # the write lock: postgres.py takes it before BEGIN
    # a truth value as a number where a CASE gives numbers otherwise (SQLite's are 0 and 1)
    (re.compile(r"\bTHEN (\w+(?:\.\w+)?) IS NOT NULL\b"), r"THEN CASE WHEN \1 IS NULL THEN 0 ELSE 1 END"),
)
_SUBQUERY = re.compile(r"\bFROM \(")
_ALIASED = re.compile(r"\s*(AS\s|[a-z_]\w*)")  # the queries write keywords in capitals, names in small letters

# SQLite's functions the shared queries call, with SQLite's meaning, and the next id of a
# table whose rows the store numbers itself (a row's id given when none is: rows.py gives a
# batch's ids under the write lock, which a sequence would not follow). Made by the store's
# first migration (store/migrations), in its transaction.
FUNCTIONS = r"""
CREATE FUNCTION scorebox_next_id(t regclass) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE n bigint;
BEGIN
    EXECUTE format('SELECT coalesce(max(id), 0) + 1 FROM %s', t) INTO n;
    RETURN n;
END $$;
-- json_extract(text, '$.a.b'): a string as text, a number as its text, true as '1' and
-- false as '' (SQLite's 1 and 0: Python reads both as the truth they are), null as NULL.
CREATE FUNCTION json_extract(doc text, path text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE jsonb_typeof(v) WHEN 'string' THEN v #>> '{}' WHEN 'null' THEN NULL
        WHEN 'boolean' THEN CASE WHEN v::boolean THEN '1' ELSE '' END ELSE v::text END
    FROM (SELECT doc::jsonb #> string_to_array(substr(path, 3), '.') AS v) AS s
$$;
CREATE FUNCTION scorebox_json_text(a text[]) RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT array_to_json(a)::text
$$;
CREATE AGGREGATE json_group_array(text) (
    SFUNC = array_append, STYPE = text[], INITCOND = '{}', FINALFUNC = scorebox_json_text
);
CREATE FUNCTION scorebox_concat(acc text, v text, sep text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN v IS NULL THEN acc WHEN acc IS NULL THEN v ELSE acc || sep || v END
$$;
CREATE FUNCTION scorebox_concat(acc text, v text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT scorebox_concat(acc, v, ',')
$$;
CREATE AGGREGATE group_concat(text, text) (SFUNC = scorebox_concat, STYPE = text);
CREATE AGGREGATE group_concat(text) (SFUNC = scorebox_concat, STYPE = text);
-- sum(a = b): SQLite's truth values are 0 and 1; NULL as nothing, as SQLite's sum
CREATE FUNCTION scorebox_add(acc bigint, v boolean) RETURNS bigint LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN v IS NULL THEN acc ELSE coalesce(acc, 0) + v::int END
$$;
CREATE AGGREGATE sum(boolean) (SFUNC = scorebox_add, STYPE = bigint);
-- strftime('%Y-%m', seconds, 'unixepoch', 'localtime'): the month, in the session's time zone
CREATE FUNCTION strftime(fmt text, t double precision, unit text, zone text) RETURNS text
LANGUAGE sql STABLE AS $$
    SELECT to_char(to_timestamp(t), replace(replace(fmt, '%Y', 'YYYY'), '%m', 'MM'))
$$;
"""


@functools.lru_cache(maxsize=512)
def pg_sql(sql):
    """(statement, order) for psycopg: SQLite's statement with PostgreSQL's words and `%s`
    placeholders; order, for a statement with numbered ones (`?3`), the index into the
    parameters of each `%s` (None: as given)."""
    sql = _alias_subqueries(_rewritten(sql))
    out, order, numbered = [], [], False
    # the text between string literals (the odd parts, split on quotes, are inside one)
    for i, part in enumerate(sql.split("'")):
        part = part.replace("%", "%%")  # psycopg reads % in literals too
        if i % 2 == 0:
            pieces = re.split(r"\?(\d*)", part)
            for j in range(1, len(pieces), 2):
                if pieces[j]:
                    numbered = True
                    order.append(int(pieces[j]) - 1)
                else:
                    order.append(len(order))
                pieces[j] = "%s"
            part = "".join(pieces)
        out.append(part)
    return "'".join(out), tuple(order) if numbered else None


def _rewritten(sql):
    for pattern, repl in REWRITES:
        sql = pattern.sub(repl, sql)
    return sql


# executemany's rows of an INSERT sent at once (postgres.py): by COPY
_INSERT = re.compile(r"^INSERT INTO (\w+(?: \([\w, ]+\))?) VALUES \((.*)\)$", re.S)
_PLAIN = re.compile(r"\?(?:, \?)*")
COLUMN_TYPES = {int: "bigint", float: "double precision", str: "text", bytes: "bytea"}  # a parameter's


@functools.lru_cache(maxsize=64)
def pg_copy(sql):
    """`COPY table (columns) FROM STDIN` for an INSERT of one row of plain `?` values; None
    for any other statement."""
    m = _INSERT.match(sql)
    if not m or not _PLAIN.fullmatch(m.group(2)):
        return None
    return _rewritten("COPY %s FROM STDIN" % m.group(1))


@functools.lru_cache(maxsize=64)
def pg_staged(sql, types):
    """An INSERT whose values are made of the parameters (`?3 >> 2`), for all rows at once:
    (CREATE a temporary table of the parameters' columns, of types: COLUMN_TYPES' words; its
    COPY; the INSERT of the values SELECTed from it); None: not an INSERT."""
    m = _INSERT.match(sql)
    if not m or len({bool(n) for n in re.findall(r"\?(\d*)", m.group(2))}) != 1:
        return None  # not an INSERT; or `?` beside `?3`, as SQLite numbers them: one by one
    count = iter(range(1, len(types) + 1))
    parts = m.group(2).split("'")  # the text between string literals, as pg_sql
    for i in range(0, len(parts), 2):
        parts[i] = re.sub(r"\?(\d*)", lambda p: "p%s" % (p.group(1) or next(count)), parts[i])
    columns = ", ".join("p%d %s" % (n, t) for n, t in enumerate(types, 1))
    return (
        "CREATE TEMPORARY TABLE scorebox_params (%s)" % columns,
        "COPY scorebox_params FROM STDIN",
        _rewritten("INSERT INTO %s SELECT %s FROM scorebox_params" % (m.group(1), "'".join(parts))),
    )


def _alias_subqueries(sql):
    """A name for each subquery in a FROM that has none: PostgreSQL 15 asks for one."""
    ends = []
    for m in _SUBQUERY.finditer(sql):
        depth, i = 0, m.end() - 1
        while i < len(sql):
            depth += {"(": 1, ")": -1}.get(sql[i], 0)
            if depth == 0:
                break
            i += 1
        if i < len(sql) and not _ALIASED.match(sql, i + 1):
            ends.append(i + 1)
    for n, i in enumerate(sorted(ends, reverse=True), 1):
        sql = sql[:i] + " AS sub%d" % n + sql[i:]
    return sql
