-- Contrastive ESA (issue 40 item 1): its task name. Each output of a screen is an item of the
-- HIT (`hit_items.screen` groups a screen's outputs, as relative ranking's blocks); its answer
-- is ESA's: the score in `judgments.score`, the error spans in `judgments.detail`.
INSERT INTO task_kinds (name) VALUES ('contrastive-esa');
