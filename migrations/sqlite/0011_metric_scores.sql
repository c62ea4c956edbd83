-- Metric scores uploaded for a campaign (issue 21): one row per uploaded metric, its scores one
-- row each (system level: segment_key NULL; segment level: the test set's segment key). Missing
-- scores (mt-metrics-eval's None) are not stored. SQLite version.
CREATE TABLE campaign_metrics (
    id          INTEGER PRIMARY KEY,
    campaign_id INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
    name        TEXT    NOT NULL,          -- the metric's name as uploaded (mt-metrics-eval METRIC-REF)
    files       TEXT    NOT NULL,          -- the uploaded files' names, one a line
    uploaded_by INTEGER REFERENCES users(id),
    uploaded_at INTEGER NOT NULL,
    UNIQUE (campaign_id, name)
);

CREATE TABLE campaign_metric_scores (
    metric_id   INTEGER NOT NULL REFERENCES campaign_metrics(id) ON DELETE CASCADE,
    system      TEXT    NOT NULL,          -- the system's name as the campaign has it
    segment_key TEXT,                      -- NULL: a system-level score
    score       REAL    NOT NULL
);

CREATE INDEX campaign_metric_scores_metric ON campaign_metric_scores (metric_id);
