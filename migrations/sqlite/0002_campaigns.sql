-- The flow after accounts: lasting test sets and systems (import), campaigns and their HITs,
-- workers and assignments (handing out work), judgments (annotation). SQLite version.

-- Lasting entities: a test set or a system outlives any one campaign.
CREATE TABLE test_sets (
    id          INTEGER PRIMARY KEY,
    name        TEXT    NOT NULL,
    source_lang TEXT    NOT NULL,
    target_lang TEXT    NOT NULL,
    year        INTEGER,
    created_at  INTEGER NOT NULL,
    UNIQUE (name, source_lang, target_lang)
);

CREATE TABLE segments (
    id          INTEGER PRIMARY KEY,
    test_set_id INTEGER NOT NULL REFERENCES test_sets(id) ON DELETE CASCADE,
    position    INTEGER NOT NULL,          -- 1-based order in the test set
    segment_key TEXT    NOT NULL,          -- the segment id the import gave
    document    TEXT,
    domain      TEXT,
    source      TEXT    NOT NULL,
    UNIQUE (test_set_id, position),
    UNIQUE (test_set_id, segment_key)
);

CREATE TABLE segment_references (
    segment_id INTEGER NOT NULL REFERENCES segments(id) ON DELETE CASCADE,
    name       TEXT    NOT NULL,           -- e.g. refA
    text       TEXT    NOT NULL,
    PRIMARY KEY (segment_id, name)
);

CREATE TABLE systems (
    id          INTEGER PRIMARY KEY,
    name        TEXT    NOT NULL,
    name_key    TEXT    NOT NULL UNIQUE,   -- lower-case name: names are unique ignoring case
    description TEXT,
    year        INTEGER,
    created_at  INTEGER NOT NULL
);

CREATE TABLE system_outputs (
    id         INTEGER PRIMARY KEY,
    system_id  INTEGER NOT NULL REFERENCES systems(id) ON DELETE CASCADE,
    segment_id INTEGER NOT NULL REFERENCES segments(id) ON DELETE CASCADE,
    text       TEXT    NOT NULL,
    UNIQUE (system_id, segment_id)
);
CREATE INDEX system_outputs_segment ON system_outputs(segment_id);

-- Campaigns and HITs.
CREATE TABLE campaigns (
    id             INTEGER PRIMARY KEY,
    public_id      TEXT    NOT NULL UNIQUE,  -- opaque id for crowd links
    name           TEXT    NOT NULL,
    task           TEXT    NOT NULL CHECK (task IN ('da-adequacy', 'da-fluency', 'da-source', 'word-order')),
    test_set_id    INTEGER NOT NULL REFERENCES test_sets(id),
    reference_name TEXT,                     -- which reference is shown and degraded
    settings       TEXT    NOT NULL,         -- JSON: the whole design (see campaign::CampaignSettings)
    seed           BIGINT  NOT NULL,
    status         TEXT    NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'launched', 'closed')),
    created_by     INTEGER REFERENCES users(id),
    created_at     INTEGER NOT NULL,
    launched_at    INTEGER
);

CREATE TABLE campaign_systems (
    campaign_id  INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
    system_id    INTEGER NOT NULL REFERENCES systems(id),
    is_benchmark INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (campaign_id, system_id)
);

CREATE TABLE hits (
    id          INTEGER PRIMARY KEY,
    campaign_id INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
    hit_index   INTEGER NOT NULL,            -- 0-based within the campaign
    item_count  INTEGER NOT NULL,
    UNIQUE (campaign_id, hit_index)
);

CREATE TABLE hit_items (
    id              INTEGER PRIMARY KEY,
    hit_id          INTEGER NOT NULL REFERENCES hits(id) ON DELETE CASCADE,
    position        INTEGER NOT NULL,        -- 0-based order of presentation
    item_type       TEXT    NOT NULL CHECK (item_type IN ('SYSTEM', 'BAD_REF', 'REPEAT', 'REF')),
    system_id       INTEGER REFERENCES systems(id),   -- NULL for REF items
    segment_id      INTEGER NOT NULL REFERENCES segments(id),
    paired_position INTEGER,                 -- position of the other member of a QC pair
    shown_text      TEXT    NOT NULL,        -- exactly the candidate text the annotator reads
    degradation     TEXT,                    -- what was changed, for the organizer (BAD_REF)
    UNIQUE (hit_id, position)
);

-- Who does the work.
CREATE TABLE workers (
    id          INTEGER PRIMARY KEY,
    user_id     INTEGER UNIQUE REFERENCES users(id),   -- annotators with accounts
    platform    TEXT    NOT NULL CHECK (platform IN ('account', 'mturk', 'prolific', 'link')),
    external_id TEXT    NOT NULL,            -- the platform's worker id (the user id for accounts)
    blocked     INTEGER NOT NULL DEFAULT 0,
    created_at  INTEGER NOT NULL,
    UNIQUE (platform, external_id)
);

CREATE TABLE assignments (
    id              INTEGER PRIMARY KEY,
    public_id       TEXT    NOT NULL UNIQUE, -- opaque id in the annotator's URLs
    hit_id          INTEGER NOT NULL REFERENCES hits(id),
    slot            INTEGER NOT NULL,        -- 0..redundancy-1: which of the k copies of the HIT
    worker_id       INTEGER NOT NULL REFERENCES workers(id),
    status          TEXT    NOT NULL CHECK (status IN ('active', 'completed', 'expired', 'returned')),
    platform_params TEXT,                    -- JSON: assignmentId, hitId, STUDY_ID, SESSION_ID, return URL
    next_position   INTEGER NOT NULL DEFAULT 0,
    item_shown_at   INTEGER,                 -- when the item at next_position was first served
    started_at      INTEGER NOT NULL,
    last_seen_at    INTEGER NOT NULL,
    completed_at    INTEGER,
    completion_code TEXT,
    UNIQUE (hit_id, worker_id)               -- a worker never gets the same HIT twice
);
-- One live (active or completed) assignment per HIT slot, even with several app servers.
CREATE UNIQUE INDEX assignments_live_slot ON assignments(hit_id, slot) WHERE status IN ('active', 'completed');
CREATE INDEX assignments_worker ON assignments(worker_id);

CREATE TABLE judgments (
    id                INTEGER PRIMARY KEY,
    assignment_id     INTEGER NOT NULL REFERENCES assignments(id),
    hit_item_id       INTEGER NOT NULL REFERENCES hit_items(id),
    score             REAL,                  -- DA: 0–100 at full resolution; word order: Q1
    score2            REAL,                  -- word order: Q2
    skipped           INTEGER NOT NULL DEFAULT 0,
    shown_at          INTEGER,
    submitted_at      INTEGER NOT NULL,
    time_on_screen_ms INTEGER,
    idempotency_key   TEXT,
    UNIQUE (assignment_id, hit_item_id)      -- an item is answered once
);
CREATE INDEX judgments_item ON judgments(hit_item_id);
