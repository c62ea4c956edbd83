-- The review page's quality-control rows, kept in the database (issue 16): a server that has
-- not computed them yet (after a restart, or another app server on the same database) starts
-- from them and catches up with the judgments since, instead of reading every judgment of the
-- campaign again. A cache: deleting a row only costs that read. SQLite version.
--
-- wilcoxon: the reliability test the rows are of (1: Wilcoxon signed-rank, 0: paired t).
-- format: the build that wrote the rows (other builds ignore them).
-- table_count, table_max, campaign_count, campaign_max: the versions of the judgments the rows
-- are of (analysis::campaign::Stamp). read_at: when they were read (Unix ms).
-- rows_json: the rows (results::decisions::snapshot).
CREATE TABLE review_snapshots (
    campaign_id    INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
    wilcoxon       INTEGER NOT NULL,
    format         TEXT NOT NULL,
    table_count    INTEGER NOT NULL,
    table_max      INTEGER NOT NULL,
    campaign_count INTEGER NOT NULL,
    campaign_max   INTEGER NOT NULL,
    read_at        INTEGER NOT NULL,
    rows_json      TEXT NOT NULL,
    PRIMARY KEY (campaign_id, wilcoxon)
);
