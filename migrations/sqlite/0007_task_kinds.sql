-- Relative ranking (issue 19), and a house for every protocol after it.
--
-- The tasks a campaign may have move from a CHECK on campaigns.task to a table that
-- campaigns.task references: a protocol that comes later adds its name with one INSERT, on
-- both engines, instead of rebuilding campaigns. SQLite cannot change a CHECK in place, so
-- campaigns is rebuilt here the way SQLite documents it (a new table, copy, drop, rename) with
-- foreign keys off, in one transaction; no row changes. This migration therefore runs outside
-- the migrator's transaction (it opens its own).
--
-- hit_items.screen: relative ranking shows several items (the outputs of one or more
-- consecutive segments) on one screen; NULL for one item per screen.
PRAGMA foreign_keys = OFF;
BEGIN IMMEDIATE;

CREATE TABLE task_kinds (
    name TEXT NOT NULL PRIMARY KEY
);
INSERT INTO task_kinds (name) VALUES ('da-adequacy'), ('da-fluency'), ('da-source'), ('word-order'), ('ranking');

CREATE TABLE campaigns_new (
    id             INTEGER PRIMARY KEY,
    public_id      TEXT    NOT NULL UNIQUE,  -- opaque id for crowd links
    name           TEXT    NOT NULL,
    task           TEXT    NOT NULL REFERENCES task_kinds(name),
    test_set_id    INTEGER NOT NULL REFERENCES test_sets(id),
    reference_name TEXT,                     -- which reference is shown and degraded
    settings       TEXT    NOT NULL,         -- JSON: the whole design (see campaign::CampaignSettings)
    seed           BIGINT  NOT NULL,
    status         TEXT    NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'launched', 'closed')),
    created_by     INTEGER REFERENCES users(id),
    created_at     INTEGER NOT NULL,
    launched_at    INTEGER,
    gate           TEXT    NOT NULL DEFAULT 'off' CHECK (gate IN ('off', 'require-pass')),
    gate_unsure    TEXT    NOT NULL DEFAULT 'give' CHECK (gate_unsure IN ('give', 'hold'))
);
INSERT INTO campaigns_new (id, public_id, name, task, test_set_id, reference_name, settings, seed, status,
                           created_by, created_at, launched_at, gate, gate_unsure)
    SELECT id, public_id, name, task, test_set_id, reference_name, settings, seed, status,
           created_by, created_at, launched_at, gate, gate_unsure FROM campaigns;
DROP TABLE campaigns;
ALTER TABLE campaigns_new RENAME TO campaigns;

ALTER TABLE hit_items ADD COLUMN screen INTEGER;

COMMIT;
PRAGMA foreign_keys = ON;
