-- The reference each test set of a study arm shows and degrades (issue 18 item 8): the old and
-- the new test set are imported apart and name their references as they like, so one name for
-- the campaign fits only one of them. NULL: the test set's first reference by name. SQLite version.
ALTER TABLE study_arms ADD COLUMN old_reference TEXT;
ALTER TABLE study_arms ADD COLUMN new_reference TEXT;
