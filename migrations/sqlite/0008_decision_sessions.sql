-- A decision about a crowd worker may concern one platform session of the worker id (Mechanical
-- Turk's assignmentId, Prolific's SESSION_ID, as kept in assignments.platform_params) rather
-- than every session of the id (NULL): someone else may have used the id (issue 17, finding 6).
ALTER TABLE worker_decisions ADD COLUMN platform_session TEXT;
