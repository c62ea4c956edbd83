-- The quality gate at submission and the organizer's decisions about workers (SQLite).

-- The campaign's gate: 'off' (a finished HIT always gets its completion code) or
-- 'require-pass' (the code only if the worker's pooled reliability verdict is pass);
-- gate_unsure says what "not enough evidence" gets under 'require-pass': 'give' or 'hold'.
-- Columns, not part of the design JSON: the organizer may change the gate of a live campaign.
ALTER TABLE campaigns ADD COLUMN gate TEXT NOT NULL DEFAULT 'off' CHECK (gate IN ('off', 'require-pass'));
ALTER TABLE campaigns ADD COLUMN gate_unsure TEXT NOT NULL DEFAULT 'give' CHECK (gate_unsure IN ('give', 'hold'));

-- A finished assignment whose completion code the gate held back (completion_code stays NULL
-- until the organizer approves the worker).
ALTER TABLE assignments ADD COLUMN code_held INTEGER NOT NULL DEFAULT 0;

-- The worker's reliability, pooled over their HITs in the campaign, computed when one of
-- their HITs is finished (one row per finished HIT; the latest is the current verdict).
CREATE TABLE worker_verdicts (
    id            INTEGER PRIMARY KEY,
    campaign_id   INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
    worker_id     INTEGER NOT NULL REFERENCES workers(id),
    assignment_id INTEGER NOT NULL REFERENCES assignments(id),
    verdict       TEXT    NOT NULL CHECK (verdict IN ('pass', 'fail', 'not-enough-evidence')),
    n_pairs       INTEGER NOT NULL,
    hits          INTEGER NOT NULL,
    reliability   TEXT    NOT NULL,          -- JSON: the test, n, mean difference, statistic, p, note
    code_given    INTEGER NOT NULL,          -- whether this HIT's completion code was given
    compute_us    INTEGER NOT NULL,          -- time of the gate computation, microseconds
    computed_at   INTEGER NOT NULL
);
CREATE INDEX worker_verdicts_worker ON worker_verdicts(campaign_id, worker_id, id);

-- The organizer's decisions about a worker in a campaign: a history, never edited. The latest
-- approve/reject is the worker's standing; block/unblock mirror workers.blocked; every bonus
-- counts. Amounts are in hundredths of the campaign's payment currency.
CREATE TABLE worker_decisions (
    id           INTEGER PRIMARY KEY,
    campaign_id  INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
    worker_id    INTEGER NOT NULL REFERENCES workers(id),
    decision     TEXT    NOT NULL CHECK (decision IN ('approve', 'reject', 'block', 'unblock', 'bonus')),
    reason       TEXT    NOT NULL DEFAULT '',
    bonus_cents  INTEGER,
    currency     TEXT,
    decided_by   INTEGER REFERENCES users(id),
    decided_at   INTEGER NOT NULL
);
CREATE INDEX worker_decisions_campaign ON worker_decisions(campaign_id, worker_id, id);
