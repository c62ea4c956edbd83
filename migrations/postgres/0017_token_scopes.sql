-- Personal API tokens get explicit scopes (issue 36): what a token may do beyond reading,
-- chosen when it is made. A space-separated list of scope names (auth::TokenScope): `read`
-- (every token), `metrics-upload` (POST /api/v1/campaigns/{id}/metrics), `gold-upload`
-- (POST /api/v1/test-sets/{id}/gold). Tokens made before keep what the README promised them:
-- reading and uploading metric scores, not gold orders. PostgreSQL version.
ALTER TABLE api_tokens ADD COLUMN scopes TEXT NOT NULL DEFAULT 'read metrics-upload';
