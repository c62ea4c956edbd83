-- Practice on a screen of several outputs (issue 37 item 6, issue 38 row 15): pairwise
-- preference and relative ranking show a human reference beside its degraded copy, in an order
-- drawn per item. `candidate` is the first output shown (pairwise: the left one); `others` the
-- rest in the screen's order, as a JSON array of strings; `original_at` which output shown is
-- the original (0: `candidate`, k: the k-th of `others`). Both NULL for one output. SQLite
-- version.
ALTER TABLE practice_items ADD COLUMN others TEXT;
ALTER TABLE practice_items ADD COLUMN original_at INTEGER;
