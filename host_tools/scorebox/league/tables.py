"""A league's own tables, beside the club store's on its PostgreSQL database, declared once in
SQLAlchemy Core: league/keep.py and league/db.py write their statements over these, and
tests/pc/test_league_tables.py holds the schema league/migrations makes to this declaration
(as store/tables.py is held to store/migrations'). A later change here comes with a migration
of its own: the baseline script is never edited once released.

Their own MetaData: the club store's tables (store/tables.py) are referred to, not declared.
"""

from sqlalchemy import (
    BigInteger,
    CheckConstraint,
    Column,
    Date,
    Double,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    Table,
    Text,
    UniqueConstraint,
    literal_column,
)

from scorebox.store import tables as store

metadata = MetaData()


def _club():
    return Column("club_id", BigInteger, ForeignKey("league_clubs.id"), nullable=False)


def _counts():
    """A kept total's four counts."""
    return [Column(name, BigInteger, nullable=False) for name in ("matches", "wins", "draws", "losses")]


league_clubs = Table(
    "league_clubs",
    metadata,
    Column("id", BigInteger, primary_key=True),
    Column("name", Text, nullable=False, unique=True),
    Column("token_id", Text, nullable=False, unique=True),
    Column("token_hash", Text, nullable=False),
    Column("added", Double, nullable=False),
)

# Which club each box belongs to.
league_boxes = Table(
    "league_boxes",
    metadata,
    Column("uid", Text, primary_key=True),
    _club(),
    Column("claimed", Double, nullable=False),
)
Index("league_boxes_by_club", league_boxes.c.club_id)

# The log of every push, refused ones too: a club's push taken once (its push_id).
league_pushes = Table(
    "league_pushes",
    metadata,
    Column("id", BigInteger, primary_key=True),
    Column("club_id", BigInteger, ForeignKey("league_clubs.id")),
    Column("push_id", Text),
    Column("pushed", Double, nullable=False),
    Column("remote", Text),
    Column("sent", Integer, nullable=False),
    Column("stored", Integer, nullable=False),
    Column("held", Integer, nullable=False),
    Column("status", Integer, nullable=False),
    Column("outcome", Text, nullable=False),
)
TAKEN = literal_column("200", Integer)  # a push's status when it was taken
Index(
    "league_pushes_once",
    league_pushes.c.club_id,
    league_pushes.c.push_id,
    unique=True,
    postgresql_where=league_pushes.c.status == TAKEN,
)
Index("league_pushes_by_club", league_pushes.c.club_id, league_pushes.c.id)

league_seasons = Table(
    "league_seasons",
    metadata,
    Column("id", BigInteger, primary_key=True),
    Column("name", Text, nullable=False, unique=True),
    Column("first_day", Date, nullable=False),
    Column("last_day", Date, nullable=False),
    Column("added", Double, nullable=False),
    CheckConstraint("first_day <= last_day"),
)

# An archer of the club store's as a club's (a guest is their home club's).
league_archers = Table(
    "league_archers",
    metadata,
    Column("id", BigInteger, primary_key=True),
    _club(),
    Column("archer_id", BigInteger, ForeignKey(store.archers.c.id), nullable=False),
    UniqueConstraint("club_id", "archer_id"),
)

# What is kept as matches are stored (league/keep.py): each match's sides as league archers,
# with its game, day and their outcome (W, D, L or none)...
league_match_sides = Table(
    "league_match_sides",
    metadata,
    Column("match_id", BigInteger, ForeignKey(store.matches.c.id, ondelete="CASCADE"), nullable=False),
    Column("side", Text, nullable=False),
    Column("position", Integer, nullable=False),
    Column("archer_id", BigInteger, ForeignKey("league_archers.id"), nullable=False),
    Column("game", Text, nullable=False),
    Column("day", Date),
    Column("outcome", Text),
    PrimaryKeyConstraint("match_id", "side", "position"),
)
Index(
    "league_match_sides_by_archer",
    league_match_sides.c.archer_id,
    league_match_sides.c.day.desc().nulls_last(),
    league_match_sides.c.match_id.desc(),
)

# ... the counts per club, game and day (only added to: a batch's rows beside another's) ...
league_club_days = Table(
    "league_club_days",
    metadata,
    _club(),
    Column("game", Text, nullable=False),
    Column("day", Date),
    *_counts(),
)
Index("league_club_days_by_day", league_club_days.c.day)

# ... and the totals per club and archer, season (0: every match) and game, added to in place.
league_club_totals = Table(
    "league_club_totals",
    metadata,
    _club(),
    Column("season_id", BigInteger, nullable=False),
    Column("game", Text, nullable=False),
    *_counts(),
    PrimaryKeyConstraint("club_id", "season_id", "game"),
)
Index("league_club_totals_by_season", league_club_totals.c.season_id)

league_archer_totals = Table(
    "league_archer_totals",
    metadata,
    Column("archer_id", BigInteger, ForeignKey("league_archers.id"), nullable=False),
    Column("season_id", BigInteger, nullable=False),
    Column("game", Text, nullable=False),
    *_counts(),
    PrimaryKeyConstraint("archer_id", "season_id", "game"),
)
Index("league_archer_totals_by_season", league_archer_totals.c.season_id)

# The clubs of a match's sides when they are not both its box's club's (a guest archer's home
# club, from the push's `clubs`): a row for each side of such a match, none for the others.
# Not kept from the matches: what the club said. By club, newest first, for a club's page.
league_match_clubs = Table(
    "league_match_clubs",
    metadata,
    Column("match_id", BigInteger, ForeignKey(store.matches.c.id, ondelete="CASCADE"), nullable=False),
    Column("side", Text, nullable=False),
    _club(),
    PrimaryKeyConstraint("match_id", "side"),
)
Index("league_match_clubs_by_club", league_match_clubs.c.club_id, league_match_clubs.c.match_id)

# The report's count of matches per season and game (a match of two clubs once).
league_match_totals = Table(
    "league_match_totals",
    metadata,
    Column("season_id", BigInteger, nullable=False),
    Column("game", Text, nullable=False),
    Column("matches", BigInteger, nullable=False),
    PrimaryKeyConstraint("season_id", "game"),
)
