-- Post-editing (issue 40 item 2): its task name. Its answers (the edited text and its times)
-- are `judgments.detail`; its score, 100 − min(HTER, 100), is `judgments.score`.
INSERT INTO task_kinds (name) VALUES ('post-edit');
