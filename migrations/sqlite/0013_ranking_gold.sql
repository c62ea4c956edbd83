-- Gold blocks of relative ranking (issue 19; WMT 2012's controls, seed 001 §2.2).
--
-- ranking_gold: a test set's gold orders, imported from a file (POST /api/v1/test-sets/{id}/gold):
-- per segment, its systems with their expected rank (1 = best; tied systems share a rank).
-- A new import for a test set replaces its gold orders.
--
-- hit_items.gold_rank: an output of a gold block in a ranking HIT, with its expected rank
-- (NULL: not gold). The item is otherwise an ordinary SYSTEM (or, on a repeated screen, REPEAT)
-- item; the annotation server never sends this column, and the analysis keeps gold answers out
-- of every score, ranking and agreement.
CREATE TABLE ranking_gold (
    segment_id    INTEGER NOT NULL REFERENCES segments(id) ON DELETE CASCADE,
    system_id     INTEGER NOT NULL REFERENCES systems(id),
    expected_rank INTEGER NOT NULL CHECK (expected_rank >= 1),
    imported_at   INTEGER NOT NULL,
    PRIMARY KEY (segment_id, system_id)
);

ALTER TABLE hit_items ADD COLUMN gold_rank INTEGER;
