-- Pairwise preference (issue 37 item 6): its task name, and what a pair item stores beyond a
-- single output. A pair item's system_id and shown_text are its output a; the columns below
-- are its output b and how the pair was shown:
-- - pair_system_id: b's system (for a degraded copy against its own original, the item's own
--   system);
-- - pair_text: b's text as shown;
-- - pair_left: the output shown on the left (on top on a phone), drawn per item at launch;
--   the answer records it again in judgments.detail;
-- - pair_degraded: quality control, the side that is a degraded copy of the other (BAD_REF
--   items only). The annotation server never sends it.
-- All NULL for an item of any other protocol.
INSERT INTO task_kinds (name) VALUES ('pairwise');

ALTER TABLE hit_items ADD COLUMN pair_system_id INTEGER REFERENCES systems(id);
ALTER TABLE hit_items ADD COLUMN pair_text TEXT;
ALTER TABLE hit_items ADD COLUMN pair_left TEXT CHECK (pair_left IN ('a', 'b'));
ALTER TABLE hit_items ADD COLUMN pair_degraded TEXT CHECK (pair_degraded IN ('a', 'b'));
