-- Crowd holds per client address (issue 38): the client a crowd arrival came from, as a keyed
-- hash of its address (campaign::http, signing::client_tag; the address itself is not kept),
-- on the assignment it claimed. The crowd link counts the assignments of a campaign held from
-- one address with no answer given yet, and refuses new claims beyond the server's limit.
-- NULL: an account's assignment, or one claimed before this migration.
ALTER TABLE assignments ADD COLUMN client_tag TEXT;
CREATE INDEX assignments_client_tag ON assignments (client_tag);
