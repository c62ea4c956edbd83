-- Pre-filled error spans (ESA-AI, issue 20 item 4).
--
-- system_outputs.spans: the spans an import gave with the output (Appraise's `mqm`, the
-- `spans` column of TSV/JSONL), as JSON: a list of assay_core::protocol::Span (character
-- offsets of the output, end exclusive); NULL when none were given ("[]": given, none).
-- hit_items.prefilled: the spans the screen starts with for this item, fitted to the
-- campaign's scheme and, for a degraded copy, to its degraded text (see
-- assay_core::analysis::span_qc::fit_prefilled); NULL when the campaign shows none.
ALTER TABLE system_outputs ADD COLUMN spans TEXT;
ALTER TABLE hit_items ADD COLUMN prefilled TEXT;
