-- Comparison studies across years (METHOD §7): the best system of an old evaluation and of a
-- new one, each on its own test set, and a benchmark system that translates both test sets,
-- judged in the same HITs. A study has one arm per (language pair, task); each arm is a
-- campaign whose HITs mix (old test set: BEST_old, benchmark) and (new test set: BEST_new,
-- benchmark). SQLite version.

CREATE TABLE studies (
    id          INTEGER PRIMARY KEY,
    name        TEXT    NOT NULL,
    seed        BIGINT  NOT NULL,
    created_by  INTEGER REFERENCES users(id),
    created_at  INTEGER NOT NULL
);

CREATE TABLE study_arms (
    study_id        INTEGER NOT NULL REFERENCES studies(id) ON DELETE CASCADE,
    campaign_id     INTEGER NOT NULL UNIQUE REFERENCES campaigns(id),
    old_test_set_id INTEGER NOT NULL REFERENCES test_sets(id),
    new_test_set_id INTEGER NOT NULL REFERENCES test_sets(id),
    best_old        INTEGER NOT NULL REFERENCES systems(id),
    best_new        INTEGER NOT NULL REFERENCES systems(id),
    benchmark       INTEGER NOT NULL REFERENCES systems(id),
    PRIMARY KEY (study_id, campaign_id)
);
