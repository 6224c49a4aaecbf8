"""The games database's schema: its tables, and the statements that bring an older
database up to SCHEMA_VERSION (MIGRATIONS). boggle_cv.store opens, creates and
migrates the file with them; each table's user names it below.
"""
from __future__ import annotations

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
#: Schema 3: each round's edition (boggle_cv.editions code; rounds stored before
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
