-- Accounts, sessions, invitations and login attempts (SQLite).
-- Times are Unix milliseconds (BIGINT) so the same code reads both databases.
CREATE TABLE users (
    id            INTEGER PRIMARY KEY,
    email         TEXT    NOT NULL UNIQUE,
    display_name  TEXT    NOT NULL,
    password_hash TEXT    NOT NULL,
    role          TEXT    NOT NULL CHECK (role IN ('admin', 'organizer', 'researcher', 'annotator')),
    disabled      INTEGER NOT NULL DEFAULT 0,
    created_at    INTEGER NOT NULL
);

CREATE TABLE sessions (
    token_hash   TEXT    PRIMARY KEY,
    user_id      INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at   INTEGER NOT NULL,
    expires_at   INTEGER NOT NULL,
    last_seen_at INTEGER NOT NULL
);
CREATE INDEX sessions_user ON sessions(user_id);

CREATE TABLE invitations (
    token_hash  TEXT    PRIMARY KEY,
    email       TEXT    NOT NULL,
    role        TEXT    NOT NULL CHECK (role IN ('admin', 'organizer', 'researcher', 'annotator')),
    created_by  INTEGER NOT NULL REFERENCES users(id),
    created_at  INTEGER NOT NULL,
    expires_at  INTEGER NOT NULL,
    accepted_at INTEGER
);

CREATE TABLE login_attempts (
    id         INTEGER PRIMARY KEY,
    email      TEXT    NOT NULL,
    address    TEXT    NOT NULL,
    at         INTEGER NOT NULL,
    succeeded  INTEGER NOT NULL
);
CREATE INDEX login_attempts_email ON login_attempts(email, at);
CREATE INDEX login_attempts_address ON login_attempts(address, at);
