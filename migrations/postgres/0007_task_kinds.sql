-- Relative ranking (issue 19), and a house for every protocol after it (PostgreSQL).
--
-- The tasks a campaign may have move from a CHECK on campaigns.task to a table that
-- campaigns.task references: a protocol that comes later adds its name with one INSERT.
--
-- hit_items.screen: relative ranking shows several items (the outputs of one or more
-- consecutive segments) on one screen; NULL for one item per screen.
CREATE TABLE task_kinds (
    name TEXT NOT NULL PRIMARY KEY
);
INSERT INTO task_kinds (name) VALUES ('da-adequacy'), ('da-fluency'), ('da-source'), ('word-order'), ('ranking');

ALTER TABLE campaigns DROP CONSTRAINT campaigns_task_check;
ALTER TABLE campaigns ADD CONSTRAINT campaigns_task_fkey FOREIGN KEY (task) REFERENCES task_kinds(name);

ALTER TABLE hit_items ADD COLUMN screen BIGINT;
