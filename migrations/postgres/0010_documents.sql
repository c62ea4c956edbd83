-- Error Span Annotation on documents (issue 20; PostgreSQL).
--
-- The task `esa` (its answers' spans and document score live in judgments.detail since 0006).
-- hit_items.unit: the document of the HIT an item belongs to (one system's translation of one
-- document, or a quality-control copy of one); its items are consecutive and in document order,
-- and a screen shows the unit's other items as context. NULL outside document tasks.
INSERT INTO task_kinds (name) VALUES ('esa');
ALTER TABLE hit_items ADD COLUMN unit BIGINT;
