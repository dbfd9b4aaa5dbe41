"""Scorebox 1.0's league: the baseline of a league's own tables on its PostgreSQL store, beside
the club store's (store/migrations, made first: its matches and archers are referred to here).
Its clubs and their tokens' hashes, which club each box belongs to, the log of every push,
its seasons, its archers (a club's name) and what its pages read, kept as matches are stored
(league/keep.py). Never edited once released: a later change comes with a migration of its
own and a test that opens a 1.0 league.
"""

from alembic import op

revision = "league_1_0"
down_revision = None
branch_labels = None
depends_on = None

TABLES = """
CREATE TABLE league_clubs (
    id BIGSERIAL PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    token_id TEXT NOT NULL UNIQUE,
    token_hash TEXT NOT NULL,
    added DOUBLE PRECISION NOT NULL
);
CREATE TABLE league_boxes (
    uid TEXT PRIMARY KEY,
    club_id BIGINT NOT NULL REFERENCES league_clubs(id),
    claimed DOUBLE PRECISION NOT NULL
);
CREATE INDEX league_boxes_by_club ON league_boxes(club_id);
CREATE TABLE league_pushes (
    id BIGSERIAL PRIMARY KEY,
    club_id BIGINT REFERENCES league_clubs(id),
    push_id TEXT,
    pushed DOUBLE PRECISION NOT NULL,
    remote TEXT,
    sent INTEGER NOT NULL,
    stored INTEGER NOT NULL,
    held INTEGER NOT NULL,
    status INTEGER NOT NULL,
    outcome TEXT NOT NULL
);
CREATE UNIQUE INDEX league_pushes_once ON league_pushes(club_id, push_id) WHERE status = 200;
CREATE INDEX league_pushes_by_club ON league_pushes(club_id, id);
-- Seasons, archers per club, and the standings and archers' records kept as matches are
-- stored (LeagueDB.keep).
CREATE TABLE league_seasons (
    id BIGSERIAL PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    first_day DATE NOT NULL,
    last_day DATE NOT NULL,
    added DOUBLE PRECISION NOT NULL,
    CHECK (first_day <= last_day)
);
CREATE TABLE league_archers (
    id BIGSERIAL PRIMARY KEY,
    club_id BIGINT NOT NULL REFERENCES league_clubs(id),
    archer_id BIGINT NOT NULL REFERENCES archers(id),
    UNIQUE (club_id, archer_id)
);
CREATE TABLE league_match_sides (
    match_id BIGINT NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
    side TEXT NOT NULL,
    position INTEGER NOT NULL,
    archer_id BIGINT NOT NULL REFERENCES league_archers(id),
    game TEXT NOT NULL,
    day DATE,
    outcome TEXT,
    PRIMARY KEY (match_id, side, position)
);
CREATE INDEX league_match_sides_by_archer ON league_match_sides(archer_id, day DESC NULLS LAST, match_id DESC);
CREATE TABLE league_club_days (
    club_id BIGINT NOT NULL REFERENCES league_clubs(id),
    game TEXT NOT NULL,
    day DATE,
    matches BIGINT NOT NULL,
    wins BIGINT NOT NULL,
    draws BIGINT NOT NULL,
    losses BIGINT NOT NULL
);
CREATE INDEX league_club_days_by_day ON league_club_days(day);
CREATE TABLE league_club_totals (
    club_id BIGINT NOT NULL REFERENCES league_clubs(id),
    season_id BIGINT NOT NULL,
    game TEXT NOT NULL,
    matches BIGINT NOT NULL,
    wins BIGINT NOT NULL,
    draws BIGINT NOT NULL,
    losses BIGINT NOT NULL,
    PRIMARY KEY (club_id, season_id, game)
);
CREATE INDEX league_club_totals_by_season ON league_club_totals(season_id);
CREATE TABLE league_archer_totals (
    archer_id BIGINT NOT NULL REFERENCES league_archers(id),
    season_id BIGINT NOT NULL,
    game TEXT NOT NULL,
    matches BIGINT NOT NULL,
    wins BIGINT NOT NULL,
    draws BIGINT NOT NULL,
    losses BIGINT NOT NULL,
    PRIMARY KEY (archer_id, season_id, game)
);
CREATE INDEX league_archer_totals_by_season ON league_archer_totals(season_id);
-- The clubs of a match's sides when they are not both its box's club's (a guest archer's
-- home club, from the push's `clubs`): a row for each side of such a match, none for the
-- others. Not kept from the matches (keep_all keeps it): what the club said. By club, newest
-- first, for a club's page (LeagueDB.club_matches).
CREATE TABLE league_match_clubs (
    match_id BIGINT NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
    side TEXT NOT NULL,
    club_id BIGINT NOT NULL REFERENCES league_clubs(id),
    PRIMARY KEY (match_id, side)
);
CREATE INDEX league_match_clubs_by_club ON league_match_clubs(club_id, match_id);
-- The report's count of matches per season and game (a match of two clubs once), kept as
-- the totals are (LeagueDB.keep).
CREATE TABLE league_match_totals (
    season_id BIGINT NOT NULL,
    game TEXT NOT NULL,
    matches BIGINT NOT NULL,
    PRIMARY KEY (season_id, game)
);"""


def upgrade():
    op.get_bind().exec_driver_sql(TABLES)
