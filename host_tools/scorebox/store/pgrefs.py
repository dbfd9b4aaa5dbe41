"""Three of the schema's foreign keys checked once a statement on PostgreSQL, not once a row:
a turn's game and archer, an arrow's turn (schema.py's REFERENCES of turns and arrows).

PostgreSQL checks a foreign key with a trigger for each row written (a query and a lock on
the row referred to). A league's push of 1,000 Tic Tac BOW matches writes some 20,000 turns
and 30,000 arrows: those checks took 0.4-0.5 s of it (docs/league.md's Speed). Here they
are made instead by triggers that run once a statement, each one query over the statement's
rows (its transition table), with the foreign keys' rules:

- a row written to turns or arrows (inserted or changed) refers to a row that exists, or to
  none (NULL, a turn's archer left out);
- a game or a turn deleted takes its turns or arrows with it (ON DELETE CASCADE); an archer
  some turn refers to cannot be deleted, and no row referred to can change its id;
- none of the three tables referred to can be truncated (a foreign key lets one be truncated
  with the tables that refer to it; never done by the store).

An UPDATE of any of the five tables is checked whatever columns it sets (a trigger with a
transition table cannot name its columns): one indexed query over the rows it changed, under
10 ms for the store's updates of a few rows.

What a foreign key also does, a lock on the row referred to while the writing transaction
lasts, the store's write lock does (postgres.py): the writers that hold it shared (clubs'
pushes) only add rows, referring to their own new rows or to archers, whom only a writer
holding it alone deletes; SQL written to the server without it has only the checks. The
store's first migration makes the triggers (store/migrations), its tables made without those
three foreign keys (store/tables.py). The SQLite store keeps its foreign keys: both refuse the
same rows (tests/pc/test_store_refs.py)."""

# (table, its column, the table it refers to, what deleting that one's row does)
REFS = (
    ("turns", "game_id", "games", "CASCADE"),
    ("turns", "archer_id", "archers", "NO ACTION"),
    ("arrows", "turn_id", "turns", "CASCADE"),
)

FUNCTIONS = r"""
CREATE OR REPLACE FUNCTION scorebox_refs_written() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE missing bigint;
BEGIN
    EXECUTE format('SELECT n.%1$I FROM scorebox_new n WHERE n.%1$I IS NOT NULL '
                   'AND NOT EXISTS (SELECT 1 FROM %2$I.%3$I p WHERE p.id = n.%1$I) LIMIT 1',
                   TG_ARGV[0], TG_TABLE_SCHEMA, TG_ARGV[1])
        INTO missing;
    IF missing IS NOT NULL THEN
        RAISE foreign_key_violation USING MESSAGE = format(
            'insert or update on table "%s" refers to no row: %s = %s is not in "%s"',
            TG_TABLE_NAME, TG_ARGV[0], missing, TG_ARGV[1]);
    END IF;
    RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION scorebox_refs_gone() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE gone text := format('SELECT o.id FROM scorebox_old o WHERE NOT EXISTS '
                            '(SELECT 1 FROM %I.%I p WHERE p.id = o.id)', TG_TABLE_SCHEMA, TG_TABLE_NAME);
DECLARE child text := format('%I.%I', TG_TABLE_SCHEMA, TG_ARGV[0]);
DECLARE held bigint;
BEGIN
    IF TG_OP = 'DELETE' AND TG_ARGV[2] = 'CASCADE' THEN
        EXECUTE format('DELETE FROM %s WHERE %I IN (%s)', child, TG_ARGV[1], gone);
        RETURN NULL;
    END IF;
    EXECUTE format('SELECT c.%2$I FROM %1$s c WHERE c.%2$I IN (%3$s) LIMIT 1', child, TG_ARGV[1], gone)
        INTO held;
    IF held IS NOT NULL THEN
        RAISE foreign_key_violation USING MESSAGE = format(
            'update or delete on table "%s": id %s is still referred to from table "%s"',
            TG_TABLE_NAME, held, TG_ARGV[0]);
    END IF;
    RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION scorebox_refs_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE feature_not_supported USING MESSAGE = format(
        'table "%s" is referred to from table "%s": it is not truncated', TG_TABLE_NAME, TG_ARGV[0]);
END $$;
"""


def _triggers(table, column, parent, action):
    """{trigger's name: the statement that makes it} for one reference."""
    name = "scorebox_refs_%s_%s" % (table, column)
    new = "REFERENCING NEW TABLE AS scorebox_new FOR EACH STATEMENT"
    old = "REFERENCING OLD TABLE AS scorebox_old FOR EACH STATEMENT"
    written = "EXECUTE FUNCTION scorebox_refs_written('%s', '%s')" % (column, parent)
    gone = "EXECUTE FUNCTION scorebox_refs_gone('%s', '%s', '%s')" % (table, column, action)
    made = {
        "_ins": "AFTER INSERT ON %s %s %s" % (table, new, written),
        "_upd": "AFTER UPDATE ON %s %s %s" % (table, new, written),
        "_del": "AFTER DELETE ON %s %s %s" % (parent, old, gone),
        "_key": "AFTER UPDATE ON %s %s %s" % (parent, old, gone),
        "_trunc": "BEFORE TRUNCATE ON %s FOR EACH STATEMENT EXECUTE FUNCTION scorebox_refs_truncate('%s')"
        % (parent, table),
    }
    return {name + end: "CREATE OR REPLACE TRIGGER %s%s %s" % (name, end, sql) for end, sql in made.items()}


TRIGGERS = {name: sql for ref in REFS for name, sql in _triggers(*ref).items()}


def unmatched(table, column, parent):
    """The query counting table's rows whose column refers to no row of parent: what adding a
    foreign key checks (tests/support/leaguegen.py's bulk load runs without the triggers)."""
    return "SELECT count(*) FROM %s c WHERE c.%s IS NOT NULL AND NOT EXISTS (SELECT 1 FROM %s p WHERE p.id = c.%s)" % (
        table,
        column,
        parent,
        column,
    )
