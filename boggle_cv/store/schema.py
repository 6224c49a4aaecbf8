"""The games database's schema: its tables, the statements that bring an older
database up to SCHEMA_VERSION (MIGRATIONS), and the two steps every backend runs with
them: what version a database holds (schema_version: a foreign or newer one is
refused) and bringing it up to date inside a write transaction (prepare). The
statements are SQLite's; store_sql.to_pg says them to PostgreSQL. Each table's user
names it below.
"""
from __future__ import annotations

from ..errors import StorageError
from .sql import Conn, tables

_MOVE_HINT = "choose another file with --db (or $BOGGLE_CV_DB)"

SCHEMA_VERSION = 6
#: The tables of a boggle-cv database; `meta` holds ('schema_version', N). `rooms`,
#: `room_photos` and `room_word_images` keep the rooms of `boggle-cv serve` (boggle_cv.room.db);
#: `practice_rounds` the rounds a player practised alone (boggle_cv.practice.record).
TABLES = ("meta", "games", "rounds", "round_players", "rooms", "room_photos", "room_word_images",
          "practice_rounds")

GAME_TABLES: tuple[str, ...] = (
    "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    """CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    created_at REAL NOT NULL
)""",
    """CREATE TABLE IF NOT EXISTS rounds (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id),
    created_at REAL NOT NULL,
    photo TEXT,
    board TEXT NOT NULL,
    report TEXT NOT NULL
)""",
    """CREATE TABLE IF NOT EXISTS round_players (
    round_id INTEGER NOT NULL REFERENCES rounds(id),
    player TEXT NOT NULL,
    score INTEGER NOT NULL,
    words TEXT NOT NULL,
    PRIMARY KEY (round_id, player)
)""",
)

#: The rooms' tables (schema 2): one JSON document per room, a round's photo preview.
ROOM_TABLES: tuple[str, ...] = (
    """CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY,
    doc TEXT NOT NULL,
    version INTEGER NOT NULL,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL
)""",
    """CREATE TABLE IF NOT EXISTS room_photos (
    code TEXT NOT NULL,
    round INTEGER NOT NULL,
    version INTEGER NOT NULL,
    jpeg BLOB NOT NULL,
    PRIMARY KEY (code, round)
)""",
)
#: Schema 3: each round's edition (boggle_cv.game.editions code; rounds stored before
#: editions existed were English, so the old rows read 'en').
ROUND_LANG: tuple[str, ...] = ("ALTER TABLE rounds ADD COLUMN lang TEXT NOT NULL DEFAULT 'en'",)
#: Schema 4: the handwriting of each word a sheet photo added to a room's list (one
#: small image a word, by a random id; boggle_cv.room.db, docs/web.md "Handwriting").
ROOM_WORD_IMAGES: tuple[str, ...] = (
    """CREATE TABLE IF NOT EXISTS room_word_images (
    id TEXT PRIMARY KEY,
    code TEXT NOT NULL,
    round INTEGER NOT NULL,
    player TEXT NOT NULL,
    image BLOB NOT NULL
)""",
    "CREATE INDEX IF NOT EXISTS room_word_images_room ON room_word_images(code, round, player)",
)
#: Schema 5: the rounds played alone (`boggle-cv practice`, the page's "Practice alone"),
#: one row a round; a player's record (best, average of the last ten) is per player
#: (name_key), size, edition and clock (boggle_cv.practice.record, docs/practice.md).
PRACTICE_ROUNDS: tuple[str, ...] = (
    """CREATE TABLE IF NOT EXISTS practice_rounds (
    id INTEGER PRIMARY KEY,
    player TEXT NOT NULL,
    player_key TEXT NOT NULL,
    size INTEGER NOT NULL,
    lang TEXT NOT NULL,
    seconds INTEGER NOT NULL,
    source TEXT NOT NULL,
    dice TEXT,
    board TEXT NOT NULL,
    score INTEGER NOT NULL,
    max_points INTEGER NOT NULL,
    words_scored INTEGER NOT NULL,
    board_words INTEGER NOT NULL,
    deal TEXT UNIQUE,
    played_at REAL NOT NULL,
    report TEXT NOT NULL
)""",
    "CREATE INDEX IF NOT EXISTS practice_rounds_record ON practice_rounds(player_key, size, lang, seconds, id)",
)
#: Schema 6: what makes a stored round the same round (`scan --game`: the photo's
#: content and the lists; boggle_cv.cli.scan_game), so that a repeat is refused or
#: replaced. Rounds stored before it have none and never match.
ROUND_FINGERPRINT: tuple[str, ...] = (
    "ALTER TABLE rounds ADD COLUMN fingerprint TEXT",
    "CREATE INDEX IF NOT EXISTS rounds_fingerprint ON rounds(game_id, fingerprint)",
)
#: Every table of a database (CREATE ... IF NOT EXISTS: safe to run again).
CREATE_TABLES = GAME_TABLES + ROOM_TABLES
#: What makes a new database, in order: the tables, then the columns and tables added since.
SCHEMA = CREATE_TABLES + ROUND_LANG + ROOM_WORD_IMAGES + PRACTICE_ROUNDS + ROUND_FINGERPRINT

#: version N -> the statements that bring a version-N database to N + 1; run only
#: by writes, in the same transaction as the round.
MIGRATIONS: dict[int, tuple[str, ...]] = {1: ROOM_TABLES, 2: ROUND_LANG, 3: ROOM_WORD_IMAGES,
                                          4: PRACTICE_ROUNDS, 5: ROUND_FINGERPRINT}


def schema_version(conn: Conn, where: object) -> int | None:
    """The schema version of an open database: None if it holds no table at all (new);
    StorageError if it is not a boggle-cv database or is newer than this program.
    `where` names it in the messages."""
    found = tables(conn)
    if not found:
        return None
    row = None
    if "meta" in found:
        row = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    if row is None:
        shown = ", ".join(sorted(found)[:4]) + (", ..." if len(found) > 4 else "")
        raise StorageError(f"{where} is not a boggle-cv games database (it holds other tables: {shown})",
                           _MOVE_HINT)
    try:
        version = int(row[0])
    except (TypeError, ValueError):
        raise StorageError(f"{where} has an unreadable schema version {row[0]!r}", _MOVE_HINT) from None
    if version > SCHEMA_VERSION:
        raise StorageError(f"games database {where} was written by a newer boggle-cv (schema {version}; "
                           f"this one reads up to {SCHEMA_VERSION})", "upgrade boggle-cv")
    return version


def prepare(conn: Conn, where: object) -> None:
    """Inside a write transaction: create the tables of a new database, or migrate an
    older one to SCHEMA_VERSION."""
    version = schema_version(conn, where)
    if version is None:
        for statement in SCHEMA:
            conn.execute(statement)
        conn.execute("INSERT INTO meta(key, value) VALUES ('schema_version', ?) ON CONFLICT (key) DO NOTHING",
                     (str(SCHEMA_VERSION),))
        return
    for statement in CREATE_TABLES:  # a database cut short while it was first made
        conn.execute(statement)
    while version < SCHEMA_VERSION:
        for statement in MIGRATIONS[version]:
            conn.execute(statement)
        version += 1
        conn.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(version),))
