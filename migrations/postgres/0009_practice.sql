-- Practice before real work and active time (issue 18): items built at launch from segments of the test set set
-- apart from the HITs, scored against expected ranges, never stored as judgments; and each
-- worker's progress through them per campaign (so a reload, or the worker's next HIT, does not
-- repeat the practice once passed). PostgreSQL version.
CREATE TABLE practice_items (
    campaign_id  BIGINT  NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
    position     BIGINT  NOT NULL,          -- 0-based order of presentation
    segment_id   BIGINT  NOT NULL REFERENCES segments(id),
    context      TEXT,                      -- the gray text or the source; NULL for fluency
    candidate    TEXT    NOT NULL,          -- the text to judge
    expect_high  BIGINT  NOT NULL,          -- 1: a careful reader scores it high; 0: low
    expect_low1  DOUBLE PRECISION NOT NULL,          -- DA score (0-100) or word-order Q1 (0-1): expected range
    expect_high1 DOUBLE PRECISION NOT NULL,
    expect_low2  DOUBLE PRECISION NOT NULL,          -- word-order Q2 (0-1); 0 and 1 for DA
    expect_high2 DOUBLE PRECISION NOT NULL,
    reason       TEXT    NOT NULL,          -- why, in words: "… because {reason}"
    PRIMARY KEY (campaign_id, position)
);

CREATE TABLE practice_progress (
    campaign_id   BIGINT  NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
    worker_id     BIGINT  NOT NULL REFERENCES workers(id),
    next_position BIGINT  NOT NULL DEFAULT 0, -- the practice item to answer now
    matched       BIGINT  NOT NULL DEFAULT 0, -- answers in the expected range in this round
    rounds        BIGINT  NOT NULL DEFAULT 1, -- rounds started (a failed round starts again)
    passed_at     BIGINT,                     -- set once a round passed: real items may be served
    updated_at    BIGINT  NOT NULL,
    PRIMARY KEY (campaign_id, worker_id)
);

-- Active time on an item (issue 18, item 4): the milliseconds the browser counted the page as
-- in use (visible, focused, and an input event no longer ago than the campaign's idle gap).
-- NULL for judgments stored without it. The analysis counts min(active, the server's own time).
ALTER TABLE judgments ADD COLUMN active_ms BIGINT;
