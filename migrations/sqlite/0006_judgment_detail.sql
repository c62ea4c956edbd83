-- The judgment model (assay_core::protocol): the structured parts of an answer (a rank among
-- the outputs shown together, error spans, a document score) as one JSON value; NULL when an
-- answer has none, as every direct-assessment and word-order answer.
ALTER TABLE judgments ADD COLUMN detail TEXT;
