-- Gold blocks of relative ranking (issue 19; WMT 2012's controls, seed 001 §2.2). PostgreSQL
-- version; see migrations/sqlite/0013_ranking_gold.sql.
CREATE TABLE ranking_gold (
    segment_id    BIGINT NOT NULL REFERENCES segments(id) ON DELETE CASCADE,
    system_id     BIGINT NOT NULL REFERENCES systems(id),
    expected_rank BIGINT NOT NULL CHECK (expected_rank >= 1),
    imported_at   BIGINT NOT NULL,
    PRIMARY KEY (segment_id, system_id)
);

ALTER TABLE hit_items ADD COLUMN gold_rank BIGINT;
