-- Teams (issue 17, finding 12): a test set, a campaign and a study belong to a team; organizers
-- and researchers see and act on their teams' work only; admins see everything and manage
-- teams. One default team (id 1) holds every row and every account that exists when this runs,
-- and every account made later (see auth::teams), so an install that never makes a team works
-- as before. A campaign's metric uploads, HITs and judgments follow their campaign.
--
-- SQLite refuses ADD COLUMN … REFERENCES with a non-NULL default while foreign keys are on, and
-- `PRAGMA foreign_keys` does nothing inside a transaction: this migration opens its own.
PRAGMA foreign_keys = OFF;
BEGIN IMMEDIATE;

CREATE TABLE teams (
    id         INTEGER PRIMARY KEY,
    name       TEXT    NOT NULL UNIQUE,
    created_at INTEGER NOT NULL
);
INSERT INTO teams (id, name, created_at) VALUES (1, 'Everyone', 0);

CREATE TABLE team_members (
    team_id INTEGER NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    PRIMARY KEY (team_id, user_id)
);
CREATE INDEX team_members_user ON team_members (user_id);
INSERT INTO team_members (team_id, user_id) SELECT 1, id FROM users;

ALTER TABLE test_sets ADD COLUMN team_id INTEGER NOT NULL DEFAULT 1 REFERENCES teams(id);
ALTER TABLE campaigns ADD COLUMN team_id INTEGER NOT NULL DEFAULT 1 REFERENCES teams(id);
ALTER TABLE studies   ADD COLUMN team_id INTEGER NOT NULL DEFAULT 1 REFERENCES teams(id);
CREATE INDEX test_sets_team ON test_sets (team_id);
CREATE INDEX campaigns_team ON campaigns (team_id);
CREATE INDEX studies_team ON studies (team_id);

COMMIT;
PRAGMA foreign_keys = ON;
